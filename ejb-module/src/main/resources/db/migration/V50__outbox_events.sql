-- The transactional outbox: an application event is written here in the transaction that caused it, and the relay
-- publishes it to the broker afterwards and records when. A row is pending while sent_at is null; a failed publish
-- counts an attempt and waits until next_attempt_at. Sent rows are pruned after atrium.outbox.retention-seconds.
CREATE TABLE outbox_events (
    id              UUID PRIMARY KEY,
    event_type      VARCHAR(100) NOT NULL,
    destination     VARCHAR(200) NOT NULL,
    -- true: a topic every instance receives; false: a queue one consumer receives
    broadcast       BOOLEAN NOT NULL,
    payload         VARCHAR(4000) NOT NULL,
    created_at      TIMESTAMP WITH TIME ZONE NOT NULL,
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TIMESTAMP WITH TIME ZONE,
    last_error      VARCHAR(1000),
    sent_at         TIMESTAMP WITH TIME ZONE,
    CONSTRAINT ck_outbox_events_attempts CHECK (attempts >= 0)
);
-- pending rows in order (sent_at IS NULL), and sent rows by age for pruning
CREATE INDEX ix_outbox_events_sent_created ON outbox_events (sent_at, created_at);
