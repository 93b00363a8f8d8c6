package dev.atrium.ai.entity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import dev.atrium.platform.error.BusinessException;

class TaskTest {

    private static final Instant NOW = Instant.parse("2026-03-01T10:00:00Z");
    private static final Duration RETENTION = Duration.ofSeconds(3600);

    private final Task task = new Task(7, "Write a haiku", "echo", NOW);

    @Test
    void whenSubmittedThenItWaitsWithoutAttemptsOrExpiry() {
        assertThat(task.status()).isEqualTo(TaskStatus.SUBMITTED);
        assertThat(task.attempts()).isZero();
        assertThat(task.expiresAt()).isNull();
        assertThat(task.expired(NOW.plus(Duration.ofDays(365)))).isFalse();
        assertThat(task.ownedBy(7)).isTrue();
        assertThat(task.ownedBy(8)).isFalse();
    }

    @Test
    void whenThePromptIsBlankOrTooLongThenItIsRefused() {
        assertThatThrownBy(() -> new Task(7, " ", "echo", NOW)).isInstanceOf(BusinessException.class)
                .hasFieldOrPropertyWithValue("details", "prompt: must not be blank");
        assertThatThrownBy(() -> new Task(7, "x".repeat(Task.PROMPT_MAX + 1), "echo", NOW))
                .isInstanceOf(BusinessException.class);
        assertThat(new Task(7, "x".repeat(Task.PROMPT_MAX), "echo", NOW).prompt()).hasSize(Task.PROMPT_MAX);
    }

    @Test
    void whenStartedThenItRunsAsAttemptOne() {
        int attempt = task.start(NOW.plusSeconds(1));

        assertThat(attempt).isEqualTo(1);
        assertThat(task.status()).isEqualTo(TaskStatus.RUNNING);
        assertThat(task.startedAt()).isEqualTo(NOW.plusSeconds(1));
    }

    @Test
    void whenTheAttemptReportsProgressThenTheStatusIsProgress() {
        int attempt = task.start(NOW);

        assertThat(task.reportProgress(attempt, new TaskProgress(12, 57))).isTrue();

        assertThat(task.status()).isEqualTo(TaskStatus.PROGRESS);
        assertThat(task.progress()).isEqualTo(new TaskProgress(12, 57));
    }

    @Test
    void whenTheAttemptSucceedsThenTheResultIsKeptForTheRetention() {
        int attempt = task.start(NOW);
        task.reportProgress(attempt, new TaskProgress(1, 5));

        assertThat(task.succeed(attempt, "Echo: Write a haiku", 4, 5, new BigDecimal("0.000010"),
                NOW.plusSeconds(3), RETENTION)).isTrue();

        assertThat(task.status()).isEqualTo(TaskStatus.SUCCESS);
        assertThat(task.resultContent()).isEqualTo("Echo: Write a haiku");
        assertThat(task.inputTokens()).isEqualTo(4);
        assertThat(task.outputTokens()).isEqualTo(5);
        assertThat(task.cost()).isEqualByComparingTo("0.00001");
        assertThat(task.progress()).isNull();
        assertThat(task.finishedAt()).isEqualTo(NOW.plusSeconds(3));
        assertThat(task.expiresAt()).isEqualTo(NOW.plusSeconds(3603));
        assertThat(task.expired(NOW.plusSeconds(3602))).isFalse();
        assertThat(task.expired(NOW.plusSeconds(3603))).isTrue();
    }

    @Test
    void whenAFinishedTaskIsReachedAgainThenNothingChanges() {
        int attempt = task.start(NOW);
        task.fail(attempt, "hard time limit exceeded", 3, 0, BigDecimal.ZERO, NOW.plusSeconds(180), RETENTION);

        assertThat(task.succeed(attempt, "late", 1, 1, BigDecimal.ZERO, NOW.plusSeconds(181), RETENTION)).isFalse();
        assertThat(task.reportProgress(attempt, new TaskProgress(9, 9))).isFalse();
        assertThat(task.retryLater(attempt, "again")).isFalse();
        assertThatThrownBy(() -> task.start(NOW.plusSeconds(200))).isInstanceOf(IllegalStateException.class);

        assertThat(task.status()).isEqualTo(TaskStatus.FAILURE);
        assertThat(task.error()).isEqualTo("hard time limit exceeded");
        assertThat(task.resultContent()).isNull();
    }

    @Test
    void whenAnAttemptFailsWithRetriesLeftThenTheTaskWaitsAgainAndTheNextAttemptCounts() {
        int first = task.start(NOW);

        assertThat(task.retryLater(first, "The language model provider answered 500")).isTrue();
        assertThat(task.status()).isEqualTo(TaskStatus.SUBMITTED);
        assertThat(task.error()).isEqualTo("The language model provider answered 500");

        int second = task.start(NOW.plusSeconds(5));
        int third = task.retryLater(second, "again") ? task.start(NOW.plusSeconds(10)) : -1;
        assertThat(task.succeed(third, "done", 1, 1, BigDecimal.ZERO, NOW.plusSeconds(11), RETENTION)).isTrue();

        assertThat(task.attempts()).isEqualTo(3);
        assertThat(task.status()).isEqualTo(TaskStatus.SUCCESS);
        assertThat(task.error()).isNull();
    }

    @Test
    void whenARunningTaskIsStartedAgainThenTheOlderAttemptCanNoLongerChangeIt() {
        int abandoned = task.start(NOW);
        int redelivered = task.start(NOW.plusSeconds(60));

        assertThat(task.succeed(abandoned, "stale", 1, 1, BigDecimal.ZERO, NOW.plusSeconds(61), RETENTION)).isFalse();
        assertThat(task.reportProgress(abandoned, new TaskProgress(1, 1))).isFalse();
        assertThat(task.status()).isEqualTo(TaskStatus.RUNNING);
        assertThat(task.succeed(redelivered, "fresh", 1, 1, BigDecimal.ZERO, NOW.plusSeconds(62), RETENTION))
                .isTrue();
        assertThat(task.resultContent()).isEqualTo("fresh");
    }

    @Test
    void whenNotStartedThenNoOutcomeIsAccepted() {
        assertThat(task.succeed(0, "x", 1, 1, BigDecimal.ZERO, NOW, RETENTION)).isFalse();
        assertThat(task.fail(0, "x", 0, 0, BigDecimal.ZERO, NOW, RETENTION)).isFalse();
        assertThat(task.status()).isEqualTo(TaskStatus.SUBMITTED);
    }

    @Test
    void whenTheErrorIsLongThenItIsCutToTheColumn() {
        int attempt = task.start(NOW);

        task.fail(attempt, "e".repeat(5000), 0, 0, BigDecimal.ZERO, NOW, RETENTION);

        assertThat(task.error()).hasSize(Task.ERROR_MAX);
    }

    @Test
    void whenStatusNamesAreReadThenTheyAreTheSpecsWireNames() {
        assertThat(TaskStatus.values()).extracting(TaskStatus::value)
                .containsExactly("submitted", "running", "PROGRESS", "success", "failure");
        assertThat(TaskStatus.of("PROGRESS")).isEqualTo(TaskStatus.PROGRESS);
        assertThatThrownBy(() -> TaskStatus.of("progress")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void whenProgressIsStoredThenItIsTheDocumentedJsonObject() {
        var progress = new TaskProgress(12, 57);

        assertThat(progress.json()).isEqualTo("{\"tokens\":12,\"content_chars\":57}");
        assertThat(TaskProgress.parse(progress.json())).isEqualTo(progress);
    }
}
