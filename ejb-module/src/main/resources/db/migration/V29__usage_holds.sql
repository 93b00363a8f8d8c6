-- The balance hold placed before a paid invocation, which the billing consumer settles with the usage record.
ALTER TABLE agent_usage_records ADD COLUMN hold_id UUID;
