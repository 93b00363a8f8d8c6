package dev.atrium.ai.boundary;

/** What a successful task produced. */
public record TaskResultView(String content, TaskUsageView usage) {
}
