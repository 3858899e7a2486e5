-- The priority of the shared rate limit across processes (issue 17): each process waiting
-- for a turn says at which level its most urgent request waits (0 = a table's results, then
-- the rest of a table, spectators and feeds, DMs) until when; a process takes a turn only if
-- no other live demand is more urgent. One row per process, rewritten with each turn.
CREATE TABLE rate_demand (
    owner TEXT PRIMARY KEY,
    level INTEGER NOT NULL,
    until REAL NOT NULL
);
