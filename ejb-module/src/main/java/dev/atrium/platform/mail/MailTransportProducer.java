package dev.atrium.platform.mail;

import java.nio.file.Path;
import java.time.Clock;
import java.util.logging.Logger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.mail.internet.AddressException;
import jakarta.mail.internet.InternetAddress;

import org.eclipse.microprofile.config.inject.ConfigProperties;

import dev.atrium.platform.PlatformConfig;

/** Chooses the mail transport: SMTP when {@code atrium.smtp.host} is set, else the outbox directory. */
@ApplicationScoped
public class MailTransportProducer {

    private static final Logger LOG = Logger.getLogger(MailTransportProducer.class.getName());

    @Inject
    @ConfigProperties
    PlatformConfig config;

    @Inject
    Clock clock;

    @Produces
    @ApplicationScoped
    MailTransport transport() {
        String from = config.mailFrom;
        int smtpPort = config.smtpPort;
        InternetAddress sender;
        try {
            sender = new InternetAddress(from, true);
        } catch (AddressException e) {
            throw new IllegalStateException("atrium.mail.from is not a mail address: " + from, e);
        }
        var host = config.smtpHost.map(String::trim).filter(h -> !h.isEmpty());
        if (host.isPresent()) {
            LOG.info(() -> "Mail: to the SMTP server " + host.get() + ":" + smtpPort);
            return new SmtpMailTransport(SmtpMailTransport.session(host.get(), smtpPort, config.smtpUser.orElse(null),
                    config.smtpPassword.orElse(null), config.smtpStarttls), sender, clock);
        }
        var outbox = Path.of(config.dataDir).toAbsolutePath().normalize().resolve("outbox");
        LOG.info(() -> "Mail: written to " + outbox + " (no atrium.smtp.host set)");
        return new OutboxMailTransport(outbox, sender, clock);
    }
}
