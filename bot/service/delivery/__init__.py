"""Delivery of the service's events (`bot.service.events`): `outbox` (events to the notifier
after each commit, in order per game, retried), `deliveries` (what was posted where: posting
exactly once), `ratelimit` (the shared budget under Discord's rate limits)."""

# Issue 33: what this package's modules may import besides each other (tests/test_rooms.py).
MAY_IMPORT = (
    "bot.service.errors",
    "bot.service.observe",
    "bot.service.events",
    "bot.service.table",
    "bot.service.clock",
    "bot.service.storage",
)
