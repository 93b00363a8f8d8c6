package dev.atrium.ai.boundary.chat;

import static dev.atrium.platform.http.JsonProviders.JSON;

import java.io.StringReader;
import java.math.BigDecimal;
import java.time.Instant;

import jakarta.json.JsonValue;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.atrium.ai.entity.Message;

/** A message of a conversation (spec 02), with its tokens and cost. */
@Schema(description = "A message of a conversation")
public record MessageView(String id, String conversationId, String role, String content, int tokenCount,
                          BigDecimal cost, String model, Object metadata, Instant createdAt) {

    static MessageView from(Message m) {
        return new MessageView(m.id().toString(), m.conversationId().toString(), m.role(), m.content(),
                m.tokenCount(), m.cost(), m.model(), json(m.metadata()), m.createdAt());
    }

    /** Stored JSON metadata, handed on as JSON rather than as a string. */
    public static JsonValue json(String text) {
        try (var reader = JSON.createReader(new StringReader(text == null ? "{}" : text))) {
            return reader.readValue();
        }
    }
}
