"""Discord cogs: thin adapters from slash commands and DMs to the table service."""

# Issue 33: what this package's modules may import besides each other (tests/test_rooms.py).
MAY_IMPORT: tuple[str, ...] = ()
