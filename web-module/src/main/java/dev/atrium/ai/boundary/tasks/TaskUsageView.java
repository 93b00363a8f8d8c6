package dev.atrium.ai.boundary.tasks;

/** The tokens a finished task used. */
public record TaskUsageView(int inputTokens, int outputTokens, int totalTokens) {
}
