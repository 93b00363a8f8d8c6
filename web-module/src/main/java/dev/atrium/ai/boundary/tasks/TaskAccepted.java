package dev.atrium.ai.boundary.tasks;

/**
 * The answer to a submission: spec 02's {@code {task_id, status}} with {@code status} = {@code submitted}, and spec
 * 01's task object of a 202 ({@code id}, {@code href}: where to poll).
 */
public record TaskAccepted(String taskId, String status, String id, String href) {
}
