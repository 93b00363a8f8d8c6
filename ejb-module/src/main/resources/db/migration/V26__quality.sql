-- Quality scoring (issue 10): each listed agent's figures over the window as the daily quality-scoring job last
-- measured them, and each agent's success rate per UTC day (the automatic takedown looks at 7 in a row).
CREATE TABLE agent_quality (
    agent_id      UUID PRIMARY KEY REFERENCES agents (id) ON DELETE CASCADE,
    quality_score DOUBLE PRECISION NOT NULL,
    success_rate  DOUBLE PRECISION NOT NULL,
    avg_latency_s DOUBLE PRECISION NOT NULL,
    avg_cost_usd  DOUBLE PRECISION NOT NULL,
    total_calls   BIGINT           NOT NULL,
    incidents     INTEGER          NOT NULL,
    window_days   INTEGER          NOT NULL,
    computed_at   TIMESTAMP WITH TIME ZONE NOT NULL
);

CREATE TABLE agent_daily_quality (
    agent_id  UUID    NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
    on_day    DATE    NOT NULL,
    calls     BIGINT  NOT NULL,
    successes BIGINT  NOT NULL,
    PRIMARY KEY (agent_id, on_day)
);

-- The card's self-declared quality score is never used: every agent is neutral until the job measures it.
UPDATE agents SET quality_score = 2.5;
