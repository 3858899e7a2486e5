"""The host's figures read from the database (`parley run --metrics`, bot/hosting/metrics.py):
games by state, deliveries pending and the oldest one's time, the last results' deadline.

`HealthStatements` is a mixin of `SqliteRepo` (so of `PgRepo` too: plain SQL both run);
`HealthRepo` is its part of the `Repository` protocol.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from bot.service.storage.connection import Store, Tx

STATES = ("forming", "active", "paused", "over")


@dataclass(frozen=True, slots=True)
class HostFigures:
    games: dict[str, int]  # by state (every one of STATES, 0 if none)
    pending: int  # events not delivered yet
    oldest_pending: float | None  # created_at of the oldest one (epoch seconds)


class HealthRepo(Protocol):
    async def host_figures(self) -> HostFigures:
        """Two small reads: games by state, the outbox's undelivered events."""
        ...


class HealthStatements:
    """The statements (mixed into `SqliteRepo`, which provides `_db`)."""

    _db: Store | Tx

    async def host_figures(self) -> HostFigures:
        rows = await self._db.fetchall("SELECT status, COUNT(*) AS n FROM games GROUP BY status")
        games = dict.fromkeys(STATES, 0) | {str(r["status"]): int(r["n"]) for r in rows}
        # (outbox_pending is an index on (delivered_at, id): both reads stay on it)
        row = await self._db.fetchone(
            "SELECT COUNT(*) AS n, MIN(created_at) AS oldest FROM outbox WHERE delivered_at IS NULL"
        )
        pending = int(row["n"]) if row is not None else 0
        oldest = row["oldest"] if row is not None else None
        return HostFigures(games, pending, None if oldest is None else float(oldest))
