-- Orders sent early for a later retreat or adjustment phase (house II(5): "You can submit
-- retreat/adjustment orders early"; the Fall retreat window that also takes the Winter
-- adjustments, edc-2023 B). Kept as written until that phase opens, never lost: `applied_at`
-- says when it was read for that phase (and the submission it became, if any).
CREATE TABLE early_orders (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id),
    phase TEXT NOT NULL,
    power TEXT NOT NULL,
    user_id TEXT NOT NULL,
    text TEXT NOT NULL,
    submitted_at REAL NOT NULL,
    applied_at REAL,
    submission_id INTEGER REFERENCES submissions(id)
);
CREATE INDEX early_orders_phase ON early_orders(game_id, phase, power, id);
