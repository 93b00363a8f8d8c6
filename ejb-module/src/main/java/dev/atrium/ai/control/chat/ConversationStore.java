package dev.atrium.ai.control.chat;

import java.math.BigDecimal;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

import dev.atrium.ai.control.UsageLedger;
import dev.atrium.ai.control.models.ChatTurn;
import dev.atrium.ai.control.models.ModelDefinition;
import dev.atrium.ai.control.models.Usage;
import dev.atrium.ai.entity.Conversation;
import dev.atrium.ai.entity.Message;
import dev.atrium.platform.error.BusinessException;

/**
 * The writes around a model call, each in its own short transaction: before the call the conversation and the
 * user's message; after it the assistant's message. No transaction stays open while a model is answering.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
public class ConversationStore {

    /** How much history a model sees: the last messages of the conversation. */
    static final int CONTEXT_MESSAGES = 20;

    /**
     * The state between the two halves of a chat turn: the ids its messages are (or will be) stored under and what
     * the model sees, the user's message last; {@code newConversation} when the turn starts its conversation.
     */
    public record Turn(UUID conversationId, UUID userMessageId, UUID assistantMessageId, List<ChatTurn> context,
                       boolean newConversation) {

        public Turn(UUID conversationId, UUID userMessageId, UUID assistantMessageId, List<ChatTurn> context) {
            this(conversationId, userMessageId, assistantMessageId, context, false);
        }

        String text() {
            return context.get(context.size() - 1).content();
        }
    }

    @PersistenceContext(unitName = "atrium")
    EntityManager em;

    @Inject
    Clock clock;

    @EJB
    UsageLedger ledger;

    @Inject
    ConversationCache cache;

    /** Prepares and stores the turn in one transaction. */
    public Turn begin(long userId, UUID conversationId, ModelDefinition model, String text) {
        Turn turn = prepare(userId, conversationId, text);
        store(userId, turn, model);
        return turn;
    }

    /**
     * The turn with its ids and the model's context, stored by {@link #store} later: someone else's or an unknown
     * conversation is "not found" here, before any model is called. Reads only.
     */
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public Turn prepare(long userId, UUID conversationId, String text) {
        var context = new ArrayList<ChatTurn>();
        if (conversationId != null) {
            context.addAll(history(owned(em, conversationId, userId).id()));
        }
        // a new conversation has no history: neither the cache nor the database is asked
        context.add(new ChatTurn("user", text));
        return new Turn(conversationId == null ? UUID.randomUUID() : conversationId, UUID.randomUUID(),
                UUID.randomUUID(), List.copyOf(context), conversationId == null);
    }

    /**
     * Stores a prepared turn: the conversation if the turn starts it, and the user's message. A conversation deleted
     * since the turn was prepared is "not found".
     */
    public void store(long userId, Turn turn, ModelDefinition model) {
        Conversation conversation;
        if (turn.newConversation()) {
            conversation = new Conversation(turn.conversationId(), userId, model.id(), clock.instant());
            em.persist(conversation);
        } else {
            conversation = owned(em, turn.conversationId(), userId);
        }
        String text = turn.text();
        em.persist(new Message(turn.userMessageId(), conversation.id(), "user", text, Usage.estimate(text),
                model.inputCost(Usage.estimate(text)), model.id(), "{}", clock.instant()));
        conversation.touch(clock.instant());
        cache.putAfterCommit(conversation.id(), turn.context());
    }

    /**
     * Stores the answer; the prompt's message gets the token count and cost the model reported for it, and the call
     * is recorded for the usage report ({@code channel}) in the same transaction, even when the conversation was
     * deleted while the model answered (then there is no message).
     */
    public Optional<Message> finish(long userId, String channel, Turn turn, ModelDefinition model, String content,
                                    Usage usage, boolean interrupted) {
        ledger.record(userId, model, channel, usage);
        return answer(turn, model, content, usage, interrupted);
    }

    /**
     * Stores an answer the usage report already has (a task's): nothing when the conversation was deleted meanwhile.
     */
    public Optional<Message> answer(Turn turn, ModelDefinition model, String content, Usage usage,
                                    boolean interrupted) {
        Conversation conversation = em.find(Conversation.class, turn.conversationId());
        if (conversation == null) {
            return Optional.empty();
        }
        Message prompt = em.find(Message.class, turn.userMessageId());
        if (prompt != null) {
            prompt.account(usage.inputTokens(), model.inputCost(usage.inputTokens()));
        }
        BigDecimal cost = model.outputCost(usage.outputTokens());
        var answer = new Message(turn.assistantMessageId(), turn.conversationId(), "assistant", content,
                usage.outputTokens(), cost, model.id(), interrupted ? "{\"interrupted\":true}" : "{}", clock.instant());
        // the history as it was before this answer (read first, so the query does not flush the answer into it)
        var history = new ArrayList<>(history(conversation.id()));
        em.persist(answer);
        conversation.touch(clock.instant());
        history.add(new ChatTurn("assistant", answer.content()));
        cache.putAfterCommit(conversation.id(), history);
        return Optional.of(answer);
    }

    /** The conversation's last messages, oldest first: from the conversation cache, else from the database. */
    private List<ChatTurn> history(UUID conversationId) {
        return cache.get(conversationId).orElseGet(() -> {
            List<Message> latest = em.createQuery("select m from Message m where m.conversationId = :c "
                            + "order by m.createdAt desc", Message.class)
                    .setParameter("c", conversationId).setMaxResults(CONTEXT_MESSAGES).getResultList();
            var turns = new ArrayList<ChatTurn>();
            for (int i = latest.size() - 1; i >= 0; i--) {
                turns.add(new ChatTurn(latest.get(i).role(), latest.get(i).content()));
            }
            return turns;
        });
    }

    /**
     * What the model sees for a user's message already stored: the conversation's last messages up to and including
     * it; empty when the conversation or the message is gone.
     */
    public List<ChatTurn> context(UUID conversationId, UUID userMessageId) {
        Message last = em.find(Message.class, userMessageId);
        if (last == null || !last.conversationId().equals(conversationId)) {
            return List.of();
        }
        List<Message> history = em.createQuery("select m from Message m where m.conversationId = :c "
                        + "and m.createdAt <= :at and m.id <> :last order by m.createdAt desc", Message.class)
                .setParameter("c", conversationId).setParameter("at", last.createdAt()).setParameter("last", last.id())
                .setMaxResults(CONTEXT_MESSAGES).getResultList();
        var context = new ArrayList<ChatTurn>();
        for (int i = history.size() - 1; i >= 0; i--) {
            context.add(new ChatTurn(history.get(i).role(), history.get(i).content()));
        }
        context.add(new ChatTurn(last.role(), last.content()));
        return context;
    }

    /** The user's conversation; anyone else's is "not found", never "forbidden". */
    static Conversation owned(EntityManager em, UUID id, long userId) {
        Conversation conversation = em.find(Conversation.class, id);
        if (conversation == null || !conversation.ownedBy(userId)) {
            throw BusinessException.notFound("Conversation");
        }
        return conversation;
    }
}
