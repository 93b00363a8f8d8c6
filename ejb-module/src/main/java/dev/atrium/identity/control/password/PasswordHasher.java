package dev.atrium.identity.control.password;

import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import java.util.logging.Logger;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperties;

import dev.atrium.identity.control.IdentityConfig;
import dev.atrium.platform.ServerResources;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;

/**
 * argon2id with the OWASP baseline (19 MiB, 2 passes, 1 lane). Hashes are PHC strings that carry their own
 * parameters, so they can be strengthened later without invalidating stored ones. The system's libargon2 computes
 * them when it can be loaded (a login then costs a fraction of the CPU), password4j in pure Java otherwise; both
 * read each other's hashes, so a server may move between them with the same database.
 * <p>
 * Every hash is computed on one of a few threads of this class's own, as many as the machine has cores
 * ({@code atrium.passwords.hash-threads}), whatever number of requests ask at once. A hash is bound by memory
 * (19 MiB read and written twice): more of them at once than cores only evict each other from the caches, and on a
 * request's thread of the moment the 19 MiB come from a different allocator arena each time, fresh pages the kernel
 * must fault in. On the same few threads a hash costs what it costs outside the server (docs/benchmarks.md, "Password
 * hashes on threads of their own"), a flood of logins holds at most that many times 19 MiB, and a caller whose hash has
 * not begun within {@code atrium.passwords.hash-wait-seconds} gets 503 (its hash is dropped, not computed for nobody).
 */
@ApplicationScoped
public class PasswordHasher {

    private static final Logger LOG = Logger.getLogger(PasswordHasher.class.getName());
    private static final String DECOY_PASSWORD = "decoy-password-Never-matches-1";
    /**
     * Waiting hashes per thread beyond which one more is refused at once: 512 native hashes of about 20 ms are the
     * default wait, so more could not begin within it anyway.
     */
    private static final int QUEUE_PER_THREAD = 512;

    @Resource(lookup = ServerResources.WORKERS)
    ManagedThreadFactory threadFactory;

    @Inject
    @ConfigProperties
    IdentityConfig config;

    private final Argon2Engine engine;
    private ThreadPoolExecutor hashing;
    /** Checked against when an account does not exist, so both answers cost the same time. */
    private String decoy;

    /** Chosen once per class loader: loading libargon2 is done once, and logged once. */
    private static final class Engines {
        static final Argon2Engine BEST = NativeArgon2.load().<Argon2Engine>map(e -> e).orElseGet(JavaArgon2::new);

        static {
            LOG.info(() -> "Password hashing: argon2id by " + BEST.name()
                    + (BEST instanceof JavaArgon2 ? "; libargon2 (Debian: libargon2-1) was not found" : ""));
        }
    }

    public PasswordHasher() {
        this.engine = Engines.BEST;
    }

    PasswordHasher(Argon2Engine engine, ThreadFactory threadFactory, int threads, long waitSeconds) {
        this.engine = engine;
        this.config = new IdentityConfig();
        config.passwordsHashThreads = threads;
        config.passwordsHashWaitSeconds = waitSeconds;
        start(threadFactory);
    }

    /** A hasher with the server's defaults on threads of its own, for use outside the container. */
    public static PasswordHasher standalone() {
        return new PasswordHasher(Engines.BEST, work -> {
            Thread thread = new Thread(work, "password-hashing");
            thread.setDaemon(true);
            return thread;
        }, 0, 10);
    }

    @PostConstruct
    void start() {
        start(threadFactory);
    }

    /** Made with the application, so that a wrong setting fails the deployment rather than the first login. */
    void started(@Observes @Initialized(ApplicationScoped.class) Object event) {
        // the observer's call is enough: it makes the bean, and with it the threads and the decoy
    }

    private void start(ThreadFactory factory) {
        int configuredThreads = config.passwordsHashThreads;
        long waitSeconds = config.passwordsHashWaitSeconds;
        if (configuredThreads < 0 || waitSeconds < 0) {
            throw new IllegalStateException("Refusing to start: atrium.passwords.hash-threads "
                    + "(ATRIUM_PASSWORDS_HASH_THREADS) is " + configuredThreads
                    + " and atrium.passwords.hash-wait-seconds (ATRIUM_PASSWORDS_HASH_WAIT_SECONDS) " + waitSeconds
                    + "; neither may be negative");
        }
        int threads = configuredThreads == 0 ? Runtime.getRuntime().availableProcessors() : configuredThreads;
        hashing = new ThreadPoolExecutor(threads, threads, 0, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(threads * QUEUE_PER_THREAD), factory);
        decoy = hash(DECOY_PASSWORD);
    }

    @PreDestroy
    void stop() {
        hashing.shutdownNow();
    }

    public String hash(String password) {
        return onHashingThread(() -> engine.hash(password));
    }

    public boolean matches(String password, String hash) {
        // no policy lets an empty password be set, and the two engines do not agree on one
        if (password == null || password.isEmpty() || hash == null || !hash.startsWith("$argon2")) {
            return false;
        }
        return onHashingThread(() -> engine.verify(password, hash));
    }

    /** Spends the time of one verification without any account. */
    public void burnTime(String password) {
        matches(password == null ? "" : password, decoy);
    }

    /** Which engine computes the hashes in this process (libargon2 or password4j). */
    public String engine() {
        return engine.name();
    }

    private <T> T onHashingThread(Supplier<T> work) {
        var turn = new Turn<>(work);
        try {
            hashing.execute(turn);
        } catch (RejectedExecutionException full) {
            throw busy();
        }
        return turn.await(config.passwordsHashWaitSeconds);
    }

    /** One hash in the queue: run by the first hashing thread free, or dropped by its caller who waited too long. */
    private static final class Turn<T> implements Runnable {
        private final AtomicBoolean taken = new AtomicBoolean();
        private final FutureTask<T> task;

        Turn(Supplier<T> work) {
            task = new FutureTask<>(work::get);
        }

        @Override
        public void run() {
            if (taken.compareAndSet(false, true)) {
                task.run();
            }
        }

        T await(long waitSeconds) {
            try {
                try {
                    return task.get(waitSeconds, TimeUnit.SECONDS);
                } catch (TimeoutException late) {
                    if (taken.compareAndSet(false, true)) {
                        throw busy();
                    }
                    // begun: a hash ends within milliseconds, and its answer is owed to this caller
                    return task.get();
                }
            } catch (InterruptedException e) {
                taken.set(true);
                Thread.currentThread().interrupt();
                throw busy();
            } catch (ExecutionException e) {
                if (e.getCause() instanceof RuntimeException failure) {
                    throw failure;
                }
                if (e.getCause() instanceof Error error) {
                    throw error;
                }
                throw new IllegalStateException("Password hashing failed", e.getCause());
            }
        }
    }

    private static BusinessException busy() {
        return new BusinessException(Problem.UNAVAILABLE, "Too many password checks at once on this instance; "
                + "retry shortly", null, Map.of("Retry-After", "5"));
    }
}
