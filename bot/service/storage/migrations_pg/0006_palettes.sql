-- As migrations/0006: map palettes chosen from Discord, per user and per server.
CREATE TABLE palettes (
    scope TEXT NOT NULL CHECK (scope IN ('user', 'server')),
    owner TEXT NOT NULL,
    palette TEXT NOT NULL,
    set_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (scope, owner)
);
