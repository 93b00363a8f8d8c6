package dev.atrium.ai.control.tasks;

import java.util.UUID;

/**
 * One attempt of a task a worker holds: what to run, and the attempt number that entitles it to change the task.
 * A task of a conversation (smart-stream) also names it, the user's message the model answers, and the id its answer
 * gets; the three are null otherwise.
 */
public record TaskRun(UUID taskId, long userId, String prompt, String model, int attempt, UUID conversationId,
                      UUID userMessageId, UUID answerMessageId) {

    public TaskRun(UUID taskId, long userId, String prompt, String model, int attempt) {
        this(taskId, userId, prompt, model, attempt, null, null, null);
    }

    public boolean inConversation() {
        return conversationId != null && userMessageId != null && answerMessageId != null;
    }
}
