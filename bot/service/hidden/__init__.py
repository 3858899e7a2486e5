"""bot.service.hidden.stab: (to be written)."""
