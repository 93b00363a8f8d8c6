package dev.atrium.ai.boundary.tasks;

import dev.atrium.ai.entity.TaskProgress;

/**
 * How far a running task got: the fragments the model streamed so far (one token each from an OpenAI-compatible
 * provider, one word each from {@code echo}) and the characters of content they add up to.
 */
public record TaskProgressView(int tokens, int contentChars) {

    static TaskProgressView from(TaskProgress p) {
        return p == null ? null : new TaskProgressView(p.tokens(), p.contentChars());
    }
}
