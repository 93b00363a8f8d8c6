package dev.atrium.ai.entity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.UUID;

import org.junit.jupiter.api.Test;

class StoredFileTest {

    private static final Instant NOW = Instant.parse("2026-03-01T10:00:00Z");

    private static StoredFile file() {
        UUID id = UUID.randomUUID();
        return new StoredFile(id, 7, "a.txt", "text/plain", 3, "7/" + id + "/a.txt", NOW);
    }

    @Test
    void whenUploadedThenItWaitsForItsParseJobWithEmptyMetadata() {
        var file = file();

        assertThat(file.status()).isEqualTo(FileStatus.UPLOADED);
        assertThat(file.metadata()).isEqualTo("{}");
        assertThat(file.attempts()).isZero();
        assertThat(file.processedAt()).isNull();
    }

    @Test
    void whenTheCurrentAttemptSucceedsThenTheFileIsReadyAndNeverChangesAgain() {
        var file = file();
        int attempt = file.start();

        assertThat(file.status()).isEqualTo(FileStatus.PROCESSING);
        assertThat(file.ready(attempt, 12, true, "{\"k\":\"v\"}", NOW.plusSeconds(2))).isTrue();

        assertThat(file.status()).isEqualTo(FileStatus.READY);
        assertThat(file.textLength()).isEqualTo(12);
        assertThat(file.textTruncated()).isTrue();
        assertThat(file.processedAt()).isEqualTo(NOW.plusSeconds(2));
        assertThat(file.fail(attempt, "late", NOW)).isFalse();
        assertThatThrownBy(file::start).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void whenAnOlderAttemptReportsThenItIsIgnored() {
        var file = file();
        int first = file.start();
        int second = file.start();

        assertThat(file.ready(first, 1, false, "{}", NOW)).isFalse();
        assertThat(file.fail(second, "x".repeat(2000), NOW)).isTrue();

        assertThat(file.status()).isEqualTo(FileStatus.FAILED);
        assertThat(file.error()).hasSize(1000).endsWith("…");
        assertThat(file.attempts()).isEqualTo(2);
    }

    @Test
    void whenNotStartedThenNoOutcomeIsRecorded() {
        var file = file();

        assertThat(file.fail(0, "never started", NOW)).isFalse();
        assertThat(file.status()).isEqualTo(FileStatus.UPLOADED);
    }

    @Test
    void whenFieldsAreOutOfBoundsThenTheFileIsNotMade() {
        UUID id = UUID.randomUUID();
        assertThatThrownBy(() -> new StoredFile(id, 1, "", "text/plain", 0, "p", NOW))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new StoredFile(id, 1, "a", "t".repeat(256), 0, "p", NOW))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new StoredFile(id, 1, "a", "text/plain", -1, "p", NOW))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(FileStatus.of("ready")).isEqualTo(FileStatus.READY);
        assertThatThrownBy(() -> FileStatus.of("READY")).isInstanceOf(IllegalArgumentException.class);
    }
}
