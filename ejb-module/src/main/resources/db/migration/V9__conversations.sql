-- Chat history (spec 02 Conversation and Message). user_id refers to users by id.
CREATE TABLE conversations (
    id         UUID PRIMARY KEY,
    user_id    BIGINT       NOT NULL,
    title      VARCHAR(200) NOT NULL,
    model      VARCHAR(50)  NOT NULL,
    metadata   TEXT         NOT NULL,
    created_at TIMESTAMP WITH TIME ZONE NOT NULL,
    updated_at TIMESTAMP WITH TIME ZONE NOT NULL
);
CREATE INDEX ix_conversations_user ON conversations (user_id, created_at);

CREATE TABLE messages (
    id              UUID PRIMARY KEY,
    conversation_id UUID          NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    role            VARCHAR(20)   NOT NULL,
    content         TEXT          NOT NULL,
    token_count     INTEGER       NOT NULL DEFAULT 0,
    cost            NUMERIC(10,6) NOT NULL DEFAULT 0,
    model           VARCHAR(50),
    metadata        TEXT          NOT NULL,
    created_at      TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT ck_messages_role CHECK (role IN ('user', 'assistant', 'system'))
);
CREATE INDEX ix_messages_conversation ON messages (conversation_id, created_at);
CREATE INDEX ix_messages_created ON messages (created_at);
