-- As migrations/0003: each game's vote book (private).
CREATE TABLE votebooks (
    game_id BIGINT PRIMARY KEY REFERENCES games(id),
    state_json TEXT NOT NULL,
    updated_at DOUBLE PRECISION NOT NULL
);
