-- Users' reviews of agents (issue 10): one per user and agent, a new one replaces the old. user_id refers to users
-- by id only. usage_count is the reviewer's successful uses when the review was written; verified_purchase that
-- they really invoked (and, for a paid agent, paid for) it.
CREATE TABLE agent_reviews (
    id                UUID PRIMARY KEY,
    agent_id          UUID          NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
    user_id           BIGINT        NOT NULL,
    rating            INTEGER       NOT NULL,
    comment           VARCHAR(4000) NOT NULL,
    usage_count       BIGINT        NOT NULL,
    verified_purchase BOOLEAN       NOT NULL,
    created_at        TIMESTAMP WITH TIME ZONE NOT NULL,
    updated_at        TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT uk_agent_reviews_user UNIQUE (agent_id, user_id),
    CONSTRAINT ck_agent_reviews_rating CHECK (rating BETWEEN 1 AND 5)
);
CREATE INDEX ix_agent_reviews_agent ON agent_reviews (agent_id, updated_at);

-- The spec's avg_rating is an integer (the exact mean rounded half up); the exact mean and the count are kept too:
-- ranking and the promotion rule use the exact mean.
ALTER TABLE agents ADD COLUMN avg_rating_exact DOUBLE PRECISION NOT NULL DEFAULT 0;
ALTER TABLE agents ADD COLUMN review_count INTEGER NOT NULL DEFAULT 0;
