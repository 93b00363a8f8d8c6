package dev.atrium.ai.boundary;

import java.util.UUID;

import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

import dev.atrium.ai.control.ChatService;
import dev.atrium.platform.error.BusinessException;

/**
 * Spec 02's ChatRequest: a null {@code conversation_id} starts a conversation; {@code model} null is the default;
 * {@code temperature} (0 to 2, optional) is passed to the model, and 0 makes the request deterministic (cacheable).
 */
public record ChatRequest(String conversationId, @NotNull @Size(min = 1, max = 10_000) String message,
                          @Size(max = 50) String model, Boolean stream,
                          @DecimalMin("0") @DecimalMax("2") Double temperature) {

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
