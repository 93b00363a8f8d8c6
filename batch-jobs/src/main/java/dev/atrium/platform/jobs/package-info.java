/**
 * The job listeners every job declares: {@code executionLease} (holds the execution's lease while it runs here) and
 * {@code jobMetrics} (times each execution per job and outcome).
 */
package dev.atrium.platform.jobs;
