package dev.atrium.platform.mail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.util.Properties;
import java.util.logging.Logger;
import java.util.regex.Pattern;

import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.internet.InternetAddress;

/**
 * Writes each mail as {@code <id>.eml} into a directory, for development without an SMTP server: any mail
 * client opens the files. A file appears whole or not at all. The log names recipient and file, never the
 * body, which may carry tokens.
 */
public final class OutboxMailTransport implements MailTransport {

    private static final Logger LOG = Logger.getLogger(OutboxMailTransport.class.getName());
    private static final Pattern SAFE_ID = Pattern.compile("[A-Za-z0-9-]{1,64}");

    private final Path directory;
    private final InternetAddress from;
    private final Clock clock;
    private final Session session = Session.getInstance(new Properties());

    public OutboxMailTransport(Path directory, InternetAddress from, Clock clock) {
        this.directory = directory;
        this.from = from;
        this.clock = clock;
    }

    @Override
    public void send(MailMessage message) throws MailDeliveryException {
        if (!SAFE_ID.matcher(message.id()).matches()) {
            throw new IllegalArgumentException("A mail id must be usable as a file name");
        }
        var file = directory.resolve(message.id() + ".eml");
        try {
            Files.createDirectories(directory);
            var mime = new MimeMail(session, message, from, clock.instant());
            var temporary = Files.createTempFile(directory, message.id() + "-", ".tmp");
            try {
                try (var out = Files.newOutputStream(temporary)) {
                    mime.writeTo(out);
                }
                Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } finally {
                Files.deleteIfExists(temporary);
            }
        } catch (IOException | MessagingException e) {
            throw new MailDeliveryException("Writing mail " + message.id() + " to the outbox failed: "
                    + e.getMessage(), e);
        }
        LOG.info(() -> "Mail to " + message.to() + " written to " + file);
    }

    @Override
    public String kind() {
        return "outbox";
    }
}
