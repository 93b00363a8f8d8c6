package dev.atrium.platform.mail;

import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.Table;

/**
 * One mail the platform has promised to send. The row is written in the transaction that decided to send it,
 * and stays: it records whether the mail left, how often delivery was tried, and the last error.
 */
@Entity
@Table(name = "outgoing_mail")
@NamedQuery(name = OutgoingMail.LATEST_TO,
        query = "SELECT m FROM OutgoingMail m WHERE m.recipient = :recipient ORDER BY m.createdAt DESC")
public class OutgoingMail {

    static final String LATEST_TO = "OutgoingMail.latestTo";
    static final int MAX_RECIPIENT = 320;
    static final int MAX_SUBJECT = 500;
    static final int MAX_ERROR = 1000;

    public enum Status {
        PENDING, SENT, FAILED
    }

    @Id
    private UUID id;

    @Column(nullable = false, length = MAX_RECIPIENT)
    private String recipient;

    @Column(nullable = false, length = MAX_SUBJECT)
    private String subject;

    @Column(nullable = false)
    private String body;

    @Enumerated(EnumType.STRING)
    @Column(nullable = false, length = 16)
    private Status status;

    @Column(nullable = false)
    private int attempts;

    @Column(name = "last_error", length = MAX_ERROR)
    private String lastError;

    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    @Column(name = "sent_at")
    private Instant sentAt;

    protected OutgoingMail() {
    }

    public OutgoingMail(String recipient, String subject, String body, Instant createdAt) {
        this.id = UUID.randomUUID();
        this.recipient = headerValue("recipient", recipient, MAX_RECIPIENT);
        if (this.recipient.isBlank()) {
            throw new IllegalArgumentException("A mail needs a recipient");
        }
        this.subject = headerValue("subject", subject, MAX_SUBJECT);
        this.body = Objects.requireNonNull(body, "body");
        this.createdAt = Objects.requireNonNull(createdAt, "createdAt");
        this.status = Status.PENDING;
    }

    // a line break in a header value would let text through as another header
    private static String headerValue(String name, String value, int maxLength) {
        Objects.requireNonNull(value, name);
        if (value.length() > maxLength) {
            throw new IllegalArgumentException("The " + name + " is longer than " + maxLength + " characters");
        }
        if (value.indexOf('\r') >= 0 || value.indexOf('\n') >= 0) {
            throw new IllegalArgumentException("The " + name + " must be one line");
        }
        return value;
    }

    /** The transport accepted the mail. */
    public void markSent(Instant at) {
        if (status == Status.SENT) {
            throw new IllegalStateException("Mail " + id + " was already sent");
        }
        attempts++;
        status = Status.SENT;
        sentAt = Objects.requireNonNull(at, "at");
    }

    /**
     * One delivery attempt failed. {@code error} must name the failure without secrets; it is cut to fit.
     * {@code lastAttempt} marks the mail {@code FAILED}; otherwise it stays {@code PENDING} for the next try.
     */
    public void recordFailure(String error, boolean lastAttempt) {
        if (status == Status.SENT) {
            throw new IllegalStateException("Mail " + id + " was already sent");
        }
        attempts++;
        var text = error == null || error.isBlank() ? "unknown error" : error;
        lastError = text.length() > MAX_ERROR ? text.substring(0, MAX_ERROR) : text;
        status = lastAttempt ? Status.FAILED : Status.PENDING;
    }

    public MailMessage toMessage() {
        return new MailMessage(id.toString(), recipient, subject, body);
    }

    public UUID id() {
        return id;
    }

    public String recipient() {
        return recipient;
    }

    public String subject() {
        return subject;
    }

    public String body() {
        return body;
    }

    public Status status() {
        return status;
    }

    public int attempts() {
        return attempts;
    }

    public String lastError() {
        return lastError;
    }

    public Instant createdAt() {
        return createdAt;
    }

    public Instant sentAt() {
        return sentAt;
    }
}
