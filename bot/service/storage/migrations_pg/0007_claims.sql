-- As migrations/0007: claims with leases (clock steps, delivery lanes) and the shared
-- rate-limit slots.
CREATE TABLE claims (
    game_id BIGINT NOT NULL,
    kind TEXT NOT NULL,
    claimed_by TEXT,
    lease_until DOUBLE PRECISION NOT NULL DEFAULT 0,
    phase_id BIGINT,
    PRIMARY KEY (game_id, kind)
);
CREATE INDEX claims_holder ON claims(claimed_by);

CREATE TABLE rate_slots (
    slot BIGINT PRIMARY KEY,
    used INTEGER NOT NULL
);
