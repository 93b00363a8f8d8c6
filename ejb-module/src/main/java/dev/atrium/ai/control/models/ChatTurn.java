package dev.atrium.ai.control.models;

/** One message of a conversation as a model sees it: {@code system}, {@code user} or {@code assistant}. */
public record ChatTurn(String role, String content) {
}
