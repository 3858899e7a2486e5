-- How many times delivery of an event was started: > 0 at delivery means the process may
-- have died after an earlier delivery and before it was recorded (the notifier dedupes).
ALTER TABLE outbox ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
