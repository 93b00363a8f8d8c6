-- Asynchronous generation tasks (spec 02): one row per submission, the record of it for its user. A worker moves
-- it through running and PROGRESS to success or failure; a finished task is kept until expires_at (3600 s after
-- it finished by default), then the hourly cleanup deletes it.
CREATE TABLE tasks (
    id             UUID PRIMARY KEY,
    user_id        BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    prompt         TEXT NOT NULL,
    model          VARCHAR(50) NOT NULL,
    status         VARCHAR(20) NOT NULL,
    -- JSON object, set while status is PROGRESS
    progress       VARCHAR(1000),
    result_content TEXT,
    input_tokens   INTEGER NOT NULL DEFAULT 0,
    output_tokens  INTEGER NOT NULL DEFAULT 0,
    cost           NUMERIC(10, 6) NOT NULL DEFAULT 0,
    -- the last failure: the task's error once it is a failure, the reason of the coming retry before that
    error          VARCHAR(1000),
    attempts       INTEGER NOT NULL DEFAULT 0,
    created_at     TIMESTAMP WITH TIME ZONE NOT NULL,
    started_at     TIMESTAMP WITH TIME ZONE,
    finished_at    TIMESTAMP WITH TIME ZONE,
    expires_at     TIMESTAMP WITH TIME ZONE,
    CONSTRAINT ck_tasks_status CHECK (status IN ('submitted', 'running', 'PROGRESS', 'success', 'failure')),
    CONSTRAINT ck_tasks_attempts CHECK (attempts >= 0)
);

CREATE INDEX ix_tasks_user_created ON tasks (user_id, created_at);
CREATE INDEX ix_tasks_expires ON tasks (expires_at);
