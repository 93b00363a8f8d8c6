package dev.atrium.platform.mail;

import java.nio.file.Path;
import java.time.Clock;
import java.util.Optional;
import java.util.logging.Logger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.mail.internet.AddressException;
import jakarta.mail.internet.InternetAddress;

import org.eclipse.microprofile.config.inject.ConfigProperty;

/** Chooses the mail transport: SMTP when {@code atrium.smtp.host} is set, else the outbox directory. */
@ApplicationScoped
public class MailTransportProducer {

    private static final Logger LOG = Logger.getLogger(MailTransportProducer.class.getName());

    @Inject
    @ConfigProperty(name = "atrium.smtp.host")
    Optional<String> smtpHost;

    @Inject
    @ConfigProperty(name = "atrium.smtp.port", defaultValue = "25")
    int smtpPort;

    @Inject
    @ConfigProperty(name = "atrium.smtp.user")
    Optional<String> smtpUser;

    @Inject
    @ConfigProperty(name = "atrium.smtp.password")
    Optional<String> smtpPassword;

    @Inject
    @ConfigProperty(name = "atrium.smtp.starttls", defaultValue = "false")
    boolean smtpStarttls;

    @Inject
    @ConfigProperty(name = "atrium.mail.from")
    String from;

    @Inject
    @ConfigProperty(name = "atrium.data-dir", defaultValue = "./data")
    String dataDir;

    @Inject
    Clock clock;

    @Produces
    @ApplicationScoped
    MailTransport transport() {
        InternetAddress sender;
        try {
            sender = new InternetAddress(from, true);
        } catch (AddressException e) {
            throw new IllegalStateException("atrium.mail.from is not a mail address: " + from, e);
        }
        var host = smtpHost.map(String::trim).filter(h -> !h.isEmpty());
        if (host.isPresent()) {
            LOG.info(() -> "Mail: to the SMTP server " + host.get() + ":" + smtpPort);
            return new SmtpMailTransport(SmtpMailTransport.session(host.get(), smtpPort, smtpUser.orElse(null),
                    smtpPassword.orElse(null), smtpStarttls), sender, clock);
        }
        var outbox = Path.of(dataDir).toAbsolutePath().normalize().resolve("outbox");
        LOG.info(() -> "Mail: written to " + outbox + " (no atrium.smtp.host set)");
        return new OutboxMailTransport(outbox, sender, clock);
    }
}
