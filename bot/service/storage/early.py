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

    async def mark_early_applied(  # noqa: PLR0917 - what was read, when, for which phase
        self,
        game_id: int,
        phases: tuple[str, ...],
        power: str,
        at: float,
        submission: int | None,
        phase_id: int,
    ) -> None:
        """Every set of `power` for `phases` not yet applied is now applied (read at `at`
        for the phase row `phase_id`)."""
        ...

    async def early_submissions(self, game_id: int, after_phase_id: int) -> set[int]:
        """The submissions that early sets became in the phases after `after_phase_id`."""
        ...

    async def reopen_early_orders(self, game_id: int, after_phase_id: int) -> None:
        """The sets read for the phases after `after_phase_id` wait again (a rollback)."""
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

    async def mark_early_applied(  # noqa: PLR0917
        self,
        game_id: int,
        phases: tuple[str, ...],
        power: str,
        at: float,
        submission: int | None,
        phase_id: int,
    ) -> None:
        one, two = _two(phases)
        await self._tx().execute(
            "UPDATE early_orders SET applied_at = ?, submission_id = ?, applied_phase_id = ?"
            " WHERE game_id = ? AND power = ? AND applied_at IS NULL AND phase IN (?, ?)",
            (at, submission, phase_id, game_id, power, one, two),
        )

    async def early_submissions(self, game_id: int, after_phase_id: int) -> set[int]:
        rows = await self._db.fetchall(
            "SELECT submission_id FROM early_orders WHERE game_id = ? AND applied_phase_id > ?"
            " AND submission_id IS NOT NULL",
            (game_id, after_phase_id),
        )
        return {int(r["submission_id"]) for r in rows}

    async def reopen_early_orders(self, game_id: int, after_phase_id: int) -> None:
        tx = self._tx()
        # A W set read in the Fall retreats left its Winter part as a new set (same power,
        # same time sent, a later id): reading the W set again writes that part again.
        await tx.execute(
            "DELETE FROM early_orders WHERE game_id = ? AND id IN (SELECT d.id"
            " FROM early_orders d JOIN early_orders o ON o.game_id = d.game_id"
            " AND o.power = d.power AND o.submitted_at = d.submitted_at AND o.id < d.id"
            " WHERE o.game_id = ? AND o.applied_phase_id > ?)",
            (game_id, game_id, after_phase_id),
        )
        await tx.execute(
            "UPDATE early_orders SET applied_at = NULL, submission_id = NULL,"
            " applied_phase_id = NULL WHERE game_id = ? AND applied_phase_id > ?",
            (game_id, after_phase_id),
        )


def _two(phases: tuple[str, ...]) -> tuple[str, str]:
    """One or two phase names as two (a phase reads its own sets and at most one other's)."""
    if not 1 <= len(phases) <= 2:
        raise ValueError(f"one or two phases, not {phases!r}")
    return phases[0], phases[-1]
