package dev.atrium.ai.control.tasks;

import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;

import org.eclipse.microprofile.config.inject.ConfigProperties;

import dev.atrium.ai.control.AiConfig;
import dev.atrium.ai.control.UsageLedger;
import dev.atrium.ai.control.chat.ConversationStore;
import dev.atrium.ai.control.models.ModelDefinition;
import dev.atrium.ai.control.models.Usage;
import dev.atrium.ai.entity.Task;
import dev.atrium.ai.entity.TaskProgress;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.events.ApplicationEvents;
import dev.atrium.platform.query.Catalog;
import dev.atrium.platform.query.EntityQuery;
import dev.atrium.platform.query.ListQuery;
import dev.atrium.platform.query.Listing;

/**
 * Tasks as use cases, each method one short transaction: submitting records the task and, in the same transaction, its
 * {@link TaskSubmitted} event, which the outbox relay hands to the {@value #QUEUE} queue after the commit; the
 * {@link TaskWorker} moves it on through {@link #start}, {@link #progress} and one of {@link #succeed}, {@link #fail}
 * or {@link #retryLater}, never holding a transaction while the model generates. Those steps lock the row, so a
 * worker's update and a competing one (an abandoned attempt, a redelivery) are applied one after the other and the
 * entity's attempt check decides. A finished task is visible to its owner for {@code atrium.ai.task-retention-seconds}
 * (3600), then gone, and deleted by {@link #removeExpired}.
 */
@Stateless
public class TaskService {

    public static final String QUEUE = "tasks";

    private static final Logger LOG = Logger.getLogger(TaskService.class.getName());

    static final Catalog<Task> CATALOG = Catalog.of(Task.class)
            .id("id", UUID.class)
            .filterable("status", "status", String.class)
            .filterable("model", "model", String.class)
            .sortable("finished_at", "finishedAt", Instant.class, false)
            .search("prompt");

    @PersistenceContext(unitName = "atrium")
    EntityManager em;

    @Inject
    ApplicationEvents events;

    @Inject
    Clock clock;

    @EJB
    UsageLedger ledger;

    @EJB
    ConversationStore conversations;

    @Inject
    @ConfigProperties
    AiConfig config;

    /** Records the task for its user with its event; neither exists if the caller's transaction rolls back. */
    public Task submit(long userId, String model, String prompt) {
        return submit(new Task(userId, prompt, model, clock.instant()));
    }

    /** A task that continues a conversation: the turn's user message is stored, the answer will be stored there. */
    public Task submit(long userId, String model, ConversationStore.Turn turn, String prompt) {
        return submit(new Task(userId, prompt, model, clock.instant()).inConversation(turn.conversationId(),
                turn.userMessageId(), turn.assistantMessageId()));
    }

    private Task submit(Task task) {
        em.persist(task);
        events.publish(new TaskSubmitted(task.id()));
        return task;
    }

    /** The caller's own task while it is kept; anyone else's, an expired or an unknown one is "not found". */
    public Task find(long userId, UUID id) {
        Task task = em.find(Task.class, id);
        if (task == null || !task.ownedBy(userId) || task.expired(clock.instant())) {
            throw BusinessException.notFound("Task");
        }
        return task;
    }

    /** The caller's tasks that are still kept, with the list conventions. */
    public Listing<Task> list(long userId, ListQuery query) {
        var now = clock.instant();
        return new EntityQuery<>(em, CATALOG).list(query, (cb, q, root) -> cb.and(
                cb.equal(root.get("userId"), userId),
                cb.or(cb.isNull(root.get("expiresAt")), cb.greaterThan(root.get("expiresAt"), now))));
    }

    /** A worker takes the task: a new attempt, unless the task is gone or already finished. */
    public Optional<TaskRun> start(UUID id) {
        Task task = em.find(Task.class, id, LockModeType.PESSIMISTIC_WRITE);
        if (task == null || task.status().finished()) {
            return Optional.empty();
        }
        int attempt = task.start(clock.instant());
        return Optional.of(new TaskRun(task.id(), task.userId(), task.prompt(), task.model(), attempt,
                task.conversationId(), task.userMessageId(), task.answerMessageId()));
    }

    public boolean progress(TaskRun run, TaskProgress reached) {
        return locked(run).map(t -> t.reportProgress(run.attempt(), reached)).orElse(false);
    }

    /**
     * Records the answer; the call is recorded for the usage report with it. A conversation's task has its answer
     * joined to the conversation in a transaction of its own that commits while this one still holds the task's row,
     * so whoever sees the task succeeded finds the answer there; if joining fails, the task's result stands.
     */
    public boolean succeed(TaskRun run, ModelDefinition model, String content, Usage usage, BigDecimal cost) {
        boolean applied = billed(run, usage, cost, locked(run).map(t -> t.succeed(run.attempt(), content,
                usage.inputTokens(), usage.outputTokens(), cost, clock.instant(), retention())).orElse(false));
        if (applied && run.inConversation()) {
            try {
                conversations.answer(new ConversationStore.Turn(run.conversationId(), run.userMessageId(),
                        run.answerMessageId(), List.of()), model, content, usage, false);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, e, () -> "Could not store the answer of task " + run.taskId()
                        + " in its conversation");
            }
        }
        return applied;
    }

    /** Records the failure; tokens generated until then (a time limit) are recorded for the usage report. */
    public boolean fail(TaskRun run, String reason, Usage usage, BigDecimal cost) {
        return billed(run, usage, cost, locked(run).map(t -> t.fail(run.attempt(), reason, usage.inputTokens(),
                usage.outputTokens(), cost, clock.instant(), retention())).orElse(false));
    }

    private boolean billed(TaskRun run, Usage usage, BigDecimal cost, boolean applied) {
        if (applied && (usage.total() > 0 || cost.signum() > 0)) {
            ledger.record(run.userId(), run.model(), "task", usage, cost);
        }
        return applied;
    }

    public boolean retryLater(TaskRun run, String reason) {
        return locked(run).map(t -> t.retryLater(run.attempt(), reason)).orElse(false);
    }

    /** Deletes the tasks past their retention; returns how many. */
    public int removeExpired() {
        return em.createQuery("DELETE FROM Task t WHERE t.expiresAt <= :now")
                .setParameter("now", clock.instant())
                .executeUpdate();
    }

    private Optional<Task> locked(TaskRun run) {
        return Optional.ofNullable(em.find(Task.class, run.taskId(), LockModeType.PESSIMISTIC_WRITE));
    }

    private Duration retention() {
        return Duration.ofSeconds(config.taskRetentionSeconds);
    }
}
