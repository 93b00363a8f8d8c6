package dev.atrium.platform.mail;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Properties;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.stream.Stream;

import jakarta.mail.Message.RecipientType;
import jakarta.mail.Session;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OutboxMailTransportTest {

    private static final Instant NOW = Instant.parse("2026-03-01T10:15:30Z");
    private static final String ID = "0b7c9a52-3f7e-4c36-9d6e-5b1f0c2a7e11";

    @TempDir
    Path dataDir;

    private final List<LogRecord> logged = new ArrayList<>();
    private final Logger logger = Logger.getLogger(OutboxMailTransport.class.getName());
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            logged.add(record);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    private OutboxMailTransport transport;
    private Path outbox;

    @BeforeEach
    void create() throws Exception {
        outbox = dataDir.resolve("outbox");
        transport = new OutboxMailTransport(outbox, new InternetAddress("Atrium <no-reply@atrium.test>", true),
                Clock.fixed(NOW, ZoneOffset.UTC));
        logger.addHandler(capture);
    }

    @AfterEach
    void release() {
        logger.removeHandler(capture);
    }

    @Test
    void whenMailIsSentThenOutboxHoldsAParseableEmlFile() throws Exception {
        transport.send(new MailMessage(ID, "ada@example.org", "Bestätigen Sie Ihre Adresse",
                "Your token: tok-ABC123\nSchöne Grüße"));

        var file = outbox.resolve(ID + ".eml");
        assertThat(file).exists();
        MimeMessage parsed;
        try (var in = Files.newInputStream(file)) {
            parsed = new MimeMessage(Session.getInstance(new Properties()), in);
        }
        assertThat(parsed.getFrom()).containsExactly(new InternetAddress("Atrium <no-reply@atrium.test>"));
        assertThat(parsed.getRecipients(RecipientType.TO)).containsExactly(new InternetAddress("ada@example.org"));
        assertThat(parsed.getSubject()).isEqualTo("Bestätigen Sie Ihre Adresse");
        assertThat(parsed.getMessageID()).isEqualTo("<" + ID + "@atrium.test>");
        assertThat(parsed.getSentDate()).isEqualTo(Date.from(NOW));
        assertThat(parsed.getContentType()).startsWith("text/plain").containsIgnoringCase("charset=UTF-8");
        assertThat(((String) parsed.getContent()).replace("\r\n", "\n"))
                .isEqualTo("Your token: tok-ABC123\nSchöne Grüße");
        assertThat(transport.kind()).isEqualTo("outbox");
    }

    @Test
    void whenMailIsSentThenOneLineNamesRecipientAndFileButNotTheBody() throws Exception {
        transport.send(new MailMessage(ID, "ada@example.org", "Reset", "secret-token-987"));

        assertThat(logged).hasSize(1);
        var line = logged.get(0).getMessage();
        assertThat(line).contains("ada@example.org").contains(ID + ".eml").doesNotContain("secret-token-987");
    }

    @Test
    void whenMailIsWrittenThenNoTemporaryFileRemains() throws Exception {
        transport.send(new MailMessage(ID, "ada@example.org", "s", "b"));
        transport.send(new MailMessage(ID, "ada@example.org", "s", "again"));

        try (Stream<Path> files = Files.list(outbox)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly(ID + ".eml");
        }
    }

    @Test
    void whenIdCouldEscapeTheDirectoryThenRefused() {
        assertThatThrownBy(() -> transport.send(new MailMessage("../evil", "ada@example.org", "s", "b")))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void whenOutboxCannotBeCreatedThenDeliveryExceptionIsThrown() throws Exception {
        Files.writeString(dataDir.resolve("blocked"), "a file where the directory should be");
        var blocked = new OutboxMailTransport(dataDir.resolve("blocked").resolve("outbox"),
                new InternetAddress("no-reply@atrium.test"), Clock.systemUTC());

        assertThatThrownBy(() -> blocked.send(new MailMessage(ID, "ada@example.org", "s", "b")))
                .isInstanceOf(MailDeliveryException.class);
    }
}
