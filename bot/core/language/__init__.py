"""bot.core.language: (to be written)."""
