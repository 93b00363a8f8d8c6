package dev.atrium.ai.control.tasks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;

import javax.sql.DataSource;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.atrium.ai.control.AiConfig;
import dev.atrium.ai.control.UsageLedgers;
import dev.atrium.ai.control.chat.ConversationStore;
import dev.atrium.ai.control.models.ModelDefinition;
import dev.atrium.ai.control.models.Usage;
import dev.atrium.ai.entity.Message;
import dev.atrium.ai.entity.Task;
import dev.atrium.ai.entity.TaskProgress;
import dev.atrium.ai.entity.TaskStatus;
import dev.atrium.ai.entity.Tier;
import dev.atrium.platform.config.ConfigDefaults;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.persistence.TestDatabases;
import dev.atrium.platform.query.ListQuery;
import dev.atrium.platform.time.MovableClock;

/**
 * The tasks table, its entity and the service's queries and row locks on the JPA provider the server uses, over H2
 * in the embedded default's PostgreSQL mode. {@code -Datrium.test.postgres-url=jdbc:postgresql://...} runs the same
 * against an empty PostgreSQL database instead.
 */
class TaskPersistenceTest {

    private static final Instant T0 = Instant.parse("2026-03-01T10:15:30.123456Z");
    private static final long ADA = 1;
    private static final long BOB = 2;
    private static final long CAROL = 3;
    private static final ModelDefinition MODEL = new ModelDefinition("echo", "echo", "echo", BigDecimal.ZERO,
            BigDecimal.ZERO, Set.of(Tier.FREE, Tier.PRO, Tier.ENTERPRISE), 50, 0.1);

    private static DataSource dataSource;
    private static EntityManagerFactory factory;

    private final MovableClock clock = new MovableClock(Clock.fixed(T0, ZoneOffset.UTC));

    @BeforeAll
    static void migrate() throws SQLException {
        dataSource = TestDatabases.dataSource("tasks");
        TestDatabases.migrate(dataSource);
        try (var c = dataSource.getConnection(); var s = c.createStatement()) {
            s.execute("INSERT INTO users (id, email, username, created_at, updated_at) VALUES "
                    + "(1, 'ada@example.org', 'ada', now(), now()), (2, 'bob@example.org', 'bob', now(), now()), "
                    + "(3, 'carol@example.org', 'carol', now(), now())");
        }
        factory = TestDatabases.entityManagers(dataSource);
    }


    @AfterAll
    static void close() {
        factory.close();
    }

    private <T> T inTransaction(Function<TaskService, T> work) {
        EntityManager em = factory.createEntityManager();
        try {
            var service = new TaskService();
            service.em = em;
            service.clock = clock;
            service.config = ConfigDefaults.of(AiConfig.class);
            service.config.taskRetentionSeconds = 3600;
            service.ledger = UsageLedgers.of(em, clock);
            em.getTransaction().begin();
            T result = work.apply(service);
            em.getTransaction().commit();
            return result;
        } finally {
            em.close();
        }
    }

    private UUID store(long userId, String prompt) {
        var task = new Task(userId, prompt, "echo", clock.instant());
        return inTransaction(service -> {
            service.em.persist(task);
            return task.id();
        });
    }

    private TaskRun start(UUID id) {
        return inTransaction(service -> service.start(id)).orElseThrow();
    }

    @Test
    void whenATaskContinuesAConversationThenItsRunNamesTheConversationAndTheMessages() {
        UUID conversation = UUID.randomUUID();
        UUID question = UUID.randomUUID();
        UUID answer = UUID.randomUUID();
        var task = new Task(BOB, "and then?", "echo", clock.instant()).inConversation(conversation, question, answer);
        inTransaction(service -> {
            service.em.persist(task);
            return task.id();
        });
        TaskRun run = start(task.id());
        assertThat(run).isEqualTo(new TaskRun(task.id(), BOB, "and then?", "echo", 1, conversation, question, answer));
        assertThat(run.inConversation()).isTrue();
        assertThat(start(store(BOB, "alone")).inConversation()).isFalse();
    }

