-- Trust and safety (issue 9): incidents that demote an agent's trust level, users' security reports (one per user
-- per agent; three from distinct users take the agent down), self-service publishing and the trust permission.

-- A security incident on record: a contained hostile behaviour, a high-risk finding, a takedown by reports.
-- actor_id 0 is the platform. Any incident blocks the automatic promotion to community.
CREATE SEQUENCE agent_incidents_seq START WITH 50 INCREMENT BY 50;
CREATE TABLE agent_incidents (
    id         BIGINT PRIMARY KEY,
    agent_id   UUID          NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
    code       VARCHAR(40)   NOT NULL,
    reason     VARCHAR(4000) NOT NULL,
    actor_id   BIGINT        NOT NULL,
    created_at TIMESTAMP WITH TIME ZONE NOT NULL
);
CREATE INDEX ix_agent_incidents_agent ON agent_incidents (agent_id, created_at);

-- user_id refers to users by id only (contexts do not share tables); a deleted user's report still counted.
CREATE TABLE agent_reports (
    id         UUID PRIMARY KEY,
    agent_id   UUID          NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
    user_id    BIGINT        NOT NULL,
    reason     VARCHAR(40)   NOT NULL,
    details    VARCHAR(4000) NOT NULL,
    created_at TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT uk_agent_reports_user UNIQUE (agent_id, user_id)
);
CREATE INDEX ix_agent_reports_agent ON agent_reports (agent_id, created_at);

-- Publishing is self-service: every account holds at least the user role, and only verified accounts can sign in.
INSERT INTO role_permissions (role_id, permission_id)
    SELECT r.id, p.id FROM roles r, permissions p
    WHERE r.name IN ('user', 'pro_user') AND p.code = 'agent:publish'
      AND NOT EXISTS (SELECT 1 FROM role_permissions rp WHERE rp.role_id = r.id AND rp.permission_id = p.id);

-- Ids from the sequence, as in V11, so permissions added in parallel cannot collide.
INSERT INTO permissions (id, code, description)
    VALUES (nextval('permissions_seq'), 'agent:trust', 'Change an agent''s trust level after an audit');
INSERT INTO role_permissions (role_id, permission_id)
    SELECT r.id, p.id FROM roles r, permissions p WHERE r.name = 'admin' AND p.code = 'agent:trust';
