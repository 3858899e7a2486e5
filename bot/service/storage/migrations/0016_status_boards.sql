-- The status board of a game (issue 31): the one message in its table channel that the bot
-- edits as the game goes. Its id survives restarts (edited, never posted again unless it is
-- gone); `digest` is what it shows, so an unchanged board is not edited again.
CREATE TABLE status_boards (
    game_id INTEGER PRIMARY KEY REFERENCES games(id),
    channel_id TEXT NOT NULL,
    message_id TEXT NOT NULL,
    digest TEXT NOT NULL DEFAULT '',
    edited_at REAL NOT NULL
);
