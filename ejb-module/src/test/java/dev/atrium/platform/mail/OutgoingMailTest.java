package dev.atrium.platform.mail;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;

import org.junit.jupiter.api.Test;

class OutgoingMailTest {

    private static final Instant CREATED = Instant.parse("2026-03-01T10:15:30Z");

    private final OutgoingMail mail = new OutgoingMail("ada@example.org", "Welcome", "Hello", CREATED);

    @Test
    void whenCreatedThenPendingWithNoAttempts() {
        assertThat(mail.id()).isNotNull();
        assertThat(mail.status()).isEqualTo(OutgoingMail.Status.PENDING);
        assertThat(mail.attempts()).isZero();
        assertThat(mail.createdAt()).isEqualTo(CREATED);
        assertThat(mail.sentAt()).isNull();
        assertThat(mail.toMessage()).isEqualTo(
                new MailMessage(mail.id().toString(), "ada@example.org", "Welcome", "Hello"));
    }

    @Test
    void whenTwoMailsAreCreatedThenTheirIdsDiffer() {
        assertThat(new OutgoingMail("a@example.org", "s", "b", CREATED).id()).isNotEqualTo(mail.id());
    }

    @Test
    void whenMarkedSentThenSentWithTimeAndOneAttempt() {
        var at = CREATED.plusSeconds(2);

        mail.markSent(at);

        assertThat(mail.status()).isEqualTo(OutgoingMail.Status.SENT);
        assertThat(mail.sentAt()).isEqualTo(at);
        assertThat(mail.attempts()).isEqualTo(1);
    }

    @Test
    void whenSentTwiceThenRefused() {
        mail.markSent(CREATED);

        assertThatThrownBy(() -> mail.markSent(CREATED)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> mail.recordFailure("late", false)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void whenFailureIsNotTheLastAttemptThenStillPending() {
        mail.recordFailure("connection refused", false);

        assertThat(mail.status()).isEqualTo(OutgoingMail.Status.PENDING);
        assertThat(mail.attempts()).isEqualTo(1);
        assertThat(mail.lastError()).isEqualTo("connection refused");
    }

    @Test
    void whenLastAttemptFailsThenFailed() {
        mail.recordFailure("one", false);
        mail.recordFailure("two", false);
        mail.recordFailure("three", true);

        assertThat(mail.status()).isEqualTo(OutgoingMail.Status.FAILED);
        assertThat(mail.attempts()).isEqualTo(3);
        assertThat(mail.lastError()).isEqualTo("three");
    }

    @Test
    void whenFailedMailIsSentLaterThenSent() {
        mail.recordFailure("down", true);

        mail.markSent(CREATED);

        assertThat(mail.status()).isEqualTo(OutgoingMail.Status.SENT);
        assertThat(mail.attempts()).isEqualTo(2);
    }

    @Test
    void whenErrorIsLongThenItIsCutToTheColumn() {
        mail.recordFailure("x".repeat(5000), false);

        assertThat(mail.lastError()).hasSize(OutgoingMail.MAX_ERROR);
    }

    @Test
    void whenErrorIsMissingThenSomethingIsStillRecorded() {
        mail.recordFailure(null, false);

        assertThat(mail.lastError()).isNotBlank();
    }

    @Test
    void whenRecipientOrSubjectIsInvalidThenRefused() {
        assertThatThrownBy(() -> new OutgoingMail(" ", "s", "b", CREATED))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new OutgoingMail("a".repeat(321), "s", "b", CREATED))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new OutgoingMail("a@example.org", "s".repeat(501), "b", CREATED))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new OutgoingMail("a@example.org", "Hi\r\nBcc: eve@example.org", "b", CREATED))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new OutgoingMail("a@example.org\nBcc: eve@example.org", "s", "b", CREATED))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
