/**
 * What operators call: {@code /health}, {@code /admin/operations} (outbox, queues, object store) and the batch jobs
 * and their executions.
 */
package dev.atrium.platform.boundary.operations;
