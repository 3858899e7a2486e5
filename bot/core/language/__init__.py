"""The order language: what players write, in English or French, into typed orders, and the
results written back for the table.

`parser` (the public API: `parse_order`, `parse_orders`; the lark grammar `grammar/orders.lark`
with the words of `lexicon` and the tree-to-order step of `transform`), `fastread` and
`fastparse` (the fast path: texts read without a parse tree, held per map and language),
`bulk` (bulk runs: the fast path with the grammar behind it), `notation` (results in the
stabbeurfou section-4 notation), `interpret` (an order set's reading before adjudication:
duplicates, illegal orders, the lettered rule options). Above the board's vocabulary and the
adjudicator (`interpret` checks legality with it); nothing below imports this package."""

# Issue 33: what this package's modules may import besides each other (tests/test_rooms.py).
MAY_IMPORT = (
    "bot.core.adjudicator",
    "bot.core.catalogue",
    "bot.core.compiled",
    "bot.core.map",
    "bot.core.messages",
    "bot.core.model",
    "bot.core.names",
    "bot.core.order_text",
    "bot.core.orders",
    "bot.core.outcome",
    "bot.core.rules",
)
