"""bot.service.tournaments.service: (to be written)."""
