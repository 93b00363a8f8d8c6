/**
 * Tasks: submitting a long-running AI task, following its progress and result, and the administrators' cleanup of
 * the task store on demand.
 */
package dev.atrium.ai.boundary.tasks;
