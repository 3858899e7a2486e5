"""Parley: a Discord bot that runs live games of the board game Diplomacy."""

# Issue 33: what this package's modules may import besides each other (tests/test_rooms.py).
MAY_IMPORT = (
    "bot.cli",
    "bot.discord_app",
    "bot.service",
)

__version__ = "0.1.0"
