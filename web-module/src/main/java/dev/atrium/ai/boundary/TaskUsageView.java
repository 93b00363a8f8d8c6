package dev.atrium.ai.boundary;

/** The tokens a finished task used. */
public record TaskUsageView(int inputTokens, int outputTokens, int totalTokens) {
}
