-- The phase an early set was read for: a GM rollback of that phase (house VIII(1), EDC E)
-- returns the set to waiting, so it is read again when the phase opens again.
ALTER TABLE early_orders ADD COLUMN applied_phase_id INTEGER REFERENCES phases(id);
UPDATE early_orders SET applied_phase_id =
    (SELECT s.phase_id FROM submissions s WHERE s.id = early_orders.submission_id)
    WHERE submission_id IS NOT NULL;
