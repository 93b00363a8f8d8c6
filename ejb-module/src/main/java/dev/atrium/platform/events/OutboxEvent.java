package dev.atrium.platform.events;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import dev.atrium.platform.telemetry.TraceParents;

/**
 * One event waiting in the outbox, or recently sent. Its id travels with the message as the broker's duplicate-
 * detection id, so a row published twice (the relay died between the broker's receipt and its own commit) reaches
 * consumers once.
 */
@Entity
@Table(name = "outbox_events")
public class OutboxEvent {

    static final int MAX_PAYLOAD = 4000;
    static final int MAX_ERROR = 1000;

    @Id
    private UUID id;

    @Column(name = "event_type", nullable = false, length = 100)
    private String type;

    @Column(nullable = false, length = 200)
    private String destination;

    @Column(nullable = false)
    private boolean broadcast;

    @Column(nullable = false, length = MAX_PAYLOAD)
    private String payload;

    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    @Column(nullable = false)
    private int attempts;

    @Column(name = "next_attempt_at")
    private Instant nextAttemptAt;

    @Column(name = "last_error", length = MAX_ERROR)
    private String lastError;

    @Column(name = "sent_at")
    private Instant sentAt;

    @Column(name = "trace_parent", length = TraceParents.LENGTH)
    private String traceParent;

    protected OutboxEvent() {
    }

    public OutboxEvent(ApplicationEvent event, Instant createdAt) {
        this.id = UUID.randomUUID();
        this.type = Objects.requireNonNull(event.type(), "type");
        this.destination = Objects.requireNonNull(event.destination(), "destination");
        if (destination.isBlank()) {
            throw new IllegalArgumentException("An event needs a destination");
        }
        this.broadcast = event.broadcast();
        this.payload = Objects.requireNonNull(event.payload(), "payload");
        if (payload.length() > MAX_PAYLOAD) {
            throw new IllegalArgumentException("An event carries ids, at most " + MAX_PAYLOAD + " characters");
        }
        this.createdAt = Objects.requireNonNull(createdAt, "createdAt");
    }

    /** The event with the trace context it was written in ({@code traceParent} null or invalid: none). */
    public OutboxEvent(ApplicationEvent event, Instant createdAt, String traceParent) {
        this(event, createdAt);
        // written as the propagator writes it: never longer than the column, whatever came in
        this.traceParent = TraceParents.of(TraceParents.parent(traceParent));
    }

    /** Publishing failed: count the attempt and wait {@code backoff} before the next. */
    public void failed(String error, Instant now, Duration backoff) {
        attempts++;
        var text = error == null || error.isBlank() ? "unknown error" : error;
        lastError = text.length() > MAX_ERROR ? text.substring(0, MAX_ERROR) : text;
        nextAttemptAt = now.plus(backoff);
    }

    public UUID id() {
        return id;
    }

    public String type() {
        return type;
    }

    public String destination() {
        return destination;
    }

    public boolean broadcast() {
        return broadcast;
    }

    public String payload() {
        return payload;
    }

    public Instant createdAt() {
        return createdAt;
    }

    public int attempts() {
        return attempts;
    }

    public Instant nextAttemptAt() {
        return nextAttemptAt;
    }

    public String lastError() {
        return lastError;
    }

    public Instant sentAt() {
        return sentAt;
    }

    /** The W3C traceparent of the span that wrote the event, or null. */
    public String traceParent() {
        return traceParent;
    }
}
