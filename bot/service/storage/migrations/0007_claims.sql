-- Several Parley processes on one database (issue 17). A claim says which process runs a
-- game's due clock step ('clock', with the phase it was taken for) or delivers its events
-- ('lane'), until `lease_until`: a live process renews its leases, a dead one's run out and
-- another process takes the work over. SQLite has one process: its claims are always free.
CREATE TABLE claims (
    game_id INTEGER NOT NULL,
    kind TEXT NOT NULL,
    claimed_by TEXT,
    lease_until REAL NOT NULL DEFAULT 0,
    phase_id INTEGER,
    PRIMARY KEY (game_id, kind)
);
CREATE INDEX claims_holder ON claims(claimed_by);

-- The bot's global rate limit shared by every process: requests started per slot of time
-- (`slot` = unix time / slot width); old slots are deleted as they pass.
CREATE TABLE rate_slots (
    slot INTEGER PRIMARY KEY,
    used INTEGER NOT NULL
);
