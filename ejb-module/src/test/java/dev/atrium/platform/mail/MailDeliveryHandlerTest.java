package dev.atrium.platform.mail;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.atrium.platform.messaging.MailListener;
import dev.atrium.platform.time.MovableClock;

class MailDeliveryHandlerTest {

    private static final Instant NOW = Instant.parse("2026-03-01T10:15:30Z");

    private final MovableClock clock = new MovableClock(Clock.fixed(NOW, ZoneOffset.UTC));
    private final InMemoryMailService mails = new InMemoryMailService(clock);
    private final FakeTransport transport = new FakeTransport();
    private final MailDeliveryHandler handler = new MailDeliveryHandler();

    @BeforeEach
    void wire() {
        handler.mails = mails;
        handler.transport = transport;
    }

    @Test
    void whenTransportAcceptsThenMailIsSent() throws Exception {
        var mail = mails.add("ada@example.org", "Welcome", "token 123");
        clock.advance(Duration.ofSeconds(3));

        handler.onMessage(mail.id().toString(), 1);

        assertThat(transport.sent).containsExactly(mail.toMessage());
        assertThat(mail.status()).isEqualTo(OutgoingMail.Status.SENT);
        assertThat(mail.sentAt()).isEqualTo(NOW.plusSeconds(3));
    }

    @Test
    void whenMailWasAlreadySentThenNothingIsSentAgain() throws Exception {
        var mail = mails.add("ada@example.org", "Welcome", "text");
        handler.onMessage(mail.id().toString(), 1);

        handler.onMessage(mail.id().toString(), 1);

        assertThat(transport.sent).hasSize(1);
        assertThat(mail.attempts()).isEqualTo(1);
    }

    @Test
    void whenTransportFailsThenFailureIsRecordedAndRethrown() {
        var mail = mails.add("ada@example.org", "Welcome", "text");
        transport.failWith("SMTP delivery via mx:25 failed: connection refused");

        assertThatThrownBy(() -> handler.onMessage(mail.id().toString(), 1))
                .isInstanceOf(MailDeliveryException.class);

        assertThat(mail.status()).isEqualTo(OutgoingMail.Status.PENDING);
        assertThat(mail.attempts()).isEqualTo(1);
        assertThat(mail.lastError()).contains("connection refused");
    }

    @Test
    void whenThirdDeliveryFailsThenMailIsFailed() {
        var mail = mails.add("ada@example.org", "Welcome", "text");
        transport.failWith("down");

        for (int delivery = 1; delivery <= 3; delivery++) {
            int count = delivery;
            assertThatThrownBy(() -> handler.onMessage(mail.id().toString(), count))
                    .isInstanceOf(MailDeliveryException.class);
        }

        assertThat(mail.status()).isEqualTo(OutgoingMail.Status.FAILED);
        assertThat(mail.attempts()).isEqualTo(3);
    }

    @Test
    void whenTransportFailsUnexpectedlyThenFailureIsStillRecorded() {
        var mail = mails.add("ada@example.org", "Welcome", "text");
        transport.failure = new IllegalStateException("bug");

        assertThatThrownBy(() -> handler.onMessage(mail.id().toString(), 1))
                .isInstanceOf(IllegalStateException.class);

        assertThat(mail.lastError()).contains("bug");
    }

    @Test
    void whenMailDoesNotExistThenMessageIsDroppedQuietly() throws Exception {
        handler.onMessage(UUID.randomUUID().toString(), 1);

        assertThat(transport.sent).isEmpty();
    }

    @Test
    void whenHandlerIsAskedItsQueueThenMail() {
        assertThat(handler.queue()).isEqualTo("mail");
    }

    @Test
    void whenTheMailQueueIsConsumedThenOneMessageAtATime() {
        // the bean's maxSession is what takes effect; unset, the adapter would open 15 sessions
        var activation = MailListener.class.getAnnotation(MessageDriven.class).activationConfig();
        assertThat(activation).filteredOn(p -> p.propertyName().equals("destination"))
                .extracting(ActivationConfigProperty::propertyValue).containsExactly(handler.queue());
        assertThat(activation).filteredOn(p -> p.propertyName().equals("maxSession"))
                .extracting(ActivationConfigProperty::propertyValue).containsExactly("1");
    }

    private static final class FakeTransport implements MailTransport {

        final List<MailMessage> sent = new ArrayList<>();
        Exception failure;

        void failWith(String message) {
            failure = new MailDeliveryException(message, null);
        }

        @Override
        public void send(MailMessage message) throws MailDeliveryException {
            if (failure instanceof MailDeliveryException e) {
                throw e;
            }
            if (failure instanceof RuntimeException e) {
                throw e;
            }
            sent.add(message);
        }

        @Override
        public String kind() {
            return "fake";
        }
    }
}
