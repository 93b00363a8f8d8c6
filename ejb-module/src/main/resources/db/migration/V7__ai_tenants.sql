-- The AI backend's tenancy (spec 02): each user's tier; absent means free.
CREATE TABLE ai_tenants (
    user_id    BIGINT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    tier       VARCHAR(20) NOT NULL,
    updated_at TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT ck_ai_tenants_tier CHECK (tier IN ('free', 'pro', 'enterprise'))
);
