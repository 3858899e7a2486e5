"""The status boards' messages (issue 31, migration 0016): one per game, its channel and
message ids and a digest of what it shows.

`BoardStatements` is a mixin of `SqliteRepo` (so of `PgRepo` too: the statements run through
PostgreSQL's dialect layer unchanged); `BoardRepo` is its part of the `Repository` protocol.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from bot.service.storage.connection import Store, Tx


@dataclass(frozen=True, slots=True)
class BoardRow:
    game_id: int
    channel_id: str
    message_id: str
    digest: str
    edited_at: float


class BoardRepo(Protocol):
    async def status_board(self, game_id: int) -> BoardRow | None:
        """The game's board message, if one was posted."""
        ...

    async def set_status_board(self, row: BoardRow) -> None:
        """Record the board's message (posted again, or edited: its new digest)."""
        ...

    async def drop_status_board(self, game_id: int) -> None: ...


class BoardStatements:
    """The statements (mixed into `SqliteRepo`, which provides `_db` and `_tx`)."""

    _db: Store | Tx

    def _tx(self) -> Tx:
        raise NotImplementedError  # SqliteRepo's

    async def status_board(self, game_id: int) -> BoardRow | None:
        row = await self._db.fetchone(
            "SELECT game_id, channel_id, message_id, digest, edited_at FROM status_boards"
            " WHERE game_id = ?",
            (game_id,),
        )
        if row is None:
            return None
        return BoardRow(
            int(row["game_id"]),
            str(row["channel_id"]),
            str(row["message_id"]),
            str(row["digest"]),
            float(row["edited_at"]),
        )

    async def set_status_board(self, row: BoardRow) -> None:
        # An upsert both dialects read alike (SQLite 3.24+, PostgreSQL 9.5+).
        await self._tx().execute(
            "INSERT INTO status_boards (game_id, channel_id, message_id, digest, edited_at)"
            " VALUES (?,?,?,?,?) ON CONFLICT (game_id) DO UPDATE SET"
            " channel_id = excluded.channel_id, message_id = excluded.message_id,"
            " digest = excluded.digest, edited_at = excluded.edited_at",
            (row.game_id, row.channel_id, row.message_id, row.digest, row.edited_at),
        )

    async def drop_status_board(self, game_id: int) -> None:
        await self._tx().execute("DELETE FROM status_boards WHERE game_id = ?", (game_id,))
