"""bot.core.compiled: (to be written)."""