    @Test
    void whenAConversationsTaskSucceedsThenItsAnswerJoinsTheConversationBeforeTheSuccessIsCommitted() {
        UUID conversation = UUID.randomUUID();
        UUID question = UUID.randomUUID();
        UUID answer = UUID.randomUUID();
        var task = new Task(BOB, "and then?", "echo", clock.instant()).inConversation(conversation, question, answer);
        inTransaction(service -> {
            service.em.persist(task);
            return task.id();
        });
        TaskRun run = start(task.id());
        var seenWhenJoined = new ArrayList<TaskStatus>();
        var joined = new ConversationStore() {
            @Override
            public Optional<Message> answer(Turn turn, ModelDefinition model, String content, Usage usage,
                                            boolean interrupted) {
                assertThat(turn.assistantMessageId()).isEqualTo(answer);
                assertThat(content).isEqualTo("then this");
                EntityManager other = factory.createEntityManager();
                try {
                    seenWhenJoined.add(other.find(Task.class, task.id()).status());
                } finally {
                    other.close();
                }
                return Optional.empty();
            }
        };

        boolean succeeded = inTransaction(s -> {
            s.conversations = joined;
            return s.succeed(run, MODEL, "then this", new Usage(1, 2), BigDecimal.ZERO);
        });

        assertThat(succeeded).isTrue();
        assertThat(seenWhenJoined).as("joined once, while the success was not yet visible")
                .containsExactly(TaskStatus.RUNNING);
        assertThat(inTransaction(s -> s.find(BOB, task.id())).status()).isEqualTo(TaskStatus.SUCCESS);
    }

    @Test
    void whenATaskRunsToSuccessThenEveryStepReadsBack() throws SQLException {
        var id = store(ADA, "Grüße aus Köln");
        clock.advance(Duration.ofSeconds(1));

        TaskRun run = start(id);
        assertThat(run).isEqualTo(new TaskRun(id, ADA, "Grüße aus Köln", "echo", 1));
        boolean published = inTransaction(s -> s.progress(run, new TaskProgress(3, 14)));
        assertThat(published).isTrue();
        Task progressing = inTransaction(s -> s.find(ADA, id));
        assertThat(progressing.status()).isEqualTo(TaskStatus.PROGRESS);
        assertThat(progressing.progress()).isEqualTo(new TaskProgress(3, 14));

        clock.advance(Duration.ofSeconds(2));
        boolean succeeded = inTransaction(s -> s.succeed(run, MODEL, "Echo: Grüße aus Köln", new Usage(4, 5),
                new BigDecimal("0.123456")));
        assertThat(succeeded).isTrue();

        Task done = inTransaction(s -> s.find(ADA, id));
        assertThat(done.status()).isEqualTo(TaskStatus.SUCCESS);
        assertThat(done.resultContent()).isEqualTo("Echo: Grüße aus Köln");
        assertThat(done.inputTokens()).isEqualTo(4);
        assertThat(done.outputTokens()).isEqualTo(5);
        assertThat(done.cost()).isEqualByComparingTo("0.123456");
        assertThat(done.attempts()).isEqualTo(1);
        assertThat(done.createdAt()).isEqualTo(T0);
        assertThat(done.startedAt()).isEqualTo(T0.plusSeconds(1));
        assertThat(done.finishedAt()).isEqualTo(T0.plusSeconds(3));
        assertThat(done.expiresAt()).isEqualTo(T0.plusSeconds(3603));
        var billed = inTransaction(s -> s.em.createQuery("select r from UsageRecord r where r.userId = :u",
                dev.atrium.ai.entity.UsageRecord.class).setParameter("u", ADA).getResultList());
        assertThat(billed).as("the task's call is recorded for the usage report")
                .anySatisfy(r -> {
                    assertThat(r.channel()).isEqualTo("task");
                    assertThat(r.inputTokens()).isEqualTo(4);
                    assertThat(r.outputTokens()).isEqualTo(5);
                    assertThat(r.cost()).isEqualByComparingTo("0.123456");
                });
        try (var c = dataSource.getConnection();
             var q = c.prepareStatement("SELECT status, progress, expires_at FROM tasks WHERE id = ?")) {
            q.setObject(1, id);
            try (var row = q.executeQuery()) {
                assertThat(row.next()).isTrue();
                assertThat(row.getString(1)).isEqualTo("success");
                assertThat(row.getString(2)).isNull();
                assertThat(row.getObject(3, OffsetDateTime.class).toInstant()).isEqualTo(T0.plusSeconds(3603));
            }
        }
    }

