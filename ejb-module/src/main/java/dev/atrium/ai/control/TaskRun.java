package dev.atrium.ai.control;

import java.util.UUID;

/** One attempt of a task a worker holds: what to run, and the attempt number that entitles it to change the task. */
public record TaskRun(UUID taskId, long userId, String prompt, String model, int attempt) {
}
