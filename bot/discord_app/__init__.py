"""The Discord adapter: the client (`bot`), the notifier that posts the service's events
(`notifier`, with `channels`, `hidden`, `embed_posts`, `announce`, `status_board`), the order
builder's components (`builder`, `builder_notice`), the interactions' helpers, embeds and
formatting, pacing under the rate limits, and posts whose fate is uncertain (`uncertain`).
Calls the service; cogs call it."""

# Issue 33: what this package's modules may import besides each other (tests/test_rooms.py).
MAY_IMPORT = (
    "bot.core",
    "bot.i18n",
    "bot.service",
    "renderer",
)
