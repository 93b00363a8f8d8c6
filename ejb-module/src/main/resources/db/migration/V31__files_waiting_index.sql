-- The parse recovery looks every few minutes for files still waiting for their parse job.
CREATE INDEX ix_files_status_created ON files (status, created_at);
