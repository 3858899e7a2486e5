"""The pure game core: the board and its vocabulary, the rules, and the packages
that read, judge and score a game. Nothing in it imports discord, a database or a clock.

Here: the board (`model` positions and phases, `power`, `map` a variant as data, `names` the
provinces in each nomenclature), typed `orders` and `order_text` (an order in words),
`outcome` (what an adjudication returns), `messages` (why an order failed, in any language),
`rules` and `presets` (rule options as data), `catalogue` (every player-facing text).
Packages: `language/` (the order language: parser, fast path, notation, interpretation),
`adjudicator/`, `writing/` (a set being written: builder, advice, acceptance), `ending/`
(end of game, votes), `scoring/`, `stab/` (hidden movement), `tournament/`, `records/`
(the JSON formats), `compiled/` (the mypyc build's helpers).
The board and its vocabulary import only each other: every package of the core may read them."""

# Issue 33: what this package's modules may import besides each other (tests/test_rooms.py).
MAY_IMPORT = (
    "bot.paths",
    "bot.core.compiled",
    "bot.core.scoring",
)
