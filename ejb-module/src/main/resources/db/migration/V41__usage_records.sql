-- One row per billed model call, whatever the channel (chat, stream, smart-stream, WebSocket, task): what the daily
-- usage report counts. Kept when the user, the conversation or the task is deleted (it is the billing record);
-- user_id refers to users by id only.
CREATE TABLE usage_records (
    id            UUID PRIMARY KEY,
    user_id       BIGINT         NOT NULL,
    model         VARCHAR(50)    NOT NULL,
    channel       VARCHAR(20)    NOT NULL,
    input_tokens  INTEGER        NOT NULL DEFAULT 0,
    output_tokens INTEGER        NOT NULL DEFAULT 0,
    cost          NUMERIC(12, 6) NOT NULL DEFAULT 0,
    created_at    TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT ck_usage_records_channel CHECK (channel IN ('chat', 'stream', 'websocket', 'task')),
    CONSTRAINT ck_usage_records_tokens CHECK (input_tokens >= 0 AND output_tokens >= 0)
);
CREATE INDEX ix_usage_records_created ON usage_records (created_at);