    @Test
    void whenAFinishedTaskIsDeliveredAgainThenItIsNotStarted() {
        var id = store(ADA, "once");
        TaskRun run = start(id);
        inTransaction(s -> s.fail(run, "hard time limit exceeded", new Usage(1, 0), BigDecimal.ZERO));

        Optional<TaskRun> again = inTransaction(s -> s.start(id));
        Optional<TaskRun> unknown = inTransaction(s -> s.start(UUID.randomUUID()));
        Task task = inTransaction(s -> s.find(ADA, id));

        assertThat(again).isEmpty();
        assertThat(unknown).isEmpty();
        assertThat(task.attempts()).isEqualTo(1);
    }

    @Test
    void whenAnotherUserOrAnUnknownIdIsAskedThenNotFound() {
        var id = store(ADA, "mine");

        assertThatThrownBy(() -> inTransaction(s -> s.find(BOB, id))).isInstanceOf(BusinessException.class)
                .hasMessage("Task not found");
        assertThatThrownBy(() -> inTransaction(s -> s.find(ADA, UUID.randomUUID())))
                .isInstanceOf(BusinessException.class);
    }

    @Test
    void whenTheRetentionPassesThenTheTaskIsHiddenAndTheCleanupDeletesOnlyIt() {
        var expiring = store(BOB, "expiring");
        var kept = store(BOB, "kept");
        var waiting = store(BOB, "still waiting");
        TaskRun first = start(expiring);
        inTransaction(s -> s.succeed(first, MODEL, "a", new Usage(1, 1), BigDecimal.ZERO));
        clock.advance(Duration.ofSeconds(1800));
        TaskRun second = start(kept);
        inTransaction(s -> s.succeed(second, MODEL, "b", new Usage(1, 1), BigDecimal.ZERO));

        clock.advance(Duration.ofSeconds(1800));

        assertThatThrownBy(() -> inTransaction(s -> s.find(BOB, expiring))).isInstanceOf(BusinessException.class);
        List<UUID> listed = inTransaction(s -> s.list(BOB, ListQuery.firstPage()).items().stream()
                .map(Task::id).toList());
        assertThat(listed).contains(kept, waiting).doesNotContain(expiring);

        int deleted = inTransaction(TaskService::removeExpired);
        int deletedAgain = inTransaction(TaskService::removeExpired);
        Task gone = inTransaction(s -> s.em.find(Task.class, expiring));
        Task stillKept = inTransaction(s -> s.find(BOB, kept));
        Task stillWaiting = inTransaction(s -> s.find(BOB, waiting));

        assertThat(deleted).as("this test's expired task, and any other test's").isPositive();
        assertThat(deletedAgain).isZero();
        assertThat(gone).isNull();
        assertThat(stillKept.resultContent()).isEqualTo("b");
        assertThat(stillWaiting.status()).isEqualTo(TaskStatus.SUBMITTED);
    }

    @Test
    void whenListedThenOnlyTheCallersTasksNewestFirstAndFilteredByStatus() {
        var older = store(CAROL, "older");
        clock.advance(Duration.ofSeconds(1));
        var newer = store(CAROL, "newer");
        store(BOB, "not carol's");
        start(newer);

        var all = inTransaction(s -> s.list(CAROL, ListQuery.firstPage()));
        var running = inTransaction(s -> s.list(CAROL, ListQuery.firstPage()
                .withFilter("status", List.of("running"))));

        assertThat(all.items()).extracting(Task::id).containsExactly(newer, older);
        assertThat(running.items()).extracting(Task::id).containsExactly(newer);
    }
}
