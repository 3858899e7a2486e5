-- As migrations/0015: the order builder's drafts, per phase and power.
CREATE TABLE builder_drafts (
    phase_id BIGINT NOT NULL REFERENCES phases(id),
    power TEXT NOT NULL,
    orders_json TEXT NOT NULL,
    updated_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (phase_id, power)
);
