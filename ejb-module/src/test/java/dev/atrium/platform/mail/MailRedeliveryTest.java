package dev.atrium.platform.mail;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.icegreen.greenmail.util.GreenMail;

import dev.atrium.platform.messaging.BrokerConnection;
import dev.atrium.platform.messaging.MessageDrivenBeans;

/** The mail path end to end but for the database: queue, broker, handler, SMTP server that comes up late. */
class MailRedeliveryTest {

    @TempDir
    Path directory;

    private BrokerConnection broker;
    private MessageDrivenBeans beans;
    private GreenMail server;

    @AfterEach
    void stop() throws Exception {
        if (beans != null) {
            beans.close();
        }
        if (broker != null) {
            broker.close();
        }
        if (server != null) {
            server.stop();
        }
    }

    @Test
    void whenSmtpServerIsDownAtFirstThenMailArrivesOnRedelivery() throws Exception {
        int port = SmtpMailTransportTest.freePort();
        var mails = new InMemoryMailService(Clock.systemUTC());
        var handler = new MailDeliveryHandler();
        handler.mails = mails;
        handler.transport = new SmtpMailTransport(SmtpMailTransport.session("127.0.0.1", port, null, null, false),
                SmtpMailTransportTest.from(), Clock.systemUTC());
        broker = BrokerConnection.embedded(directory);
        beans = new MessageDrivenBeans(broker, Optional.empty());
        beans.consume(handler);
        var mail = mails.add("ada@example.org", "Verify", "token");

        broker.send(MailService.QUEUE, mail.id().toString());

        var id = mail.id();
        awaitUntil(() -> mails.inspect(id, m -> m.attempts() == 1));
        assertThat(mails.inspect(id, OutgoingMail::status)).isEqualTo(OutgoingMail.Status.PENDING);
        assertThat(mails.inspect(id, OutgoingMail::lastError)).contains("127.0.0.1:" + port);
        server = SmtpMailTransportTest.smtpServer(port);
        server.start();

        assertThat(server.waitForIncomingEmail(30_000, 1)).isTrue();
        awaitUntil(() -> mails.inspect(id, m -> m.status() == OutgoingMail.Status.SENT));
        assertThat(mails.inspect(id, OutgoingMail::attempts)).isEqualTo(2);
        assertThat(server.getReceivedMessages()[0].getMessageID()).startsWith("<" + mail.id());
    }

    private static void awaitUntil(BooleanSupplier condition) throws InterruptedException {
        var deadline = Instant.now().plus(Duration.ofSeconds(30));
        while (!condition.getAsBoolean()) {
            assertThat(Instant.now()).as("condition reached in time").isBefore(deadline);
            Thread.sleep(50);
        }
    }
}
