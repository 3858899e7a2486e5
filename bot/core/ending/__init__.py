"""bot.core.ending: (to be written)."""
