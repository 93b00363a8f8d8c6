package dev.atrium.ai.boundary.chat;

import java.util.UUID;

import jakarta.json.JsonValue;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.atrium.ai.control.chat.ChatService;
import dev.atrium.platform.error.BusinessException;

/**
 * Spec 02's ChatRequest: a null {@code conversation_id} starts a conversation; {@code model} null is the default;
 * {@code temperature} (0 to 2, optional) is passed to the model, and 0 makes the request deterministic (cacheable).
 * {@code stream} is read as JSON's own {@code true} or {@code false} only: JSON-B would take {@code "maybe"} or
 * {@code 2} for false, and a client that meant to stream would quietly get one answer.
 */
public record ChatRequest(String conversationId, @NotNull @Size(min = 1, max = 10_000) String message,
                          @Size(max = 50) String model,
                          @Schema(type = SchemaType.BOOLEAN, nullable = true,
                                  description = "true streams the answer as text/event-stream (on "
                                          + "/api/chat/completions too); false or absent answers one ChatResponse "
                                          + "there") JsonValue stream,
                          @DecimalMin("0") @DecimalMax("2") Double temperature) {

    /** Whether the caller asked for a stream: 422 naming the field for anything but a JSON boolean or null. */
    boolean streamed() {
        if (stream == null || stream.getValueType() == JsonValue.ValueType.NULL) {
            return false;
        }
        return switch (stream.getValueType()) {
            case TRUE -> true;
            case FALSE -> false;
            default -> throw BusinessException.validation("stream: must be true or false");
        };
    }

    ChatService.ChatCommand toCommand() {
        UUID conversation = null;
        if (conversationId != null && !conversationId.isBlank()) {
            try {
                conversation = UUID.fromString(conversationId.trim());
            } catch (IllegalArgumentException e) {
                throw BusinessException.validation("conversation_id: not a conversation id");
            }
        }
        return new ChatService.ChatCommand(conversation, message, model, temperature);
    }
}
