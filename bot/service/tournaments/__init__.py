"""Tournaments over many games (issue 15; seed edc-2023 B, D, E, G): `service` (the facade,
`Tournaments(svc)`: the tournament and its entries), `rounds` (seating, starts, tables,
results), `state` (standings from the stored tables), `export`, `texts`. Above the table
service (the top of the house): it sees game events through the outbox's hooks; a round's
times are `bot.service.clock.rounds`."""

# Issue 33: what this package's modules may import besides each other (tests/test_rooms.py).
MAY_IMPORT = (
    "bot.core",
    "bot.service.errors",
    "bot.service.events",
    "bot.service.service",
    "bot.service.clock",
    "bot.service.games",
    "bot.service.storage",
)
