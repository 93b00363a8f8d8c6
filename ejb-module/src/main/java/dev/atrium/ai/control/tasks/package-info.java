/**
 * Tasks: submitting a long-running AI task and following it ({@code TaskService}), the workers of the tasks' queue
 * that run each attempt under its soft and hard time limits ({@code TaskWorker}, {@code TaskLimits}), and the hourly
 * cleanup of expired tasks ({@code TaskCleanup}).
 */
package dev.atrium.ai.control.tasks;
