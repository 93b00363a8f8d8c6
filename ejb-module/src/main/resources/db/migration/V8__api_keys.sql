-- API keys (spec 02): one per user, shown once; only the SHA-256 of the key is stored.
CREATE TABLE api_keys (
    user_id    BIGINT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    key_hash   VARCHAR(64) NOT NULL,
    key_prefix VARCHAR(12) NOT NULL,
    created_at TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT uk_api_keys_hash UNIQUE (key_hash)
);
