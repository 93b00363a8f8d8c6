package dev.atrium.ai.control.chat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.atrium.ai.control.AiConfig;
import dev.atrium.ai.control.QuotaService;
import dev.atrium.ai.control.models.ChatTurn;
import dev.atrium.ai.control.models.EchoProvider;
import dev.atrium.ai.control.models.ModelDefinition;
import dev.atrium.ai.control.models.ModelGateways;
import dev.atrium.ai.control.models.Usage;
import dev.atrium.ai.entity.Message;
import dev.atrium.ai.entity.Tier;
import dev.atrium.platform.config.ConfigDefaults;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;
import dev.atrium.platform.kv.InMemoryKeyValueStore;

/**
 * A streamed turn calls the model while its own write is still under way: nothing of the answer is passed on, cached
 * or saved before the write has completed, and a failed write abandons the model call. The write is a future the
 * test completes; the model a provider that logs what happens, in order.
 */
class StreamedTurnGateTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-26T10:00:00Z"), ZoneOffset.UTC);
    private static final long USER = 7;
    private static final ModelDefinition MODEL = new ModelDefinition("echo", "echo", "echo", BigDecimal.ZERO,
            BigDecimal.ZERO, Set.of(Tier.FREE, Tier.PRO, Tier.ENTERPRISE), 50, 0.1);

    private final List<String> log = Collections.synchronizedList(new java.util.ArrayList<>());
    private ChatService chat;
    private StreamCache cache;
    private ChatService.Started started;
    /** What the fake model does after its first fragment: nothing, or fail as a broken upstream would. */
    private boolean failAfterFirst;

    @BeforeEach
    void wire() {
        cache = new StreamCache();
        cache.store = new InMemoryKeyValueStore(CLOCK);
        cache.clock = CLOCK;
        cache.config = ConfigDefaults.of(AiConfig.class);
        cache.config.streamCacheSeconds = 3600;
        var echo = new EchoProvider() {
            @Override
            public Usage stream(String upstreamModel, List<ChatTurn> messages, Consumer<String> onDelta,
                                BooleanSupplier cancelled) {
                log.add("model called");
                try {
                    for (String word : List.of("one ", "two")) {
                        if (cancelled.getAsBoolean()) {
                            log.add("cancelled");
                            break;
                        }
                        onDelta.accept(word);
                        if (failAfterFirst) {
                            throw new BusinessException(Problem.UNAVAILABLE, "The model broke off");
                        }
                    }
                } finally {
                    log.add("connection closed");
                }
                return new Usage(1, 2);
            }
        };
        var limits = ConfigDefaults.of(AiConfig.class);
        limits.maxConcurrentCalls = 1;
        limits.callWaitSeconds = 1;
        var gateway = ModelGateways.of(echo, limits);
        chat = new ChatService();
        chat.models = gateway;
        chat.cache = cache;
        chat.clock = CLOCK;
        chat.quotas = new QuotaService() {
            @Override
            public void consumed(long userId, int tokens) {
                log.add("tokens counted");
            }
        };
        chat.conversations = new ConversationStore() {
            @Override
            public Optional<Message> finish(long userId, String channel, Turn turn, ModelDefinition model,
                                            String content, Usage usage, boolean interrupted) {
                log.add("saved: " + content);
                return Optional.empty();
            }
        };
        started = new ChatService.Started(USER, MODEL, new ConversationStore.Turn(UUID.randomUUID(),
                UUID.randomUUID(), UUID.randomUUID(), List.of(new ChatTurn("user", "count")), true));
    }

    /** Streams on a thread of its own, as the streams executor does; the outcome is the reply or what was thrown. */
    private Thread streaming(CompletableFuture<?> stored, AtomicReference<Object> outcome) {
        var thread = new Thread(() -> {
            try {
                outcome.set(chat.stream(started, stored, delta -> log.add("event: " + delta)));
            } catch (RuntimeException e) {
                outcome.set(e);
            }
        });
        thread.start();
        return thread;
    }

    /** Until the stream waits (for the write) or has ended; a stream that passes its fragments on never waits. */
    private static void awaitWaitingOrEnded(Thread thread) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (thread.getState() != Thread.State.WAITING && thread.getState() != Thread.State.TERMINATED) {
            assertThat(System.nanoTime()).as("the stream neither waited nor ended").isLessThan(deadline);
            Thread.onSpinWait();
        }
    }

    private Optional<StreamCache.Cached> cached() {
        return cache.read(started.turn().assistantMessageId(), USER);
    }

    @Test
    void whenTheFirstFragmentIsPassedOnThenTheCacheHasBeenWrittenOnceWithIt() {
        var calls = Collections.synchronizedList(new java.util.ArrayList<String>());
        var store = new InMemoryKeyValueStore(CLOCK);
        cache.store = dev.atrium.platform.kv.CountedStore.of(store, calls);
        var atFirstEvent = new AtomicReference<List<String>>();
        var cachedAtFirstEvent = new AtomicReference<Optional<StreamCache.Cached>>();

        chat.stream(started, CompletableFuture.completedFuture(null), delta -> {
            if (atFirstEvent.get() == null) {
                atFirstEvent.set(List.copyOf(calls));
                cachedAtFirstEvent.set(cached());
            }
        });

        // one round trip before the first token reaches the client, and what the client then has is cached
        assertThat(atFirstEvent.get()).containsExactly("set");
        assertThat(cachedAtFirstEvent.get()).contains(new StreamCache.Cached("one ", false));
        assertThat(cached()).contains(new StreamCache.Cached("one two", true));
    }

    @Test
    void whenTheModelAnswersBeforeTheTurnIsStoredThenNothingIsPassedOnCachedOrSavedUntilItIs() throws Exception {
        var stored = new CompletableFuture<Void>();
        var outcome = new AtomicReference<>();
        Thread thread = streaming(stored, outcome);

        awaitWaitingOrEnded(thread);
        assertThat(thread.getState()).isEqualTo(Thread.State.WAITING);
        assertThat(log).containsExactly("model called");
        assertThat(cached()).isEmpty();

        log.add("stored");
        stored.complete(null);
        thread.join();

        assertThat(log).containsExactly("model called", "stored", "event: one ", "event: two", "connection closed",
                "saved: one two", "tokens counted");
        assertThat(outcome.get()).isInstanceOfSatisfying(ChatService.Reply.class,
                r -> assertThat(r.content()).isEqualTo("one two"));
        assertThat(cached()).contains(new StreamCache.Cached("one two", true));
    }

    @Test
    void whenTheTurnCannotBeStoredWhileTheModelAnswersThenTheCallIsAbandonedAndNothingIsPassedOnCachedOrSaved()
            throws Exception {
        var stored = new CompletableFuture<Void>();
        var outcome = new AtomicReference<>();
        Thread thread = streaming(stored, outcome);
        awaitWaitingOrEnded(thread);

        var deleted = BusinessException.notFound("Conversation");
        stored.completeExceptionally(deleted);
        thread.join();

        assertThat(log).containsExactly("model called", "connection closed");
        assertThat(outcome.get()).isInstanceOfSatisfying(ChatService.NotStored.class,
                e -> assertThat(e.getCause()).isSameAs(deleted));
        assertThat(cached()).isEmpty();
    }

    @Test
    void whenTheTurnCouldNotBeStoredBeforeTheModelAnswersThenTheCallStopsAtOnce() throws Exception {
        var outcome = new AtomicReference<>();
        Thread thread = streaming(CompletableFuture.failedFuture(new IllegalStateException("database down")),
                outcome);
        thread.join();

        assertThat(log).containsExactly("model called", "cancelled", "connection closed");
        assertThat(outcome.get()).isInstanceOf(ChatService.NotStored.class);
        assertThat(cached()).isEmpty();
    }

    @Test
    void whenTheModelBreaksOffAfterTheTurnIsStoredThenWhatCameIsCachedAsEndedAndTheFailureReported()
            throws Exception {
        failAfterFirst = true;
        var outcome = new AtomicReference<>();
        Thread thread = streaming(CompletableFuture.completedFuture(null), outcome);
        thread.join();

        assertThat(log).containsExactly("model called", "event: one ", "connection closed");
        assertThat(outcome.get()).isInstanceOfSatisfying(BusinessException.class,
                e -> assertThat(e.problem()).isEqualTo(Problem.UNAVAILABLE));
        assertThat(cached()).contains(new StreamCache.Cached("one ", true));
    }

    @Test
    void whenATurnIsStoredAlreadyThenTheStreamRunsAsBefore() {
        var reply = chat.stream(started, CompletableFuture.completedFuture(null), delta -> log.add("event: " + delta));

        assertThat(reply.content()).isEqualTo("one two");
        assertThat(log).containsExactly("model called", "event: one ", "event: two", "connection closed",
                "saved: one two", "tokens counted");
    }
}
