-- An agent's secrets (issue 48): set by its author, write-only, sealed with AES-256-GCM under a key derived from
-- the master secret (a new 96-bit nonce per write; the agent's id and the name as associated data). A run receives
-- only its own agent's values, for the names its version declares.
CREATE TABLE agent_secrets (
    id         UUID PRIMARY KEY,
    agent_id   UUID         NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
    name       VARCHAR(128) NOT NULL,
    nonce      BYTEA        NOT NULL,
    ciphertext BYTEA        NOT NULL,
    updated_by BIGINT       NOT NULL,
    created_at TIMESTAMP WITH TIME ZONE NOT NULL,
    updated_at TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT uq_agent_secrets_name UNIQUE (agent_id, name)
);
