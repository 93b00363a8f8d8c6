package dev.atrium.platform.mail;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.ServerSocket;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Date;

import jakarta.mail.Message.RecipientType;
import jakarta.mail.internet.InternetAddress;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.icegreen.greenmail.configuration.GreenMailConfiguration;
import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;

class SmtpMailTransportTest {

    private static final Instant NOW = Instant.parse("2026-03-01T10:15:30Z");
    private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);

    private GreenMail server;

    static int freePort() throws Exception {
        try (var socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    static GreenMail smtpServer(int port) {
        return new GreenMail(new ServerSetup(port, "127.0.0.1", ServerSetup.PROTOCOL_SMTP));
    }

    static InternetAddress from() throws Exception {
        return new InternetAddress("Atrium <no-reply@atrium.test>", true);
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop();
        }
    }

    @Test
    void whenServerAcceptsThenMailArrivesAsPlainUtf8Text() throws Exception {
        int port = freePort();
        server = smtpServer(port);
        server.start();
        var transport = new SmtpMailTransport(SmtpMailTransport.session("127.0.0.1", port, null, null, false),
                from(), CLOCK);

        transport.send(new MailMessage("4f1c2d3e-0000-4000-8000-000000000001", "ada@example.org",
                "Grüße aus Atrium", "Bonjour Ada, ça va?\nhttp://localhost:8080/verify-email?token=abc=="));

        assertThat(server.waitForIncomingEmail(10_000, 1)).isTrue();
        var received = server.getReceivedMessages()[0];
        assertThat(received.getFrom()).containsExactly(from());
        assertThat(received.getRecipients(RecipientType.TO))
                .containsExactly(new InternetAddress("ada@example.org"));
        assertThat(received.getSubject()).isEqualTo("Grüße aus Atrium");
        assertThat(received.getMessageID()).isEqualTo("<4f1c2d3e-0000-4000-8000-000000000001@atrium.test>");
        assertThat(received.getContentType()).startsWith("text/plain").containsIgnoringCase("charset=UTF-8");
        assertThat(received.getSentDate()).isEqualTo(Date.from(NOW));
        assertThat(((String) received.getContent()).replace("\r\n", "\n"))
                .isEqualTo("Bonjour Ada, ça va?\nhttp://localhost:8080/verify-email?token=abc==");
        assertThat(transport.kind()).isEqualTo("smtp");
    }

    @Test
    void whenNoServerListensThenDeliveryExceptionNamesTheServer() throws Exception {
        int port = freePort();
        var transport = new SmtpMailTransport(SmtpMailTransport.session("127.0.0.1", port, null, null, false),
                from(), CLOCK);

        assertThatThrownBy(() -> transport.send(new MailMessage("1", "ada@example.org", "s", "b")))
                .isInstanceOf(MailDeliveryException.class)
                .hasMessageContaining("127.0.0.1:" + port);
    }

    @Test
    void whenCredentialsAreRightThenServerAcceptsTheLogin() throws Exception {
        int port = freePort();
        server = smtpServer(port).withConfiguration(GreenMailConfiguration.aConfig().withUser("mailer", "s3cret"));
        server.start();
        var transport = new SmtpMailTransport(
                SmtpMailTransport.session("127.0.0.1", port, "mailer", "s3cret", false), from(), CLOCK);

        transport.send(new MailMessage("2", "ada@example.org", "s", "b"));

        assertThat(server.waitForIncomingEmail(10_000, 1)).isTrue();
    }

    @Test
    void whenPasswordIsWrongThenDeliveryFailsWithoutRevealingIt() throws Exception {
        int port = freePort();
        server = smtpServer(port).withConfiguration(GreenMailConfiguration.aConfig().withUser("mailer", "s3cret"));
        server.start();
        var transport = new SmtpMailTransport(
                SmtpMailTransport.session("127.0.0.1", port, "mailer", "wrong-password", false), from(), CLOCK);

        assertThatThrownBy(() -> transport.send(new MailMessage("3", "ada@example.org", "s", "b")))
                .isInstanceOf(MailDeliveryException.class)
                .message().doesNotContain("wrong-password");
    }

    @Test
    void whenStarttlsIsRequiredButNotOfferedThenNothingIsSent() throws Exception {
        int port = freePort();
        server = smtpServer(port);
        server.start();
        var transport = new SmtpMailTransport(
                SmtpMailTransport.session("127.0.0.1", port, "mailer", "s3cret", true), from(), CLOCK);

        assertThatThrownBy(() -> transport.send(new MailMessage("4", "ada@example.org", "s", "b")))
                .isInstanceOf(MailDeliveryException.class);
        assertThat(server.getReceivedMessages()).isEmpty();
    }

    @Test
    void whenSessionIsBuiltThenTimeoutsAreSet() {
        var session = SmtpMailTransport.session("mx.example.org", 587, null, null, false);

        assertThat(session.getProperty("mail.smtp.connectiontimeout")).isEqualTo("10000");
        assertThat(session.getProperty("mail.smtp.timeout")).isEqualTo("10000");
        assertThat(session.getProperty("mail.smtp.auth")).isNull();
    }
}
