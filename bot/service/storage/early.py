"""Orders sent early for a later retreat or adjustment phase (house II(5), the EDC Fall
retreat window that also takes the Winter adjustments): their rows and statements."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from bot.service.storage.connection import Store, Tx


@dataclass(frozen=True, slots=True)
class EarlyRow:
    id: int
    game_id: int
    phase: str  # the phase it is for, e.g. "W1901A"
    power: str
    user: str
    text: str
    submitted_at: float


class EarlyOrdersRepo(Protocol):
    async def add_early_orders(  # noqa: PLR0917 - the columns of an early set
        self, game_id: int, phase: str, power: str, user: str, text: str, at: float
    ) -> int:
        """Keep a set sent for the later phase `phase`, as written."""
        ...

    async def early_orders(self, game_id: int, phases: tuple[str, ...]) -> list[EarlyRow]:
        """The latest set not yet applied of each power for any of `phases` (one or two)."""
        ...

    async def mark_early_applied(
        self, game_id: int, phases: tuple[str, ...], power: str, at: float, submission: int | None
    ) -> None:
        """Every set of `power` for `phases` not yet applied is now applied (read at `at`)."""
        ...


class EarlyOrdersSql:
    """The statements, for SqliteRepo (and PgRepo through it)."""

    _db: Store | Tx

    def _tx(self) -> Tx:
        raise NotImplementedError  # SqliteRepo's

    async def add_early_orders(  # noqa: PLR0917
        self, game_id: int, phase: str, power: str, user: str, text: str, at: float
    ) -> int:
        return await self._tx().execute(
            "INSERT INTO early_orders (game_id, phase, power, user_id, text, submitted_at)"
            " VALUES (?,?,?,?,?,?)",
            (game_id, phase, power, user, text, at),
        )

    async def early_orders(self, game_id: int, phases: tuple[str, ...]) -> list[EarlyRow]:
        one, two = _two(phases)
        rows = await self._db.fetchall(
            "SELECT * FROM early_orders WHERE id IN (SELECT MAX(id) FROM early_orders"
            " WHERE game_id = ? AND applied_at IS NULL AND phase IN (?, ?)"
            " GROUP BY power) ORDER BY power",
            (game_id, one, two),
        )
        return [
            EarlyRow(
                int(r["id"]),
                int(r["game_id"]),
                r["phase"],
                r["power"],
                r["user_id"],
                r["text"],
                float(r["submitted_at"]),
            )
            for r in rows
        ]

    async def mark_early_applied(
        self, game_id: int, phases: tuple[str, ...], power: str, at: float, submission: int | None
    ) -> None:
        one, two = _two(phases)
        await self._tx().execute(
            "UPDATE early_orders SET applied_at = ?, submission_id = ? WHERE game_id = ?"
            " AND power = ? AND applied_at IS NULL AND phase IN (?, ?)",
            (at, submission, game_id, power, one, two),
        )


def _two(phases: tuple[str, ...]) -> tuple[str, str]:
    """One or two phase names as two (a phase reads its own sets and at most one other's)."""
    if not 1 <= len(phases) <= 2:
        raise ValueError(f"one or two phases, not {phases!r}")
    return phases[0], phases[-1]
