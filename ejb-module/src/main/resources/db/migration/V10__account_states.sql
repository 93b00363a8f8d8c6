-- "Not yet verified" and "deactivated by an administrator" become two facts. is_active stays, kept by the
-- application as "verified and not deactivated", so lists can still filter on it.
ALTER TABLE users ADD COLUMN email_verified_at TIMESTAMP WITH TIME ZONE;
ALTER TABLE users ADD COLUMN deactivated_at TIMESTAMP WITH TIME ZONE;
ALTER TABLE users ADD COLUMN deactivated_by BIGINT;
ALTER TABLE users ADD COLUMN deactivation_reason VARCHAR(200);
-- SHA-256 of the one verification link still valid: a resent mail invalidates the earlier link.
ALTER TABLE users ADD COLUMN verification_token_hash VARCHAR(64);

-- Active users had verified (or were trusted without it); the moment is the first successful verification when
-- the audit log has it, else the registration.
UPDATE users SET email_verified_at = COALESCE(
        (SELECT MIN(a.created_at) FROM audit_logs a
          WHERE a.user_id = users.id AND a.action = 'verify_email' AND a.success),
        created_at)
 WHERE is_active;

-- Inactive users whose last activation change was an administrator's deactivation stay deactivated, with who and
-- when from the audit log; every other inactive user is simply unverified.
UPDATE users SET
    deactivated_at = (SELECT MAX(a.created_at) FROM audit_logs a
                       WHERE a.user_id = users.id AND a.action = 'user_deactivate' AND a.success),
    deactivated_by = (SELECT MAX(a.actor_id) FROM audit_logs a
                       WHERE a.user_id = users.id AND a.action = 'user_deactivate' AND a.success
                         AND a.created_at = (SELECT MAX(b.created_at) FROM audit_logs b
                                              WHERE b.user_id = users.id AND b.action = 'user_deactivate'
                                                AND b.success)),
    deactivation_reason = 'recorded before deactivations had reasons'
 WHERE NOT is_active
   AND EXISTS (SELECT 1 FROM audit_logs d
                WHERE d.user_id = users.id AND d.action = 'user_deactivate' AND d.success
                  AND NOT EXISTS (SELECT 1 FROM audit_logs r
                                   WHERE r.user_id = users.id AND r.action = 'user_activate' AND r.success
                                     AND r.created_at > d.created_at));

-- A deactivated user had been verified (only active users could be deactivated).
UPDATE users SET email_verified_at = COALESCE(
        (SELECT MIN(a.created_at) FROM audit_logs a
          WHERE a.user_id = users.id AND a.action = 'verify_email' AND a.success),
        created_at)
 WHERE deactivated_at IS NOT NULL AND email_verified_at IS NULL;
