-- As migrations/0016: the status board's message per game.
CREATE TABLE status_boards (
    game_id BIGINT PRIMARY KEY REFERENCES games(id),
    channel_id TEXT NOT NULL,
    message_id TEXT NOT NULL,
    digest TEXT NOT NULL DEFAULT '',
    edited_at DOUBLE PRECISION NOT NULL
);
