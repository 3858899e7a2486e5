"""bot.core.writing: (to be written)."""
