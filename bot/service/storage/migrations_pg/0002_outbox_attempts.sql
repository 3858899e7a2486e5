-- As migrations/0002: how many times delivery of an event was started.
ALTER TABLE outbox ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
