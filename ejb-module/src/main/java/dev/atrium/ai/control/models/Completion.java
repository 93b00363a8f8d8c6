package dev.atrium.ai.control.models;

/** A model's whole answer and its usage. */
public record Completion(String content, Usage usage) {
}
