"""The JSON formats of `docs/formats.md`: `jsonio` (the POSITION format, read and written) and
`jsonio_fast` (its reader and the output writer of bulk runs, issue 18)."""

# Issue 33: what this package's modules may import besides each other (tests/test_rooms.py).
MAY_IMPORT = (
    "bot.core.adjudicator",
    "bot.core.map",
    "bot.core.messages",
    "bot.core.model",
    "bot.core.orders",
    "bot.core.outcome",
)
