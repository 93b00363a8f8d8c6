CREATE TABLE outgoing_mail (
    id          UUID PRIMARY KEY,
    recipient   VARCHAR(320) NOT NULL,
    subject     VARCHAR(500) NOT NULL,
    body        TEXT NOT NULL,
    status      VARCHAR(16) NOT NULL,
    attempts    INTEGER NOT NULL DEFAULT 0,
    last_error  VARCHAR(1000),
    created_at  TIMESTAMP WITH TIME ZONE NOT NULL,
    sent_at     TIMESTAMP WITH TIME ZONE,
    CONSTRAINT outgoing_mail_status_check CHECK (status IN ('PENDING', 'SENT', 'FAILED'))
);

CREATE INDEX outgoing_mail_recipient_idx ON outgoing_mail (recipient, created_at);
