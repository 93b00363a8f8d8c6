package dev.atrium.ai.entity;

import static dev.atrium.platform.http.JsonProviders.JSON;

import java.io.StringReader;

import jakarta.json.JsonObject;

/**
 * What a running task has generated so far: the fragments the model streamed (one token each from an
 * OpenAI-compatible provider, one word each from {@code echo}) and the characters of content they add up to.
 * Stored as the JSON object {@code {"tokens": n, "content_chars": m}}.
 */
public record TaskProgress(int tokens, int contentChars) {

    public TaskProgress {
        if (tokens < 0 || contentChars < 0) {
            throw new IllegalArgumentException("Progress cannot be negative");
        }
    }

    public String json() {
        return JSON.createObjectBuilder().add("tokens", tokens).add("content_chars", contentChars).build()
                .toString();
    }

    public static TaskProgress parse(String json) {
        try (var reader = JSON.createReader(new StringReader(json))) {
            JsonObject o = reader.readObject();
            return new TaskProgress(o.getInt("tokens", 0), o.getInt("content_chars", 0));
        }
    }
}
