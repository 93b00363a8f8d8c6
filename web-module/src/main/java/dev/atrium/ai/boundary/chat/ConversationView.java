package dev.atrium.ai.boundary.chat;

import java.time.Instant;
import java.util.Map;

import dev.atrium.ai.entity.Conversation;

/** A conversation (spec 02). */
public record ConversationView(String id, String title, String model, Object metadata, Instant createdAt,
                               Instant updatedAt, Map<String, String> _links) {

    static ConversationView from(Conversation c) {
        String self = "/api/conversations/" + c.id();
        return new ConversationView(c.id().toString(), c.title(), c.model(), MessageView.json(c.metadata()),
                c.createdAt(), c.updatedAt(), Map.of("self", self, "messages", self + "/messages"));
    }

}
