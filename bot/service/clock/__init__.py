"""bot.service.clock.clocks: (to be written)."""
