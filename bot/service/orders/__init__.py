"""bot.service.orders.secret: (to be written)."""
