-- As migrations/0019: entrants' display names and the director's names for them (issue 35).
CREATE TABLE tournament_names (
    tournament_id BIGINT NOT NULL REFERENCES tournaments(id),
    user_id TEXT NOT NULL,
    display_name TEXT NOT NULL DEFAULT '',
    director_name TEXT,           -- set by the director; wins over the display name
    PRIMARY KEY (tournament_id, user_id)
);
