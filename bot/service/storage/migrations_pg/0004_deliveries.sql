-- As migrations/0004: delivery per (event, destination) and the messages posted for it.
-- `seq` stands for SQLite's rowid: the order in which destinations were begun.
CREATE TABLE deliveries (
    event_id BIGINT NOT NULL REFERENCES outbox(id),
    dest TEXT NOT NULL,
    game_id BIGINT NOT NULL REFERENCES games(id),
    after TEXT,
    started_at DOUBLE PRECISION NOT NULL,
    delivered_at DOUBLE PRECISION,
    seq BIGINT GENERATED ALWAYS AS IDENTITY,
    PRIMARY KEY (event_id, dest)
);
CREATE INDEX deliveries_dest ON deliveries(dest, delivered_at, event_id);

CREATE TABLE delivered_messages (
    event_id BIGINT NOT NULL,
    dest TEXT NOT NULL,
    part INTEGER NOT NULL,
    message_id TEXT NOT NULL,
    posted_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (event_id, dest, part),
    FOREIGN KEY (event_id, dest) REFERENCES deliveries(event_id, dest)
);
CREATE INDEX delivered_messages_id ON delivered_messages(message_id);
