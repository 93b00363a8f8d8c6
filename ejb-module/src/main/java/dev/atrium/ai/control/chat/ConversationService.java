package dev.atrium.ai.control.chat;

import java.time.Instant;
import java.util.UUID;

import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

import dev.atrium.ai.entity.Conversation;
import dev.atrium.ai.entity.Message;
import dev.atrium.platform.query.Catalog;
import dev.atrium.platform.query.EntityQuery;
import dev.atrium.platform.query.ListQuery;
import dev.atrium.platform.query.Listing;

/** A user's conversation history: listing, reading and deleting. Someone else's conversation is not found. */
@Stateless
public class ConversationService {

    static final Catalog<Conversation> CONVERSATIONS = Catalog.of(Conversation.class)
            .id("id", UUID.class)
            .filterable("model", "model", String.class)
            .sortable("updated_at", "updatedAt", Instant.class, true)
            .search("title");

    static final Catalog<Message> MESSAGES = Catalog.of(Message.class)
            .id("id", UUID.class)
            .filterable("role", "role", String.class)
            .search("content");

    @PersistenceContext(unitName = "atrium")
    EntityManager em;

    @Inject
    ConversationCache cache;

    public Listing<Conversation> list(long userId, ListQuery query) {
        return new EntityQuery<>(em, CONVERSATIONS).list(query, (cb, q, root) -> cb.equal(root.get("userId"), userId));
    }

    public Conversation get(long userId, UUID id) {
        return ConversationStore.owned(em, id, userId);
    }

    public Listing<Message> messages(long userId, UUID conversationId, ListQuery query) {
        ConversationStore.owned(em, conversationId, userId);
        return new EntityQuery<>(em, MESSAGES)
                .list(query, (cb, q, root) -> cb.equal(root.get("conversationId"), conversationId));
    }

    /** Deletes the conversation and its messages. */
    public void delete(long userId, UUID id) {
        Conversation conversation = ConversationStore.owned(em, id, userId);
        em.createQuery("delete from Message m where m.conversationId = :c").setParameter("c", id).executeUpdate();
        em.remove(conversation);
        cache.removeAfterCommit(id);
    }
}
