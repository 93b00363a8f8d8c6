/**
 * The consumers of Atrium's queues and topic on Payara Server: message-driven beans on Artemis's resource adapter,
 * one per queue, each handing its messages to the application's {@link dev.atrium.platform.messaging.MessageHandler}
 * (or {@link dev.atrium.platform.messaging.TopicHandler}) as the application's own consumers do on Payara Micro. Owns
 * nothing else: what a message means stays with its handler, and sending stays with
 * {@link dev.atrium.platform.messaging.ServerMessaging}. Left out: the concurrency of each queue follows the handlers'
 * defaults in the beans' {@code maxSession}, not their configuration keys (an administrator changes it in the
 * deployment descriptor).
 */
package dev.atrium.platform.messaging.server;
