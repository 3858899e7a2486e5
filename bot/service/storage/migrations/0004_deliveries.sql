-- Delivery per (event, destination): each channel an event is posted to is its own unit, so
-- a retry re-posts only where the post was not recorded. `dest` and the message ids are
-- opaque to the service (the bot uses channel ids, "dm:<user>"). `after` is where a retry
-- looks for a post made before the process died unrecorded (a Discord snowflake). A later
-- per-channel queue reads the undelivered rows of one `dest` in `event_id` order.
CREATE TABLE deliveries (
    event_id INTEGER NOT NULL REFERENCES outbox(id),
    dest TEXT NOT NULL,
    game_id INTEGER NOT NULL REFERENCES games(id),
    after TEXT,
    started_at REAL NOT NULL,
    delivered_at REAL,
    PRIMARY KEY (event_id, dest)
);
CREATE INDEX deliveries_dest ON deliveries(dest, delivered_at, event_id);

-- The messages posted for a delivery, one per part (a long text is split), recorded right
-- after each post; the last part's row is written with the delivery's mark.
CREATE TABLE delivered_messages (
    event_id INTEGER NOT NULL,
    dest TEXT NOT NULL,
    part INTEGER NOT NULL,
    message_id TEXT NOT NULL,
    posted_at REAL NOT NULL,
    PRIMARY KEY (event_id, dest, part),
    FOREIGN KEY (event_id, dest) REFERENCES deliveries(event_id, dest)
);
CREATE INDEX delivered_messages_id ON delivered_messages(message_id);
