-- Tournaments (issue 15; seed edc-2023 B, D, E, G): the tournament, each player's entry per
-- round (pre-registration, registration, check-in, a withdraw/two-tables request), the
-- rounds (proposed seating, start), the tables (each a game, with its score once over) and
-- the marks the scoring reads (penalties, absences, withdrawals, two-table choices).
CREATE TABLE tournaments (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    director TEXT NOT NULL,
    guild_id TEXT NOT NULL,
    channel_id TEXT NOT NULL,
    rules TEXT NOT NULL,          -- the tables' rule preset
    clock TEXT NOT NULL,          -- the round clock (a clock preset)
    scoring TEXT NOT NULL,        -- the table scoring system
    aggregation TEXT NOT NULL,    -- the tournament's rules: edc2023, sum, best-N, ...
    lang TEXT NOT NULL,
    gms_json TEXT NOT NULL,       -- table GMs named by the director
    keep_apart_json TEXT NOT NULL,
    status TEXT NOT NULL,         -- open, over
    final_table INTEGER,
    final_winner TEXT,
    created_at REAL NOT NULL
);

CREATE TABLE tournament_entries (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    round_no INTEGER NOT NULL,
    user_id TEXT NOT NULL,
    preregistered_at REAL,
    registered_at REAL,
    checked_in_at REAL,
    request TEXT,                 -- withdraw, two_tables (seed B)
    PRIMARY KEY (tournament_id, round_no, user_id)
);

CREATE TABLE tournament_rounds (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    round_no INTEGER NOT NULL,
    starts_at REAL,
    status TEXT NOT NULL,         -- planned, seated, running, done
    seating_json TEXT,
    started_at REAL,
    is_final INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (tournament_id, round_no)
);

CREATE TABLE tournament_tables (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    round_no INTEGER NOT NULL,
    table_no INTEGER NOT NULL,
    variant TEXT NOT NULL,
    seats_json TEXT NOT NULL,     -- [[player, power], ...]
    game_id INTEGER REFERENCES games(id),
    thread_id TEXT,
    scores_json TEXT,             -- {player: table score} once the game is over
    centers_json TEXT,            -- {player: centres at the end}
    ended_at REAL,
    PRIMARY KEY (tournament_id, round_no, table_no)
);
CREATE INDEX tournament_tables_game ON tournament_tables(game_id);

CREATE TABLE tournament_marks (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    user_id TEXT NOT NULL,
    kind TEXT NOT NULL,           -- penalty, absence, withdrawal, two_tables
    round_no INTEGER,
    points REAL,
    reason TEXT NOT NULL,         -- penalty reason; absence "registered"/"announced"; table no
    at REAL NOT NULL
);
CREATE INDEX tournament_marks_t ON tournament_marks(tournament_id);
