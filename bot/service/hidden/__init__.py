"""Stab!, hidden movement, on the service: `stab` (what each viewer of a game under a
`hidden_movement` preset may know: reports, maps, the adjudication of a hidden phase), `views`
(what one user may see of an adjudicated phase, the viewer chosen from who asks). A player's
set is read against what they know in `bot.service.orders.stab_sets`, above this package."""

# Issue 33: what this package's modules may import besides each other (tests/test_rooms.py).
MAY_IMPORT = (
    "bot.core",
    "bot.service.errors",
    "bot.service.texts",
    "bot.service.engine",
    "bot.service.table",
    "bot.service.storage",
)
