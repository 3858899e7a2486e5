"""Orders: `secret` (the secret submissions of each power and the ready marks), `intake`
(reading a set off the event loop), `stab_sets` (a Stab! set read against what its power
knows), `labels` (header lines that are not orders), `early` (orders sent early for a later
phase), `order_map` (the map of a power's orders), `builder` (the order builder's drafts).
The scheduler above it is seen as a Protocol (`secret.Advances`)."""

# Issue 33: what this package's modules may import besides each other (tests/test_rooms.py).
MAY_IMPORT = (
    "bot.core",
    "renderer",
    "bot.service.errors",
    "bot.service.texts",
    "bot.service.observe",
    "bot.service.engine",
    "bot.service.events",
    "bot.service.table",
    "bot.service.clock",
    "bot.service.delivery",
    "bot.service.games",
    "bot.service.hidden",
    "bot.service.storage",
)
