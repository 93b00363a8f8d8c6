package dev.atrium.ai.boundary.chat;

import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperties;

import dev.atrium.ai.control.AiConfig;
import dev.atrium.platform.ServerResources;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;

/**
 * The threads streamed chat answers run on (SSE, their resumption, the WebSocket), each held while its answer
 * streams: at most {@code atrium.ai.stream-threads} (500) at once, made on demand by the server's managed thread
 * factory {@code concurrent/atrium-streams} and let go after 60 s idle; one more is refused with 503/50300. A pool
 * over the factory rather than a managed executor: the factory's threads carry the application's context from the
 * start, so handing a stream over is a queue hand-off, where Payara's managed executor captures and sets up context
 * for every task (about 1 ms of a stream's first token here; docs/benchmarks.md, "Streams on the application's own
 * threads"). The tasks take ids and the caller's data as arguments, never the request's context.
 */
@ApplicationScoped
public class StreamThreads implements Executor {

    /** Threads kept even when idle. */
    static final int CORE = 8;
    static final long IDLE_SECONDS = 60;

    @Resource(lookup = ServerResources.STREAMS)
    ManagedThreadFactory factory;

    @Inject
    @ConfigProperties
    AiConfig config;

    private ThreadPoolExecutor pool;

    @PostConstruct
    void start() {
        int max = config.streamThreads;
        if (max < 1) {
            throw new IllegalStateException("atrium.ai.stream-threads must be at least 1, not " + max);
        }
        pool = new ThreadPoolExecutor(Math.min(CORE, max), max, IDLE_SECONDS, TimeUnit.SECONDS,
                new SynchronousQueue<>(), factory);
    }

    @PreDestroy
    void stop() {
        pool.shutdownNow();
    }

    /** Runs the stream on a thread of its own, or refuses it with 503 when all of them are streaming. */
    @Override
    public void execute(Runnable task) {
        try {
            pool.execute(task);
        } catch (RejectedExecutionException full) {
            throw new BusinessException(Problem.UNAVAILABLE, "Too many answers are streaming on this instance; "
                    + "try again shortly");
        }
    }

    /** Streams running now. */
    int active() {
        return pool.getActiveCount();
    }
}
