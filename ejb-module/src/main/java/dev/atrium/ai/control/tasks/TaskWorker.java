package dev.atrium.ai.control.tasks;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperties;

import dev.atrium.ai.control.AiConfig;
import dev.atrium.ai.control.QuotaService;
import dev.atrium.ai.control.chat.ConversationStore;
import dev.atrium.ai.control.models.ChatTurn;
import dev.atrium.ai.control.models.ModelCatalog;
import dev.atrium.ai.control.models.ModelDefinition;
import dev.atrium.ai.control.models.ModelGateway;
import dev.atrium.ai.control.models.Usage;
import dev.atrium.ai.entity.TaskProgress;
import dev.atrium.platform.ServerResources;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.messaging.MessageHandler;

/**
 * The task workers: {@link AiConfig#taskWorkers} consumers of the {@value TaskService#QUEUE} queue per instance,
 * each holding one message at a time. A worker starts an attempt, streams the model's answer through the
 * {@link ModelGateway} on a thread of its own and watches it: every ~500 ms it publishes the progress
 * ({@code PROGRESS}); past the soft limit it cancels the stream, and the attempt fails with
 * {@value #SOFT_LIMIT}; past the hard limit it stops waiting, cancels the call (interrupting its thread) and fails
 * the task with {@value #HARD_LIMIT} at once. Neither limit is retried: another attempt would take as long.
 * <p>
 * Any other failure of the model call (the provider answered 5xx, was unreachable, no slot was free) is recorded
 * and thrown, so the broker delivers the task again 5 s later; on the delivery after the
 * {@link AiConfig#taskRetries} retries, the task fails with that error instead. The messages carry task ids
 * only; a task already finished is skipped, one that was running when its worker went away runs again as a new
 * attempt.
 */
@ApplicationScoped
public class TaskWorker implements MessageHandler {

    static final String SOFT_LIMIT = "soft time limit exceeded";
    static final String HARD_LIMIT = "hard time limit exceeded";
    static final Duration PROGRESS_INTERVAL = Duration.ofMillis(500);

    private static final Logger LOG = Logger.getLogger(TaskWorker.class.getName());

    @EJB
    TaskService tasks;

    @Inject
    ModelCatalog catalog;

    @Inject
    ModelGateway gateway;

    @Inject
    QuotaService quotas;

    @EJB
    ConversationStore conversations;

    @Inject
    @ConfigProperties
    AiConfig config;

    @Resource(lookup = ServerResources.WORKERS)
    ManagedThreadFactory threads;

    private TaskLimits limits;
    // model calls run here so that a worker can walk away from one past the hard limit
    private ExecutorService calls;
    private volatile boolean stopping;

    @PostConstruct
    void init() {
        limits = TaskLimits.ofSeconds(config.taskSoftLimitSeconds, config.taskHardLimitSeconds);
        calls = Executors.newCachedThreadPool(threads);
    }

    @PreDestroy
    void stop() {
        stopping = true;
        calls.shutdownNow();
    }

    @Override
    public String queue() {
        return TaskService.QUEUE;
    }

    @Override
    public void onMessage(String body, int deliveryCount) throws Exception {
        UUID id;
        try {
            id = UUID.fromString(body.trim());
        } catch (IllegalArgumentException e) {
            LOG.warning(() -> "Ignoring a message on " + queue() + " that is not a task id");
            return;
        }
        Optional<TaskRun> started = tasks.start(id);
        if (started.isEmpty()) {
            return;
        }
        TaskRun run = started.get();
        Optional<ModelDefinition> model = catalog.find(run.model());
        if (model.isEmpty()) {
            tasks.fail(run, "Model " + run.model() + " is no longer available", new Usage(0, 0), BigDecimal.ZERO);
            return;
        }
        Outcome outcome = execute(run, model.get());
        switch (outcome.kind()) {
            case SUCCEEDED -> {
                tasks.succeed(run, model.get(), outcome.content(), outcome.usage(), cost(model.get(), outcome.usage()));
                count(run, outcome.usage());
            }
            case TIMED_OUT -> {
                tasks.fail(run, outcome.error(), outcome.usage(), cost(model.get(), outcome.usage()));
                count(run, outcome.usage());
            }
            case FAILED -> {
                boolean lastAttempt = deliveryCount > config.taskRetries || run.attempt() > config.taskRetries;
                if (lastAttempt) {
                    tasks.fail(run, outcome.error(), outcome.usage(), BigDecimal.ZERO);
                    return;
                }
                tasks.retryLater(run, outcome.error());
                throw new TaskAttemptFailed(run, outcome.error());
            }
        }
    }

    /** How one attempt ended. */
    record Outcome(Kind kind, String content, Usage usage, String error) {

        enum Kind {
            SUCCEEDED, TIMED_OUT, FAILED
        }
    }

    /** What the model has streamed so far; written by the call's thread, read by the worker's. */
    static final class Generation {
        private final StringBuilder content = new StringBuilder();
        private final AtomicBoolean cancelled = new AtomicBoolean();
        private int fragments;

        synchronized void append(String fragment) {
            content.append(fragment);
            fragments++;
        }

        synchronized TaskProgress progress() {
            return new TaskProgress(fragments, content.length());
        }

