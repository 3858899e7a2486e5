"""Stab!, hidden movement, on the service: `stab` (what each viewer of a game under a
`hidden_movement` preset may know; reading a player's set against it), `views` (what one user
may see of an adjudicated phase, the viewer chosen from who asks)."""

# Issue 33: what this package's modules may import besides each other (tests/test_rooms.py).
MAY_IMPORT = (
    "bot.core",
    "bot.service.errors",
    "bot.service.table",
    "bot.service.texts",
    "bot.service.observe",
    "bot.service.clock.engine",
    "bot.service.orders.intake",
    "bot.service.storage",
)
