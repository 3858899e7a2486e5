"""The phase machine and what drives it: `phase_machine` (open, writing, adjudicating, done;
reminders; the end of a game), `scheduler` (what is due, the loop, recovery at start-up),
`gm` (the GM's hand on it: pause, resume, extend, adjudicate now, rollback, replace a player,
end), `absences` (deadlines moved by an approved absence), and the work off the event loop:
`compute` (one phase computed, pure), `workers` (the process pool), `lifeline` (workers end
with the bot). It drives every domain at its deadlines (votes, missed orders, early orders,
hidden movement, delivery), so it sits above them all but the facade and tournaments."""

# Issue 33: what this package's modules may import besides each other (tests/test_rooms.py).
MAY_IMPORT = (
    "bot.core",
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
    "bot.service.orders",
    "bot.service.storage",
)
