package dev.atrium.ai.boundary.tasks;

import java.time.Instant;
import java.util.Map;

import dev.atrium.ai.entity.Task;
import dev.atrium.ai.entity.TaskStatus;

/**
 * Spec 02's task status: {@code task_id}, {@code status}, and {@code result} when it is {@code success},
 * {@code error} when it is {@code failure}, {@code progress} when it is {@code PROGRESS} (each null otherwise),
 * with the model, the attempts made so far and the times: {@code expires_at} is when a finished task stops being
 * kept.
 */
public record TaskView(String taskId, String status, TaskResultView result, String error, TaskProgressView progress,
                       String model, int attempts, Instant createdAt, Instant startedAt, Instant finishedAt,
                       Instant expiresAt, Map<String, String> _links) {

    static final String BASE = "/api/tasks/";

    static TaskView from(Task t) {
        TaskStatus status = t.status();
        TaskResultView result = status == TaskStatus.SUCCESS
                ? new TaskResultView(t.resultContent(), new TaskUsageView(t.inputTokens(), t.outputTokens(),
                t.inputTokens() + t.outputTokens()))
                : null;
        return new TaskView(t.id().toString(), status.value(), result,
                status == TaskStatus.FAILURE ? t.error() : null,
                status == TaskStatus.PROGRESS ? TaskProgressView.from(t.progress()) : null,
                t.model(), t.attempts(), t.createdAt(), t.startedAt(), t.finishedAt(), t.expiresAt(),
                Map.of("self", BASE + t.id()));
    }
}
