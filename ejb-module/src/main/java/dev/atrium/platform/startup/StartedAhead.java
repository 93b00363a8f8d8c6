package dev.atrium.platform.startup;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * Something slow to start (the embedded broker, the embedding model) begun on a thread of its own while the rest of
 * the application deploys, instead of after it on the deployment's one thread, and handed once to the bean that owns
 * it. The thread is a plain one: it exists before the container's managed executors can serve the application, and it
 * ends as soon as the start does. Whoever begins a start that holds resources also stops it when nobody takes it.
 *
 * @param <T> what is started
 */
public final class StartedAhead<T> {

    private final CompletableFuture<T> result = new CompletableFuture<>();
    private final AtomicBoolean taken = new AtomicBoolean();

    private StartedAhead() {
    }

    /** Begins {@code start} on a daemon thread named {@code name}, with the caller's context class loader. */
    public static <T> StartedAhead<T> begin(String name, Supplier<T> start) {
        var ahead = new StartedAhead<T>();
        Thread thread = new Thread(() -> {
            try {
                ahead.result.complete(start.get());
            } catch (Throwable e) {
                ahead.result.completeExceptionally(e);
            }
        }, name);
        thread.setDaemon(true);
        thread.setContextClassLoader(Thread.currentThread().getContextClassLoader());
        thread.start();
        return ahead;
    }

    /**
     * What was started, once its start has finished; empty when it was taken before. A failed start
     * throws its own exception here, on the taker's thread, as if the taker had started it.
     */
    public Optional<T> take() {
        if (!taken.compareAndSet(false, true)) {
            return Optional.empty();
        }
        try {
            return Optional.of(result.join());
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            if (e.getCause() instanceof Error cause) {
                throw cause;
            }
            throw e;
        }
    }
}
