package dev.atrium.platform.mail;

import java.time.Clock;
import java.util.Properties;

import jakarta.mail.Authenticator;
import jakarta.mail.MessagingException;
import jakarta.mail.PasswordAuthentication;
import jakarta.mail.Session;
import jakarta.mail.Transport;
import jakarta.mail.internet.InternetAddress;

/** Hands mail to an SMTP server through Jakarta Mail. */
public final class SmtpMailTransport implements MailTransport {

    static final int TIMEOUT_MILLIS = 10_000;

    private final Session session;
    private final InternetAddress from;
    private final Clock clock;
    private final String server;

    public SmtpMailTransport(Session session, InternetAddress from, Clock clock) {
        this.session = session;
        this.from = from;
        this.clock = clock;
        this.server = session.getProperty("mail.smtp.host") + ":" + session.getProperty("mail.smtp.port");
    }

    /**
     * A session for one SMTP server. With a user, it logs in; with {@code starttls}, it refuses to talk to a
     * server that does not offer TLS rather than send the password in clear.
     */
    public static Session session(String host, int port, String user, String password, boolean starttls) {
        var properties = new Properties();
        properties.put("mail.smtp.host", host);
        properties.put("mail.smtp.port", String.valueOf(port));
        // without timeouts a silent server would hold a consumer thread for ever
        properties.put("mail.smtp.connectiontimeout", String.valueOf(TIMEOUT_MILLIS));
        properties.put("mail.smtp.timeout", String.valueOf(TIMEOUT_MILLIS));
        properties.put("mail.smtp.writetimeout", String.valueOf(TIMEOUT_MILLIS));
        if (starttls) {
            properties.put("mail.smtp.starttls.enable", "true");
            properties.put("mail.smtp.starttls.required", "true");
        }
        if (user == null || user.isBlank()) {
            return Session.getInstance(properties);
        }
        properties.put("mail.smtp.auth", "true");
        var credentials = new PasswordAuthentication(user, password == null ? "" : password);
        return Session.getInstance(properties, new Authenticator() {
            @Override
            protected PasswordAuthentication getPasswordAuthentication() {
                return credentials;
            }
        });
    }

    @Override
    public void send(MailMessage message) throws MailDeliveryException {
        try {
            Transport.send(new MimeMail(session, message, from, clock.instant()));
        } catch (MessagingException e) {
            throw new MailDeliveryException("SMTP delivery via " + server + " failed: " + e.getMessage(), e);
        }
    }

    @Override
    public String kind() {
        return "smtp";
    }
}
