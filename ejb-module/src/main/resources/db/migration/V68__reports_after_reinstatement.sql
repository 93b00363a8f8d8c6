-- Security reports count afresh after an agent is approved again or reinstated (issue 48): a user who reported it
-- before may report it again, so one report per user per agent holds only within that period, checked under the
-- agent's row lock instead of by a unique constraint.
ALTER TABLE agent_reports DROP CONSTRAINT uk_agent_reports_user;
CREATE INDEX ix_agent_reports_user ON agent_reports (agent_id, user_id, created_at);
