"""Order-builder drafts (issue 30): the set a player is picking from menus, kept per phase and
power so that a restart in the middle of building loses nothing. A draft is not a submission:
nothing in it is seen by the adjudication until the player submits it (the typed path).

`DraftStatements` is a mixin of `SqliteRepo` (so of `PgRepo` too: the statements run through
PostgreSQL's dialect layer unchanged); `DraftRepo` is its part of the `Repository` protocol.
"""

from __future__ import annotations

from typing import Protocol

from bot.service.storage.connection import Store, Tx


class DraftRepo(Protocol):
    async def draft(self, phase_id: int, power: str) -> str | None:
        """The orders (codec JSON) of the draft being built, if any."""
        ...

    async def set_draft(
        self, phase_id: int, power: str, orders_json: str | None, at: float
    ) -> None:
        """Keep the draft; None drops it (submitted, or begun again)."""
        ...


class DraftStatements:
    """The statements (mixed into `SqliteRepo`, which provides `_db` and `_tx`)."""

    _db: Store | Tx

    def _tx(self) -> Tx:
        raise NotImplementedError  # SqliteRepo's

    async def draft(self, phase_id: int, power: str) -> str | None:
        row = await self._db.fetchone(
            "SELECT orders_json FROM builder_drafts WHERE phase_id = ? AND power = ?",
            (phase_id, power),
        )
        return None if row is None else str(row["orders_json"])

    async def set_draft(
        self, phase_id: int, power: str, orders_json: str | None, at: float
    ) -> None:
        tx = self._tx()
        if orders_json is None:
            await tx.execute(
                "DELETE FROM builder_drafts WHERE phase_id = ? AND power = ?", (phase_id, power)
            )
            return
        # An upsert both dialects read alike (SQLite 3.24+, PostgreSQL 9.5+).
        await tx.execute(
            "INSERT INTO builder_drafts (phase_id, power, orders_json, updated_at)"
            " VALUES (?,?,?,?) ON CONFLICT (phase_id, power) DO UPDATE SET"
            " orders_json = excluded.orders_json, updated_at = excluded.updated_at",
            (phase_id, power, orders_json, at),
        )
