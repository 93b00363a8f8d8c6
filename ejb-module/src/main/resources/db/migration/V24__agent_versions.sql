-- Versions are rows of their own (issue 10). Every accepted submission already was a version (card, bundle, checks,
-- review state), so agent_submissions becomes agent_versions and gains the capability embedding; the agent row
-- keeps identity, status, counters, ranking, the spec's listing fields copied from the version it serves, which
-- version serves, and the rollout of the next one. Written for PostgreSQL and H2 alike.
ALTER TABLE agent_submissions RENAME TO agent_versions;
ALTER INDEX ix_agent_submissions_status RENAME TO ix_agent_versions_status;
ALTER INDEX ix_agent_submissions_agent RENAME TO ix_agent_versions_agent;
ALTER TABLE agent_versions RENAME CONSTRAINT ck_agent_submissions_status TO ck_agent_versions_status;
ALTER TABLE agent_versions ADD COLUMN embedding BYTEA;
ALTER TABLE agent_versions ADD COLUMN embedding_model VARCHAR(60);
-- set when a rollout dropped the version for its quality: a caller pinning its major is not served it again
ALTER TABLE agent_versions ADD COLUMN rolled_back_at TIMESTAMP WITH TIME ZONE;
-- a version's number is taken once: every resubmission had to be higher than the newest
ALTER TABLE agent_versions ADD CONSTRAINT uk_agent_versions_agent_version UNIQUE (agent_id, version);

-- The agent row carried the newest version's embedding.
UPDATE agent_versions v
    SET embedding = (SELECT a.embedding FROM agents a WHERE a.id = v.agent_id AND a.version = v.version),
        embedding_model = (SELECT a.embedding_model FROM agents a WHERE a.id = v.agent_id AND a.version = v.version);

-- current_version_id serves callers and search (null until a first approval); candidate_version_id is rolling out to
-- rollout_percent of callers since rollout_step_at.
ALTER TABLE agents ADD COLUMN current_version_id UUID;
ALTER TABLE agents ADD COLUMN candidate_version_id UUID;
ALTER TABLE agents ADD COLUMN rollout_state VARCHAR(20) NOT NULL DEFAULT 'NONE';
ALTER TABLE agents ADD COLUMN rollout_percent INTEGER NOT NULL DEFAULT 0;
ALTER TABLE agents ADD COLUMN rollout_step_at TIMESTAMP WITH TIME ZONE;

UPDATE agents a SET current_version_id = (
    SELECT v.id FROM agent_versions v WHERE v.agent_id = a.id AND v.status = 'APPROVED'
    ORDER BY v.created_at DESC LIMIT 1);

ALTER TABLE agents ADD CONSTRAINT fk_agents_current_version FOREIGN KEY (current_version_id)
    REFERENCES agent_versions (id);
ALTER TABLE agents ADD CONSTRAINT fk_agents_candidate_version FOREIGN KEY (candidate_version_id)
    REFERENCES agent_versions (id);
ALTER TABLE agents ADD CONSTRAINT ck_agents_rollout_state CHECK (rollout_state IN ('NONE', 'ROLLING_OUT', 'PAUSED'));
ALTER TABLE agents ADD CONSTRAINT ck_agents_rollout CHECK (
    (rollout_state = 'NONE' AND candidate_version_id IS NULL)
    OR (rollout_state <> 'NONE' AND candidate_version_id IS NOT NULL AND rollout_percent BETWEEN 1 AND 99));
ALTER TABLE agents ADD CONSTRAINT ck_agents_active_serves CHECK (status <> 'ACTIVE' OR current_version_id IS NOT NULL);
CREATE INDEX ix_agents_rollout ON agents (rollout_state);

-- What runs and what is searched now lives on the versions.
ALTER TABLE agents DROP COLUMN embedding;
ALTER TABLE agents DROP COLUMN embedding_model;
ALTER TABLE agents DROP COLUMN bundle_key;
ALTER TABLE agents DROP COLUMN bundle_size;
