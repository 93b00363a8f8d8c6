package dev.atrium.ai.boundary.chat;

import java.time.Instant;

import dev.atrium.ai.control.chat.ChatService;

/** Spec 02's ChatResponse. */
public record ChatResponse(String conversationId, String messageId, String content, String model, UsageView usage,
                           Instant createdAt) {

    static ChatResponse from(ChatService.Reply reply) {
        return new ChatResponse(reply.conversationId().toString(), reply.messageId().toString(), reply.content(),
                reply.model(), UsageView.from(reply.usage()), reply.createdAt());
    }
}
