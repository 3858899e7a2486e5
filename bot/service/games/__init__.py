"""Games and seats: `lobby` (create, join, assign, leave, start), `settings` (what a table is
told; clock text; the scoring system), `access` (who may change a game's free data),
`queries` (status, history, results), `values` (the frozen values the service returns),
`board` (a GM's board edit), `votes`, `missed` (orders missed at a deadline),
`abbreviations`, `palettes`, `record` (a game's record and report, read through the
service as a Protocol), `unreadable` (a game whose rows cannot be read)."""

# Issue 33: what this package's modules may import besides each other (tests/test_rooms.py).
MAY_IMPORT = (
    "bot.core",
    "renderer",
    "bot.service.errors",
    "bot.service.texts",
    "bot.service.events",
    "bot.service.table",
    "bot.service.clock",
    "bot.service.delivery",
    "bot.service.hidden",
    "bot.service.storage",
)
