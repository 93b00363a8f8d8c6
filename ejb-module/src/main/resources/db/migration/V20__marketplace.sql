-- Agent marketplace (spec 03): the agent record, each accepted submission, and every status move with who, when and why.
-- author_id refers to users by id only: contexts do not share tables.
CREATE TABLE agents (
    id              UUID PRIMARY KEY,
    name            VARCHAR(64)     NOT NULL,
    display_name    VARCHAR(120)    NOT NULL,
    author_id       BIGINT          NOT NULL,
    description     VARCHAR(4000)   NOT NULL,
    version         VARCHAR(64)     NOT NULL,
    agent_card      VARCHAR(200000) NOT NULL,
    capabilities    VARCHAR(10000)  NOT NULL,
    pricing         VARCHAR(4000),
    trust_level     VARCHAR(20)     NOT NULL,
    status          VARCHAR(20)     NOT NULL,
    downloads       BIGINT          NOT NULL DEFAULT 0,
    avg_rating      INTEGER         NOT NULL DEFAULT 0,
    docker_image    VARCHAR(300),
    category        VARCHAR(64)     NOT NULL,
    quality_score   DOUBLE PRECISION NOT NULL DEFAULT 0,
    total_calls     BIGINT          NOT NULL DEFAULT 0,
    ranking_score   DOUBLE PRECISION NOT NULL DEFAULT 0,
    embedding       BYTEA,
    embedding_model VARCHAR(60),
    bundle_key      VARCHAR(300),
    bundle_size     BIGINT,
    smoke_status    VARCHAR(20)     NOT NULL,
    created_at      TIMESTAMP WITH TIME ZONE NOT NULL,
    updated_at      TIMESTAMP WITH TIME ZONE NOT NULL,
    row_version     BIGINT          NOT NULL DEFAULT 0,
    CONSTRAINT uk_agents_name UNIQUE (name),
    CONSTRAINT ck_agents_status CHECK (status IN ('PENDING', 'ACTIVE', 'SUSPENDED', 'REJECTED')),
    CONSTRAINT ck_agents_trust CHECK (trust_level IN ('UNVERIFIED', 'COMMUNITY', 'OFFICIAL')),
    CONSTRAINT ck_agents_rating CHECK (avg_rating BETWEEN 0 AND 5),
    CONSTRAINT ck_agents_quality CHECK (quality_score BETWEEN 0 AND 5)
);
CREATE INDEX ix_agents_author ON agents (author_id);
CREATE INDEX ix_agents_status_category ON agents (status, category);
CREATE INDEX ix_agents_status_ranking ON agents (status, ranking_score);

CREATE TABLE agent_submissions (
    id            UUID PRIMARY KEY,
    agent_id      UUID            NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
    author_id     BIGINT          NOT NULL,
    name          VARCHAR(64)     NOT NULL,
    version       VARCHAR(64)     NOT NULL,
    agent_card    VARCHAR(200000) NOT NULL,
    bundle_key    VARCHAR(300),
    bundle_size   BIGINT,
    smoke_status  VARCHAR(20)     NOT NULL,
    smoke_detail  VARCHAR(500),
    status        VARCHAR(20)     NOT NULL,
    review_due_at TIMESTAMP WITH TIME ZONE NOT NULL,
    decided_at    TIMESTAMP WITH TIME ZONE,
    decided_by    BIGINT,
    decision_note VARCHAR(4000),
    created_at    TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT ck_agent_submissions_status CHECK (status IN ('PENDING_REVIEW', 'APPROVED', 'REJECTED', 'SUPERSEDED'))
);
CREATE INDEX ix_agent_submissions_status ON agent_submissions (status, created_at);
CREATE INDEX ix_agent_submissions_agent ON agent_submissions (agent_id, created_at);

CREATE SEQUENCE agent_events_seq START WITH 50 INCREMENT BY 50;
CREATE TABLE agent_events (
    id          BIGINT PRIMARY KEY,
    agent_id    UUID          NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
    action      VARCHAR(20)   NOT NULL,
    from_status VARCHAR(20),
    to_status   VARCHAR(20)   NOT NULL,
    version     VARCHAR(64)   NOT NULL,
    actor_id    BIGINT        NOT NULL,
    reason_code VARCHAR(40),
    reason      VARCHAR(4000),
    created_at  TIMESTAMP WITH TIME ZONE NOT NULL
);
CREATE INDEX ix_agent_events_agent ON agent_events (agent_id, created_at);
