/**
 * Message-driven beans on Artemis's resource adapter (artemis-rar.rar, deployed before the test's WAR as the
 * launchers deploy it) and the product's embedded broker with its redelivery settings: delivery, redelivery after a
 * rolled-back delivery, and the dead-letter queue after the last attempt.
 */
package dev.atrium.containerit.messaging;
