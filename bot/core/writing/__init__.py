"""A power's order set while it is written, before the deadline: `builder` (what each unit may
be ordered to do, for the menus of the order builder, issue 30), `advice` (what the set leaves
out or will not do as written), `submission` (whether the rule set takes the set now, and how
a second set combines with the first). Pure: the service words and stores."""

# Issue 33: what this package's modules may import besides each other (tests/test_rooms.py).
MAY_IMPORT = (
    "bot.core.adjudicator",
    "bot.core.map",
    "bot.core.messages",
    "bot.core.model",
    "bot.core.orders",
    "bot.core.rules",
    "bot.core.stab",
)
