-- As migrations/0013: the phase an early set was read for.
ALTER TABLE early_orders ADD COLUMN applied_phase_id BIGINT REFERENCES phases(id);
UPDATE early_orders SET applied_phase_id =
    (SELECT s.phase_id FROM submissions s WHERE s.id = early_orders.submission_id)
    WHERE submission_id IS NOT NULL;
