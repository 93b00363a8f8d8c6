-- Security alerts (issue 17): one record per episode of a signal for one subject (an address, a user).
CREATE SEQUENCE security_alerts_seq START WITH 50 INCREMENT BY 50;

CREATE TABLE security_alerts (
    id              BIGINT PRIMARY KEY,
    kind            VARCHAR(50)  NOT NULL,
    subject         VARCHAR(100) NOT NULL,
    details         VARCHAR(500) NOT NULL,
    first_seen      TIMESTAMP WITH TIME ZONE NOT NULL,
    last_seen       TIMESTAMP WITH TIME ZONE NOT NULL,
    count           INTEGER NOT NULL,
    status          VARCHAR(20)  NOT NULL,
    acknowledged_by BIGINT,
    acknowledged_at TIMESTAMP WITH TIME ZONE,
    CONSTRAINT ck_security_alerts_status CHECK (status IN ('open', 'acknowledged'))
);
CREATE INDEX ix_security_alerts_open ON security_alerts (kind, subject, status);
CREATE INDEX ix_security_alerts_first_seen ON security_alerts (first_seen);

-- Ids from the sequence (a block EclipseLink will not hand out), so helpers adding permissions in parallel
-- cannot collide on a hand-picked number.
INSERT INTO permissions (id, code, description)
    VALUES (nextval('permissions_seq'), 'alert:read', 'List security alerts');
INSERT INTO permissions (id, code, description)
    VALUES (nextval('permissions_seq'), 'alert:ack', 'Acknowledge security alerts');
INSERT INTO role_permissions (role_id, permission_id)
    SELECT r.id, p.id FROM roles r, permissions p WHERE r.name = 'admin' AND p.code IN ('alert:read', 'alert:ack');
