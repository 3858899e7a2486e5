"""Who may change a game's free data (`TableService.set_meta`): the service checks the caller,
not only the cog that asks."""

from __future__ import annotations

# The bot itself, for its own bookkeeping (a Discord user id is only digits: never this).
BOT = "parley"
# Keys the bot keeps for itself: the negotiation channels' saved overwrites while locked.
# A casual server's game channels, private press threads and absences (bot/discord_app/
# channels.py, press.py; cogs/casual): the bot keeps who holds them.
BOT_KEYS = frozenset({"press_lock", "casual", "press_threads", "absences"})
# Keys a player may change as well as the GM: the channels following the game.
PLAYER_KEYS = frozenset({"spectators"})


def meta_refusal(key: str, by: str, *, gm: str, players: set[str]) -> str | None:
    """None if `by` may set `key`; else the texts key of the refusal. The GM may set any key
    (table and press channels...), a player the spectators, the bot only its own keys."""
    if by == BOT:
        return None if key in BOT_KEYS else "meta_denied"
    if by == gm:
        return None
    if key in PLAYER_KEYS:
        return None if by in players else "players_only"
    return "meta_denied"
