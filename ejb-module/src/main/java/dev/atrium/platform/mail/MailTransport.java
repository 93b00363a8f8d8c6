package dev.atrium.platform.mail;

/**
 * Where mail leaves the platform: an SMTP server (Jakarta Mail) when {@code atrium.smtp.host} is set, else
 * {@code .eml} files in the outbox directory. A failure throws, and the caller's message is redelivered.
 */
public interface MailTransport {

    void send(MailMessage message) throws MailDeliveryException;

    /** {@code smtp} or {@code outbox}. */
    String kind();
}
