package dev.atrium.identity.entity;

import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;

/**
 * One episode of a security signal for one subject (an address, a user): raised once, then only counted while the
 * signal repeats, until an administrator acknowledges it.
 */
@Entity
@Table(name = "security_alerts")
public class SecurityAlert {

    public static final String OPEN = "open";
    public static final String ACKNOWLEDGED = "acknowledged";
    static final int DETAILS_MAX = 500;

    @Id
    @SequenceGenerator(name = "security_alerts_seq", sequenceName = "security_alerts_seq", allocationSize = 50)
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "security_alerts_seq")
    private Long id;

    @Column(nullable = false, length = 50)
    private String kind;

    @Column(nullable = false, length = 100)
    private String subject;

    @Column(nullable = false, length = DETAILS_MAX)
    private String details;

    @Column(name = "first_seen", nullable = false)
    private Instant firstSeen;

    @Column(name = "last_seen", nullable = false)
    private Instant lastSeen;

    @Column(nullable = false)
    private int count;

    @Column(nullable = false, length = 20)
    private String status;

    @Column(name = "acknowledged_by")
    private Long acknowledgedBy;

    @Column(name = "acknowledged_at")
    private Instant acknowledgedAt;

    protected SecurityAlert() {
    }

    public SecurityAlert(String kind, String subject, String details, Instant now) {
        if (kind == null || kind.isBlank() || subject == null || now == null) {
            throw new IllegalArgumentException("an alert needs a kind, a subject and a time");
        }
        this.kind = cut(kind, 50);
        this.subject = cut(subject, 100);
        this.details = cut(details == null ? "" : details, DETAILS_MAX);
        this.firstSeen = now;
        this.lastSeen = now;
        this.count = 1;
        this.status = OPEN;
    }

    /** The signal fired again during the cool-down: counted, not raised. */
    public void seenAgain(Instant now) {
        seenAgain(now, 1);
    }

    /** The signal fired {@code times} more times during the cool-down, the last at {@code last}. */
    public void seenAgain(Instant last, long times) {
        if (times < 1) {
            throw new IllegalArgumentException("a repeat is seen at least once");
        }
        count = (int) Math.min(Integer.MAX_VALUE, count + Math.min(times, Integer.MAX_VALUE));
        if (last.isAfter(lastSeen)) {
            lastSeen = last;
        }
    }

    public boolean isOpen() {
        return OPEN.equals(status);
    }

    /** {@code false} when it was already acknowledged (the first acknowledgement is kept). */
    public boolean acknowledge(long byUserId, Instant now) {
        if (!OPEN.equals(status)) {
            return false;
        }
        status = ACKNOWLEDGED;
        acknowledgedBy = byUserId;
        acknowledgedAt = now;
        return true;
    }

    private static String cut(String value, int max) {
        return value.length() > max ? value.substring(0, max) : value;
    }

    public Long id() {
        return id;
    }

    public String kind() {
        return kind;
    }

    public String subject() {
        return subject;
    }

    public String details() {
        return details;
    }

    public Instant firstSeen() {
        return firstSeen;
    }

    public Instant lastSeen() {
        return lastSeen;
    }

    public int count() {
        return count;
    }

    public String status() {
        return status;
    }

    public Long acknowledgedBy() {
        return acknowledgedBy;
    }

    public Instant acknowledgedAt() {
        return acknowledgedAt;
    }
}
