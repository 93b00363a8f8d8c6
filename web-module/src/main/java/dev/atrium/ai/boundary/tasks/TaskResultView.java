package dev.atrium.ai.boundary.tasks;

/** What a successful task produced. */
public record TaskResultView(String content, TaskUsageView usage) {
}
