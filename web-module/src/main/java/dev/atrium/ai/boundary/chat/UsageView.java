package dev.atrium.ai.boundary.chat;

import dev.atrium.ai.control.models.Usage;

/** Token usage of a model call. */
public record UsageView(int inputTokens, int outputTokens, int totalTokens) {

    static UsageView from(Usage usage) {
        return new UsageView(usage.inputTokens(), usage.outputTokens(), usage.total());
    }
}
