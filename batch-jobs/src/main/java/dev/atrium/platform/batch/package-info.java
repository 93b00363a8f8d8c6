/**
 * Batch job control, for every context's jobs: starting by name, once across instances and unless paused
 * ({@code BatchJobs}), listing, stopping and restarting executions, the leases that show an execution alive
 * ({@code ExecutionLeases}) and the restart of those a dead process left ({@code BatchRecovery}).
 */
package dev.atrium.platform.batch;
