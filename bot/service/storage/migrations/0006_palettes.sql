-- Map palettes chosen from Discord (issue 16): a user's, for the maps sent to that user (order
-- maps by DM), and a server's, for the public maps of its games that chose none. `owner` is the
-- Discord id of the user or the server. No row: no choice (the default applies).
CREATE TABLE palettes (
    scope TEXT NOT NULL CHECK (scope IN ('user', 'server')),
    owner TEXT NOT NULL,
    palette TEXT NOT NULL,
    set_at REAL NOT NULL,
    PRIMARY KEY (scope, owner)
);
