-- The pre-listing checks of each accepted submission (smoke tests, static scan, dependencies, prompt injection,
-- network audit, time and memory), as the JSON array the submission answer showed. Older rows have none.
ALTER TABLE agent_submissions ADD COLUMN checks VARCHAR(400000);
