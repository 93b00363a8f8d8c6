/**
 * The platform: what every context uses and none owns.
 *
 * <p>Owns: errors ({@code BusinessException}, {@code Problem}), the clock, the key-value store (Redis or in-process),
 * messaging on Artemis (embedded or remote), application events through a transactional outbox and its relay, outgoing
 * mail (SMTP or outbox) through the {@code mail} queue, the application data source and its Flyway migrations, list
 * queries (filters, search, sorting, offset and cursor pagination), rate-limit counters, idempotency results, health
 * checks, what operators watch (the outbox backlog, queue depths and the DLQ: {@code Operations}) and batch job
 * control (starting, listing, stopping, restarting, and restarting from their checkpoint the executions a
 * dead process left: {@code ExecutionLeases}, {@code BatchRecovery}; packages {@code batch} and {@code jobs}, in the
 * batch-jobs module), and starting slow parts beside the deployment
 * ({@code StartedAhead}: the embedded broker here, the embedding model in the marketplace).
 *
 * <p>Public operations: {@code KeyValueStore}, {@code ApplicationEvents.publish}, {@code MessageHandler},
 * {@code MailService.queue}, {@code EntityQuery.list}, {@code RateLimiter.hit}, {@code IdempotencyStore},
 * {@code BatchJobs.start}, {@code HealthChecks.check}, {@code Operations.snapshot}, {@code HealthPart} (a line of
 * {@code /health} a context owns), the base of the message-driven beans ({@code messaging.Listener}).
 *
 * <p>Leaves out: anything about users, content, models or agents (it depends on no context); the HTTP side of the
 * conventions lives in the web module's {@code platform.boundary} (the pipeline and the error envelope in
 * {@code boundary.http}, JSON bodies in {@code boundary.json}, API versions in {@code boundary.version}, health and
 * operators' endpoints in {@code boundary.operations}).
 *
 * <p>Its configuration lives in {@code PlatformConfig}.
 */
package dev.atrium.platform;
