"""The map palettes chosen from Discord (issue 16): one per user, one per server.

`PaletteStatements` is a mixin of `SqliteRepo` (so of `PgRepo` too: the statements run through
PostgreSQL's dialect layer unchanged); `PaletteRepo` is its part of the `Repository` protocol.
"""

from __future__ import annotations

from typing import Protocol

from bot.service.storage.connection import Store, Tx

SCOPES = ("user", "server")


class PaletteRepo(Protocol):
    async def palette_of(self, scope: str, owner: str) -> str | None:
        """The palette `owner` (a user's or a server's Discord id) chose, if any."""
        ...

    async def set_palette(self, scope: str, owner: str, palette: str | None, at: float) -> None:
        """Record the choice; None forgets it (the default applies again)."""
        ...


class PaletteStatements:
    """The statements (mixed into `SqliteRepo`, which provides `_db` and `_tx`)."""

    _db: Store | Tx

    def _tx(self) -> Tx:
        raise NotImplementedError  # SqliteRepo's

    async def palette_of(self, scope: str, owner: str) -> str | None:
        row = await self._db.fetchone(
            "SELECT palette FROM palettes WHERE scope = ? AND owner = ?", (scope, owner)
        )
        return None if row is None else str(row["palette"])

    async def set_palette(self, scope: str, owner: str, palette: str | None, at: float) -> None:
        tx = self._tx()
        if palette is None:
            await tx.execute("DELETE FROM palettes WHERE scope = ? AND owner = ?", (scope, owner))
            return
        # An upsert both dialects read alike (SQLite 3.24+, PostgreSQL 9.5+).
        await tx.execute(
            "INSERT INTO palettes (scope, owner, palette, set_at) VALUES (?,?,?,?)"
            " ON CONFLICT (scope, owner) DO UPDATE SET palette = excluded.palette,"
            " set_at = excluded.set_at",
            (scope, owner, palette, at),
        )
