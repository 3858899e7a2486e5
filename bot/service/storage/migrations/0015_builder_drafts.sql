-- The order builder's drafts (issue 30): the set a player is picking from Discord menus, per
-- phase and power, so that a restart in the middle of building keeps it. Not a submission.
CREATE TABLE builder_drafts (
    phase_id INTEGER NOT NULL REFERENCES phases(id),
    power TEXT NOT NULL,
    orders_json TEXT NOT NULL,
    updated_at REAL NOT NULL,
    PRIMARY KEY (phase_id, power)
);
