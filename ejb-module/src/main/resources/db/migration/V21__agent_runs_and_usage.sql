-- The invoke gateway (issue 9): one run record per sandbox run of an agent, and one usage record per recorded
-- invocation. caller_id/user_id refer to users by id only (contexts do not share tables); the records stay when an
-- agent is deleted, since billing builds on the usage rows.

-- A run: what the caller sent (masked), what the agent answered, how it ended. input/output are the caller's only;
-- the author sees status, duration, exit reason and the masked log.
CREATE TABLE agent_runs (
    id             UUID PRIMARY KEY,
    agent_id       UUID          NOT NULL,
    agent_version  VARCHAR(64)   NOT NULL,
    caller_id      BIGINT        NOT NULL,
    status         VARCHAR(20)   NOT NULL,
    exit_reason    VARCHAR(1000),
    exit_code      INTEGER       NOT NULL,
    duration_ms    BIGINT        NOT NULL,
    input_json     VARCHAR(1048576) NOT NULL,
    output_json    VARCHAR(1048576),
    masked_log     VARCHAR(70000) NOT NULL,
    pii_in_output  BOOLEAN       NOT NULL,
    pii_kinds      VARCHAR(200)  NOT NULL,
    created_at     TIMESTAMP WITH TIME ZONE NOT NULL
);
CREATE INDEX ix_agent_runs_agent ON agent_runs (agent_id, created_at);
CREATE INDEX ix_agent_runs_caller ON agent_runs (caller_id, created_at);

-- The spec's usage record plus the agent version and the run. Immutable: billing reads and never changes it.
CREATE TABLE agent_usage_records (
    id                UUID PRIMARY KEY,
    run_id            UUID          NOT NULL,
    user_id           BIGINT        NOT NULL,
    agent_id          UUID          NOT NULL,
    agent_version     VARCHAR(64)   NOT NULL,
    recorded_at       TIMESTAMP WITH TIME ZONE NOT NULL,
    tokens_input      BIGINT        NOT NULL,
    tokens_output     BIGINT        NOT NULL,
    execution_time_s  DOUBLE PRECISION NOT NULL,
    cost_llm          NUMERIC(19, 6) NOT NULL,
    cost_compute      NUMERIC(19, 6) NOT NULL,
    price_charged     NUMERIC(19, 6) NOT NULL,
    developer_share   NUMERIC(19, 6) NOT NULL,
    pricing_model     VARCHAR(20)   NOT NULL,
    succeeded         BOOLEAN       NOT NULL,
    CONSTRAINT uk_agent_usage_run UNIQUE (run_id)
);
CREATE INDEX ix_agent_usage_user ON agent_usage_records (user_id, recorded_at);
CREATE INDEX ix_agent_usage_agent ON agent_usage_records (agent_id, recorded_at);
