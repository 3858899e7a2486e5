"""Map palettes chosen from Discord (issue 16): a user's and a server's, beside the game's.

Which palette a map is drawn in:
- a game's public maps (results in the table channel, spectators, history): the game's own
  (`/game create palette:`), else its server's (`/settings server-palette`), else the default;
- what is sent to one user (the map of their own orders, by DM or privately): that user's
  (`/settings palette`), else the game's public palette as above.
"""

from __future__ import annotations

import json

from bot.service.errors import ConfigError
from bot.service.storage import Repository
from bot.service.storage.rows import GameRow
from bot.service.table import Table
from renderer import PALETTES

USER = "user"
SERVER = "server"
DEFAULT = "default"


def check_palette(name: str) -> str:
    """A map palette's name (renderer.PALETTES), or ConfigError naming the known ones."""
    if name not in PALETTES:
        raise ConfigError.of("unknown_palette", value=name, known=", ".join(PALETTES))
    return name


def game_choice(row: GameRow) -> str | None:
    """The palette the game was created with, if any."""
    chosen = json.loads(row.meta_json or "{}").get("palette")
    return str(chosen) if chosen else None


def server_of(row: GameRow) -> str | None:
    """The Discord server the game was created in (`/game create` records it), if any."""
    guild = json.loads(row.meta_json or "{}").get("guild")
    return str(guild) if guild else None


async def public_palette(repo: Repository, row: GameRow) -> str:
    """The palette of the game's public maps: the game's, else its server's, else default."""
    chosen = game_choice(row)
    if chosen:
        return chosen
    server = server_of(row)
    found = await repo.palette_of(SERVER, server) if server else None
    return found or DEFAULT


async def palette_for(repo: Repository, row: GameRow, user: str) -> str:
    """The palette of a map sent to `user` alone: theirs, else the game's public one."""
    return await repo.palette_of(USER, user) or await public_palette(repo, row)


class Palettes:
    """The choices themselves: read and set (the cog checks who may set a server's)."""

    def __init__(self, table: Table) -> None:
        self.table = table

    async def of_user(self, user: str) -> str | None:
        return await self.table.storage.palette_of(USER, user)

    async def of_server(self, server: str) -> str | None:
        return await self.table.storage.palette_of(SERVER, server)

    async def set_user(self, user: str, palette: str | None) -> None:
        """`palette` for the maps sent to `user`; None: follow each game's."""
        await self._set(USER, user, palette)

    async def set_server(self, server: str, palette: str | None) -> None:
        """`palette` for the public maps of the server's games that chose none; None (or
        the default): the default again."""
        await self._set(SERVER, server, None if palette == DEFAULT else palette)

    async def _set(self, scope: str, owner: str, palette: str | None) -> None:
        if palette is not None:
            check_palette(palette)  # a name from renderer.PALETTES, or ConfigError
        async with self.table.storage.tx() as tx:
            await tx.set_palette(scope, owner, palette, self.table.clock.now())
