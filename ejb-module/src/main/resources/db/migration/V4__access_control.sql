-- Spec 01 RBAC: roles have permissions, users have roles. users.role stays the role carried in access tokens.
CREATE SEQUENCE roles_seq START WITH 150 INCREMENT BY 50;
CREATE SEQUENCE permissions_seq START WITH 150 INCREMENT BY 50;
CREATE SEQUENCE audit_logs_seq START WITH 50 INCREMENT BY 50;

CREATE TABLE roles (
    id   BIGINT PRIMARY KEY,
    name VARCHAR(50) NOT NULL,
    CONSTRAINT uk_roles_name UNIQUE (name)
);

CREATE TABLE permissions (
    id          BIGINT PRIMARY KEY,
    code        VARCHAR(100) NOT NULL,
    description VARCHAR(200),
    CONSTRAINT uk_permissions_code UNIQUE (code)
);

CREATE TABLE role_permissions (
    role_id       BIGINT NOT NULL REFERENCES roles (id) ON DELETE CASCADE,
    permission_id BIGINT NOT NULL REFERENCES permissions (id) ON DELETE CASCADE,
    PRIMARY KEY (role_id, permission_id)
);

CREATE TABLE user_roles (
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role_id BIGINT NOT NULL REFERENCES roles (id) ON DELETE CASCADE,
    PRIMARY KEY (user_id, role_id)
);

INSERT INTO roles (id, name) VALUES (1, 'user'), (2, 'pro_user'), (3, 'developer'), (4, 'admin');

INSERT INTO permissions (id, code, description) VALUES
    (1, 'chat', 'Use chat'),
    (2, 'file:upload', 'Upload files'),
    (3, 'admin', 'Administration'),
    (4, 'user:read', 'List and read users'),
    (5, 'user:delete', 'Delete users'),
    (6, 'role:read', 'List roles and their permissions'),
    (7, 'role:assign', 'Grant and revoke roles'),
    (8, 'audit:read', 'Read the audit log'),
    (9, 'key:rotate', 'Rotate signing keys'),
    (10, 'agent:publish', 'Submit and manage own agents'),
    (11, 'agent:review', 'Review, approve and take down agents');

INSERT INTO role_permissions (role_id, permission_id) VALUES
    (1, 1),
    (2, 1), (2, 2),
    (3, 1), (3, 2), (3, 10),
    (4, 1), (4, 2), (4, 3), (4, 4), (4, 5), (4, 6), (4, 7), (4, 8), (4, 9), (4, 10), (4, 11);

INSERT INTO user_roles (user_id, role_id) SELECT u.id, r.id FROM users u JOIN roles r ON r.name = u.role;

-- Sessions and tokens issued before this instant are no longer accepted (logout everywhere, reset, deletion).
ALTER TABLE users ADD COLUMN credentials_valid_after TIMESTAMP WITH TIME ZONE;

-- actor_id: who acted, when not the user concerned (an administrator granting a role or deleting a user).
CREATE TABLE audit_logs (
    id         BIGINT PRIMARY KEY,
    user_id    BIGINT,
    actor_id   BIGINT,
    action     VARCHAR(50)  NOT NULL,
    ip_address VARCHAR(45)  NOT NULL,
    user_agent VARCHAR(200) NOT NULL,
    success    BOOLEAN      NOT NULL DEFAULT TRUE,
    created_at TIMESTAMP WITH TIME ZONE NOT NULL
);
CREATE INDEX ix_audit_logs_created ON audit_logs (created_at);
CREATE INDEX ix_audit_logs_user ON audit_logs (user_id, created_at);
CREATE INDEX ix_audit_logs_action ON audit_logs (action, created_at);

-- Signing keys (HS256 for access/refresh/verification tokens, RS256 for SSO tokens): one current and any
-- previous ones still needed to verify tokens they signed. Secret material is encrypted at rest.
CREATE TABLE signing_keys (
    kid          VARCHAR(64)  PRIMARY KEY,
    algorithm    VARCHAR(10)  NOT NULL,
    status       VARCHAR(10)  NOT NULL,
    material     VARCHAR(8000) NOT NULL,
    public_jwk   VARCHAR(4000),
    created_at   TIMESTAMP WITH TIME ZONE NOT NULL,
    retired_at   TIMESTAMP WITH TIME ZONE,
    drop_after   TIMESTAMP WITH TIME ZONE,
    CONSTRAINT ck_signing_keys_algorithm CHECK (algorithm IN ('HS256', 'RS256')),
    CONSTRAINT ck_signing_keys_status CHECK (status IN ('CURRENT', 'PREVIOUS'))
);
CREATE INDEX ix_signing_keys_algorithm ON signing_keys (algorithm, status);

-- One row to lock while the key ring is created or rotated, so concurrent instances take turns.
CREATE TABLE key_ring_lock (id INTEGER PRIMARY KEY);
INSERT INTO key_ring_lock (id) VALUES (1);
