-- Entrants' names (issue 35): the display name each entrant had when they registered, checked
-- in or pre-registered (the bot has no members intent: its cache cannot name them later), and
-- the name the director may set instead; standings, CSV, JSON and the export show it.
CREATE TABLE tournament_names (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    user_id TEXT NOT NULL,
    display_name TEXT NOT NULL DEFAULT '',
    director_name TEXT,           -- set by the director; wins over the display name
    PRIMARY KEY (tournament_id, user_id)
);
