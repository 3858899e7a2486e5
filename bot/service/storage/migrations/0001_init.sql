-- Parley table service, schema 1. Times are UTC epoch seconds (REAL).

CREATE TABLE parley_meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    gm TEXT NOT NULL,
    variant TEXT NOT NULL,
    rules TEXT NOT NULL,
    clock_name TEXT NOT NULL,
    clock_json TEXT NOT NULL,
    lang TEXT NOT NULL CHECK (lang IN ('en', 'fr')),
    status TEXT NOT NULL CHECK (status IN ('forming', 'active', 'paused', 'over')),
    options_json TEXT NOT NULL DEFAULT '{}',
    meta_json TEXT NOT NULL DEFAULT '{}',
    created_at REAL NOT NULL,
    started_at REAL,
    paused_at REAL,
    ended_at REAL,
    end_reason TEXT,
    press_open INTEGER NOT NULL DEFAULT 1,
    current_phase_id INTEGER
);

CREATE TABLE players (
    game_id INTEGER NOT NULL REFERENCES games(id),
    power TEXT NOT NULL,
    user_id TEXT NOT NULL,
    joined_at REAL NOT NULL,
    PRIMARY KEY (game_id, power)
);
CREATE INDEX players_user ON players(user_id);

-- One row per phase played (a roll-back opens a new row for the same phase).
-- status: pending (reading window of the previous phase), open (orders accepted),
-- adjudicating (closed, results being computed), done, final (the position the game ended on),
-- skipped (nothing to do), rolled_back.
-- window: what was last announced: reading, negotiation, writing, closed.
CREATE TABLE phases (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id),
    phase TEXT NOT NULL,
    position_json TEXT NOT NULL,
    status TEXT NOT NULL,
    window TEXT NOT NULL,
    opens_at REAL,
    writing_at REAL,
    deadline REAL,
    closed_at REAL,
    created_at REAL NOT NULL
);
CREATE INDEX phases_game ON phases(game_id, id);

-- Every submission, kept for disputes; the latest accepted one before the deadline stands.
CREATE TABLE submissions (
    id INTEGER PRIMARY KEY,
    phase_id INTEGER NOT NULL REFERENCES phases(id),
    power TEXT NOT NULL,
    user_id TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('submit', 'clear', 'gm', 'carried')),
    text TEXT NOT NULL,
    accepted INTEGER NOT NULL,
    orders_json TEXT NOT NULL,
    reply_json TEXT NOT NULL,
    submitted_at REAL NOT NULL
);
CREATE INDEX submissions_phase ON submissions(phase_id, power, id);

CREATE TABLE ready (
    phase_id INTEGER NOT NULL REFERENCES phases(id),
    power TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (phase_id, power)
);

-- Exactly one per adjudicated phase row: the idempotence key of adjudication.
CREATE TABLE results (
    phase_id INTEGER PRIMARY KEY REFERENCES phases(id),
    outcome_json TEXT NOT NULL,
    orders_json TEXT NOT NULL,
    png BLOB,
    adjudicated_at REAL NOT NULL,
    compute_seconds REAL NOT NULL
);

-- Events for the notifier; `key` makes every emission idempotent.
CREATE TABLE outbox (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL UNIQUE,
    game_id INTEGER NOT NULL REFERENCES games(id),
    kind TEXT NOT NULL,
    payload_json TEXT NOT NULL,
    phase_id INTEGER REFERENCES phases(id),
    created_at REAL NOT NULL,
    delivered_at REAL
);
CREATE INDEX outbox_pending ON outbox(delivered_at, id);

CREATE TABLE audit (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id),
    at REAL NOT NULL,
    actor TEXT NOT NULL,
    action TEXT NOT NULL,
    detail_json TEXT NOT NULL
);
CREATE INDEX audit_game ON audit(game_id, id);
