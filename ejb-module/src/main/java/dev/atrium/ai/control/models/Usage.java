package dev.atrium.ai.control.models;

/** Tokens a model call consumed. */
public record Usage(int inputTokens, int outputTokens) {

    public int total() {
        return inputTokens + outputTokens;
    }

    /** A rough count for text no tokenizer has seen: about four characters per token, at least one. */
    public static int estimate(String text) {
        return text == null || text.isEmpty() ? 0 : Math.max(1, (text.length() + 3) / 4);
    }
}
