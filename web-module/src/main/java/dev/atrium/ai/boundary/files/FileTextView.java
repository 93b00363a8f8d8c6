package dev.atrium.ai.boundary.files;

/** The text extracted from a ready file; {@code truncated} when it was cut at the configured length. */
public record FileTextView(String fileId, String text, int textLength, boolean truncated) {
}
