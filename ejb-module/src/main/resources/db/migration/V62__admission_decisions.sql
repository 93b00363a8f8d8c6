-- A call's price is decided once, at admission (README, "Holds — no overspending"): the free slots of freemium
-- agents, the subscription months and the dependency budgets are reserved here atomically, by conditional updates
-- and inserts, before the run; the usage record carries the decision and billing settles exactly it.

-- Freemium: the free calls a user took of an agent in a calendar month (UTC), month as YYYYMM. A slot is taken by
-- one conditional update (used < the card's free quota) and given back when the call is refused or its run fails.
CREATE TABLE marketplace_free_slots (
    user_id  BIGINT  NOT NULL,
    agent_id UUID    NOT NULL,
    month_key INTEGER NOT NULL,
    used     INTEGER NOT NULL,
    PRIMARY KEY (user_id, agent_id, month_key)
);

-- Subscription: the month a user's fee for an agent is paid (or being paid by the call in run_id). The row's insert
-- decides which call pays; a call refused or failed before it was recorded removes its own row again.
CREATE TABLE marketplace_subscription_months (
    user_id    BIGINT  NOT NULL,
    agent_id   UUID    NOT NULL,
    month_key  INTEGER NOT NULL,
    run_id     UUID,
    created_at TIMESTAMP WITH TIME ZONE NOT NULL,
    PRIMARY KEY (user_id, agent_id, month_key)
);

-- The price cap of one invocation and its dependency calls (Atrium-Max-Price-Usd): what the chain may still hold.
CREATE TABLE marketplace_invocation_budgets (
    root_run_id UUID PRIMARY KEY,
    user_id     BIGINT         NOT NULL,
    cap         NUMERIC(19, 6) NOT NULL,
    spent       NUMERIC(19, 6) NOT NULL,
    refused     INTEGER        NOT NULL,
    created_at  TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT marketplace_budget_within_cap CHECK (spent <= cap)
);

-- The decision a usage record carries: the most it may charge (its hold), and for a dependency call the run that
-- called it and the invocation it belongs to.
ALTER TABLE agent_usage_records ADD COLUMN max_charge NUMERIC(19, 6);
ALTER TABLE agent_usage_records ADD COLUMN parent_run_id UUID;
ALTER TABLE agent_usage_records ADD COLUMN root_run_id UUID;
CREATE INDEX ix_agent_usage_parent ON agent_usage_records (parent_run_id);
CREATE INDEX ix_agent_usage_root ON agent_usage_records (root_run_id);

-- A hold is claimed by the usage record that billing will settle it with; an unclaimed hold older than the longest
-- possible run is released by the sweeper.
ALTER TABLE billing_holds ADD COLUMN claimed_at TIMESTAMP WITH TIME ZONE;

-- What was decided before this migration, read from the usage records: the free calls taken this way and the
-- months paid.
INSERT INTO marketplace_free_slots (user_id, agent_id, month_key, used)
SELECT user_id, agent_id, CAST(EXTRACT(YEAR FROM recorded_at) * 100 + EXTRACT(MONTH FROM recorded_at) AS INTEGER),
       COUNT(*)
FROM agent_usage_records WHERE pricing_model = 'freemium' AND succeeded = TRUE
GROUP BY user_id, agent_id,
         CAST(EXTRACT(YEAR FROM recorded_at) * 100 + EXTRACT(MONTH FROM recorded_at) AS INTEGER);

INSERT INTO marketplace_subscription_months (user_id, agent_id, month_key, run_id, created_at)
SELECT user_id, agent_id, CAST(EXTRACT(YEAR FROM recorded_at) * 100 + EXTRACT(MONTH FROM recorded_at) AS INTEGER),
       NULL, MIN(recorded_at)
FROM agent_usage_records WHERE pricing_model = 'subscription' AND succeeded = TRUE AND price_charged > 0
GROUP BY user_id, agent_id,
         CAST(EXTRACT(YEAR FROM recorded_at) * 100 + EXTRACT(MONTH FROM recorded_at) AS INTEGER);

UPDATE billing_holds SET claimed_at = created_at WHERE status = 'OPEN';
