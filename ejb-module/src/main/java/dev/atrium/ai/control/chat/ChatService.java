package dev.atrium.ai.control.chat;

import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;

import jakarta.ejb.ApplicationException;
import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;

import dev.atrium.ai.control.QuotaService;
import dev.atrium.ai.control.models.Completion;
import dev.atrium.ai.control.models.ModelDefinition;
import dev.atrium.ai.control.models.ModelGateway;
import dev.atrium.ai.control.models.Usage;
import dev.atrium.ai.control.tasks.TaskService;
import dev.atrium.ai.entity.Message;
import dev.atrium.ai.entity.Task;
import dev.atrium.ai.entity.Tier;

/**
 * A chat turn: quota first, then the user's message is stored, the model answers (whole or streamed), and the
 * answer is stored with its tokens and cost, counted against the day's tokens and, when streamed, kept for resume.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class ChatService {

    /**
     * What a client asks: a message, in a conversation (null starts one), of a model (null: the default), sampled at
     * a temperature (null: the model's default).
     */
    public record ChatCommand(UUID conversationId, String message, String model, Double temperature) {

        public ChatCommand(UUID conversationId, String message, String model) {
            this(conversationId, message, model, null);
        }

        /** Temperature 0: the same prompt gets the same answer, which the response cache may then give. */
        public boolean deterministic() {
            return temperature != null && temperature == 0;
        }
    }

    /** A turn admitted by the quotas, with the user's message stored (or, from {@link #prepare}, to be stored). */
    public record Started(long userId, ModelDefinition model, ConversationStore.Turn turn) {
    }

    /** The stored answer. */
    public record Reply(UUID conversationId, UUID messageId, String content, String model, Usage usage,
                        Instant createdAt, boolean interrupted) {
    }

    @Inject
    QuotaService quotas;

    @EJB
    ConversationStore conversations;

    @Inject
    ModelGateway models;

    @Inject
    StreamCache cache;

    @Inject
    ResponseCache responses;

    @EJB
    TaskService tasks;

    @Inject
    Clock clock;

    /** Smart-stream's choice: stream now ({@code started}) or run as a task ({@code task}), with the estimate. */
    public record Plan(double estimatedSeconds, Started started, Task task) {
    }

    /** Under this estimate smart-stream answers with a stream, otherwise with a task (spec 02). */
    public static final double SMART_STREAM_THRESHOLD = 30;

    /** The turn of a caller whose tier the request has read (and which allows the model): quotas, then the turn. */
    public Started begin(long userId, Tier tier, ChatCommand command) {
        return begin(userId, command, quotas.admit(userId, tier, command.model()));
    }

    /**
     * A streamed turn's first half without its writes: quotas, then the conversation's history and the ids the turn
     * will be stored under. The caller starts the model call and meanwhile stores the turn with {@link #store}, so
     * the model's first token does not wait for the database (see {@link #stream}).
     */
    public Started prepare(long userId, Tier tier, ChatCommand command) {
        var admission = quotas.admit(userId, tier, command.model());
        var turn = conversations.prepare(userId, command.conversationId(), command.message());
        return new Started(userId, admission.model(), turn);
    }

    /** Stores a prepared turn: its conversation if new, and the user's message. */
    public void store(Started started) {
        conversations.store(started.userId(), started.turn(), started.model());
    }

    private Started begin(long userId, ChatCommand command, QuotaService.Admission admission) {
        var turn = conversations.begin(userId, command.conversationId(), admission.model(), command.message());
        return new Started(userId, admission.model(), turn);
    }

    /**
     * Estimates how long the answer takes: the model's latency plus the prompt and the expected answer (about as long
     * as the prompt, between 64 and 2048 tokens) at the model's tokens per second. Under 30 s the turn starts as a
     * stream; otherwise the message becomes a task.
     */
    public Plan plan(long userId, Tier tier, ChatCommand command) {
        var admission = quotas.admit(userId, tier, command.model());
        double estimate = estimate(admission.model(), command.message());
        if (estimate < SMART_STREAM_THRESHOLD) {
            return new Plan(estimate, begin(userId, command, admission), null);
        }
        // the task continues the conversation: the user's message is stored now, the answer when the task succeeds
        var turn = conversations.begin(userId, command.conversationId(), admission.model(), command.message());
        return new Plan(estimate, null, tasks.submit(userId, admission.model().id(), turn, command.message()));
    }

    static double estimate(ModelDefinition model, String message) {
        int input = Usage.estimate(message);
        int output = Math.max(64, Math.min(2048, input));
        double seconds = model.latencySeconds() + (input + output) / Math.max(1.0, model.tokensPerSecond());
        return Math.round(seconds * 10) / 10.0;
    }

    public Reply complete(long userId, Tier tier, ChatCommand command) {
        Started started = begin(userId, tier, command);
        var context = started.turn().context();
        Completion completion = (command.deterministic() ? responses.get(started.model(), context)
                : Optional.<Completion>empty()).orElseGet(() -> {
                    var answered = models.complete(started.model(), context, command.temperature());
                    if (command.deterministic()) {
                        responses.put(started.model(), context, answered);
                    }
                    return answered;
                });
        return finish(started, "chat", completion.content(), completion.usage(), false);
    }

    /**
     * Streams the answer to {@code onDelta}, caching it fragment by fragment for resume (the cache first, so any
     * offset a client has seen is cached). The model is not stopped when the client goes away: the answer is
     * generated, cached and saved whole, and may be resumed while it is still being generated.
     * <p>
     * The model is called at once; nothing of its answer is cached, passed on or saved before {@code stored}, the
     * turn's own write, has completed. If that write failed, the model call is abandoned (which closes its
     * connection) and {@link NotStored} is thrown: the request that stored the turn answers with the failure.
     */
    public Reply stream(Started started, CompletableFuture<?> stored, Consumer<String> onDelta) {
        var gate = new StoredGate(stored);
        var content = new StringBuilder();
        var entry = new StreamCache.Entry[1];
        Usage usage;
        try {
            usage = models.stream(started.model(), started.turn().context(), delta -> {
                if (entry[0] == null) {
                    gate.await();
                    entry[0] = cache.open(started.turn().assistantMessageId(), started.userId());
                }
                content.append(delta);
                entry[0].update(content.toString(), false);
                onDelta.accept(delta);
            }, gate::failed);
            // also when no fragment came: the answer is saved only after the turn
            gate.await();
        } catch (RuntimeException e) {
            if (!(e instanceof NotStored)) {
                // a stored turn's failed answer is cached as ended, so a resume finds what came (a turn that
                // failed to be stored makes await throw instead)
                gate.await();
                if (entry[0] == null) {
                    entry[0] = cache.open(started.turn().assistantMessageId(), started.userId());
                }
                entry[0].update(content.toString(), true);
            }
            throw e;
        }
        Reply reply = finish(started, "stream", content.toString(), usage, false);
        if (entry[0] == null) {
            entry[0] = cache.open(started.turn().assistantMessageId(), started.userId());
        }
        entry[0].update(reply.content(), true);
        return reply;
    }

    /** The turn a stream answers could not be stored; the request that stored it reports why. */
    @ApplicationException
    public static final class NotStored extends RuntimeException {
        NotStored(Throwable cause) {
            super("The chat turn could not be stored", cause, false, false);
        }
    }

    /** Waits for the turn's write; a failed write makes the stream stop. */
    private record StoredGate(CompletableFuture<?> stored) {

        void await() {
            try {
                stored.join();
            } catch (CompletionException | CancellationException e) {
                throw new NotStored(e.getCause() == null ? e : e.getCause());
            }
        }

        boolean failed() {
            return stored.isCompletedExceptionally();
        }
    }

    private Reply finish(Started started, String channel, String content, Usage usage, boolean interrupted) {
        var message = conversations.finish(started.userId(), channel, started.turn(), started.model(), content, usage,
                interrupted);
        quotas.consumed(started.userId(), usage.total());
        return new Reply(started.turn().conversationId(), started.turn().assistantMessageId(), content,
                started.model().id(), usage, message.map(Message::createdAt).orElseGet(clock::instant), interrupted);
    }
}
