package dev.atrium.platform.mail;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Date;

import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;

/**
 * A {@link MailMessage} as a plain-text UTF-8 MIME message. Its Message-ID comes from the mail's id, so a mail
 * handed over twice (a redelivery after a lost acknowledgement) is recognisably the same mail.
 */
final class MimeMail extends MimeMessage {

    private final String messageId;

    MimeMail(Session session, MailMessage mail, InternetAddress from, Instant date) throws MessagingException {
        super(session);
        var address = from.getAddress();
        messageId = "<" + mail.id() + "@" + address.substring(address.indexOf('@') + 1) + ">";
        setFrom(from);
        setRecipient(RecipientType.TO, new InternetAddress(mail.to(), true));
        setSubject(mail.subject(), StandardCharsets.UTF_8.name());
        setText(mail.text(), StandardCharsets.UTF_8.name());
        setSentDate(Date.from(date));
        saveChanges();
    }

    @Override
    protected void updateMessageID() throws MessagingException {
        setHeader("Message-ID", messageId);
    }
}
