"""bot.core.records: (to be written)."""