        synchronized String content() {
            return content.toString();
        }

        boolean cancelled() {
            return cancelled.get();
        }

        void cancel() {
            cancelled.set(true);
        }
    }

    private Outcome execute(TaskRun run, ModelDefinition model) {
        var generation = new Generation();
        var messages = messages(run);
        Future<Usage> call = calls.submit(() -> gateway.stream(model, messages, generation::append,
                generation::cancelled));
        long started = System.nanoTime();
        long lastPublished = started;
        TaskProgress published = new TaskProgress(0, 0);
        boolean softLimitReached = false;
        while (true) {
            Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
            TaskLimits.Stage stage = limits.stage(elapsed);
            if (stage == TaskLimits.Stage.HARD_EXCEEDED) {
                generation.cancel();
                call.cancel(true);
                LOG.warning(() -> "Task " + run.taskId() + " passed the hard time limit of " + limits.hard().toSeconds()
                        + " s; abandoned");
                return new Outcome(Outcome.Kind.TIMED_OUT, null, estimate(run, generation), HARD_LIMIT);
            }
            if (stage == TaskLimits.Stage.SOFT_EXCEEDED && !softLimitReached) {
                softLimitReached = true;
                generation.cancel();
                LOG.info(() -> "Task " + run.taskId() + " passed the soft time limit of " + limits.soft().toSeconds()
                        + " s; cancelling its stream");
            }
            Duration wait = min(PROGRESS_INTERVAL, limits.untilNextLimit(elapsed));
            try {
                Usage usage = call.get(Math.max(1, wait.toMillis()), TimeUnit.MILLISECONDS);
                leaveForRedeliveryIfStopping(run);
                if (softLimitReached) {
                    return new Outcome(Outcome.Kind.TIMED_OUT, null, usage, SOFT_LIMIT);
                }
                return new Outcome(Outcome.Kind.SUCCEEDED, generation.content(), usage, null);
            } catch (TimeoutException stillRunning) {
                long now = System.nanoTime();
                TaskProgress reached = generation.progress();
                if (!reached.equals(published) && now - lastPublished >= PROGRESS_INTERVAL.toNanos()) {
                    publish(run, reached);
                    published = reached;
                    lastPublished = now;
                }
            } catch (ExecutionException e) {
                leaveForRedeliveryIfStopping(run);
                if (softLimitReached) {
                    return new Outcome(Outcome.Kind.TIMED_OUT, null, estimate(run, generation), SOFT_LIMIT);
                }
                return new Outcome(Outcome.Kind.FAILED, null, new Usage(0, 0), describe(run, e.getCause()));
            } catch (InterruptedException e) {
                // the application is stopping: drop the call and leave the message to the broker for later
                generation.cancel();
                call.cancel(true);
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while running task " + run.taskId(), e);
            }
        }
    }

    /**
     * Stopping the application interrupts the model calls, and an interrupted stream ends early but normally: what
     * it produced is not the answer, and the attempt is left to the broker to deliver again after the restart.
     */
    private void leaveForRedeliveryIfStopping(TaskRun run) {
        if (stopping) {
            throw new IllegalStateException("The application is stopping; task " + run.taskId()
                    + " will run again when its message comes back");
        }
    }

    private void publish(TaskRun run, TaskProgress reached) {
        try {
            tasks.progress(run, reached);
        } catch (RuntimeException e) {
            // progress is a courtesy to the poller; the generation goes on without it
            LOG.log(Level.WARNING, e, () -> "Could not publish the progress of task " + run.taskId());
        }
    }

    private void count(TaskRun run, Usage usage) {
        try {
            quotas.consumed(run.userId(), usage.total());
        } catch (RuntimeException e) {
            // the task's outcome stands; only the day's token count misses these tokens
            LOG.log(Level.WARNING, e, () -> "Could not count the tokens of task " + run.taskId());
        }
    }

    /** The prompt alone, or for a conversation's task its history up to the user's message. */
    private List<ChatTurn> messages(TaskRun run) {
        if (run.inConversation()) {
            var context = conversations.context(run.conversationId(), run.userMessageId());
            if (!context.isEmpty()) {
                return context;
            }
        }
        return List.of(new ChatTurn("user", run.prompt()));
    }

    private static Usage estimate(TaskRun run, Generation generation) {
        return new Usage(Usage.estimate(run.prompt()), Usage.estimate(generation.content()));
    }

    private static BigDecimal cost(ModelDefinition model, Usage usage) {
        return model.inputCost(usage.inputTokens()).add(model.outputCost(usage.outputTokens()));
    }

    private static String describe(TaskRun run, Throwable failure) {
        if (failure instanceof BusinessException b) {
            return b.getMessage();
        }
        LOG.log(Level.WARNING, failure, () -> "Task " + run.taskId() + ": the model call failed unexpectedly");
        return "The model call failed unexpectedly";
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    /** Thrown so that the broker delivers the task again; the message says why, for the log. */
    static final class TaskAttemptFailed extends Exception {

        TaskAttemptFailed(TaskRun run, String error) {
            super("Attempt " + run.attempt() + " of task " + run.taskId() + " failed (" + error
                    + "); the broker delivers it again", null, false, false);
        }
    }
}
