"""bot.service.games: (to be written)."""
