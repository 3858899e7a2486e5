-- As migrations/0010: each process's most urgent waiting level under the shared rate.
CREATE TABLE rate_demand (
    owner TEXT PRIMARY KEY,
    level INTEGER NOT NULL,
    until DOUBLE PRECISION NOT NULL
);
