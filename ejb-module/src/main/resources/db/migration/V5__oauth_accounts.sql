-- Spec 01 OAuthAccount: external accounts bound to local users. One user may bind several; one external account
-- (provider, provider_user_id) belongs to at most one user. Deleting a user deletes its bindings.
CREATE SEQUENCE oauth_accounts_seq START WITH 50 INCREMENT BY 50;

CREATE TABLE oauth_accounts (
    id               BIGINT PRIMARY KEY,
    user_id          BIGINT       NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    provider         VARCHAR(20)  NOT NULL,
    provider_user_id VARCHAR(100) NOT NULL,
    created_at       TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT uk_oauth_accounts_provider_user UNIQUE (provider, provider_user_id)
);
CREATE INDEX ix_oauth_accounts_user ON oauth_accounts (user_id);
