-- The index served only the five-minute parse recovery, which the outbox replaced; file lists use
-- ix_files_user_created.
DROP INDEX IF EXISTS ix_files_status_created;
