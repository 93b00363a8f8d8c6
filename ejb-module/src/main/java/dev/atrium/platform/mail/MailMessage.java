package dev.atrium.platform.mail;

/** One outgoing plain-text mail, as handed to a {@link MailTransport}. {@code id} names it for idempotence. */
public record MailMessage(String id, String to, String subject, String text) {
}
