"""Tournaments over many games (issue 15; seed edc-2023 B, D, E, G): `service` (the facade,
`Tournaments(svc)`: the tournament and its entries), `rounds` (seating, the round clock,
tables, results), `clock` (a round's fixed times), `state` (standings from the stored
tables), `export`, `texts`. Above the table service: it sees game events through the
outbox's hooks."""

# Issue 33: what this package's modules may import besides each other (tests/test_rooms.py).
MAY_IMPORT = (
    "bot.core",
    "bot.service.errors",
    "bot.service.service",
    "bot.service.clock",
    "bot.service.delivery",
    "bot.service.games",
    "bot.service.storage",
)
