"""Time: `clocks` (the injectable clocks, durations), `presets` (the phase-clock presets of
`data/clocks/`), `schedule` (deadlines at a local time in an IANA zone), `rounds` (a
tournament round's fixed times), `lateness` (when an order set is in time: by when it was
sent). The bottom of the service with the storage: it reads only the core and the errors."""

# Issue 33: what this package's modules may import besides each other (tests/test_rooms.py).
MAY_IMPORT = (
    "bot.core",
    "bot.paths",
    "bot.service.errors",
)
