-- Administrators may deactivate and reactivate users.
INSERT INTO permissions (id, code, description) VALUES (12, 'user:update', 'Deactivate and reactivate users');
INSERT INTO role_permissions (role_id, permission_id) VALUES (4, 12);
