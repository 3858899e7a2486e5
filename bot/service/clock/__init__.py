"""The phase clock: time (`clocks`: the injectable clocks and durations; `presets`: the
phase-clock presets of `data/clocks/`; `schedule`: deadlines at a local time; `absences`:
deadlines moved by an approved absence), the phase machine (`phase_machine`: open, writing,
adjudicating, done; `scheduler`: what is due, recovery at start-up) and the work off the
event loop (`engine`: the seam to the core; `compute`: one phase computed, pure; `workers`:
the process pool; `lifeline`: workers end with the bot).

The phase machine drives every domain at its deadlines (votes, missed orders, palettes, early
orders, hidden movement, the round clock of a tournament, delivery), so this package may read
them all; they read only its time, presets and engine."""

# Issue 33: what this package's modules may import besides each other (tests/test_rooms.py).
MAY_IMPORT = (
    "bot.core",
    "bot.paths",
    "renderer",
    "bot.service.errors",
    "bot.service.table",
    "bot.service.texts",
    "bot.service.observe",
    "bot.service.delivery",
    "bot.service.games",
    "bot.service.hidden",
    "bot.service.orders",
    "bot.service.storage",
    "bot.service.tournaments.clock",
)
