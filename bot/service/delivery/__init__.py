"""bot.service.delivery: (to be written)."""
