"""Claims and coordination between several Parley processes on one database (issue 17).

A claim (migration 0007, table `claims`) names the process that runs a game's due clock step
(`CLOCK`) or delivers its events (`LANE`) and how long it may (`lease_until`). A live process
renews its leases; a dead one's run out and another process takes the work over. On
PostgreSQL the row is read `FOR UPDATE SKIP LOCKED`: two processes claiming the same game at
once never wait on each other, one gets it and the other looks again later.

`Coordination` is the rest, at the level of the storage: an advisory lock per game (held
around every step that changes a game, adjudication included), a notice to the other
processes when a game's times changed (LISTEN/NOTIFY) and whether the database is shared at
all. SQLite is one process (its file lock): its claims are always free, its game locks are
the process's own, and nobody else is listening.

The shared rate limit (`rate_slots`) counts the requests every process started per slot of
time (see `bot/discord_app/pacing.py`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from bot.service.storage.connection import Store, Tx
from bot.service.storage.rows import OutboxRow, outbox_row

CLOCK = "clock"  # the due step of a game's current phase (open, remind, adjudicate)
LANE = "lane"  # the delivery of a game's events, in order

# (game id, the announcing process, when the game's clock is next due: None if never)
GameChanged = Callable[[int, str, float | None], None]


@dataclass(frozen=True, slots=True)
class ClaimRow:
    game_id: int
    kind: str
    claimed_by: str | None
    lease_until: float
    phase_id: int | None


class ClaimsRepository(Protocol):
    """The statements on claims and rate slots (in a transaction, but for reads)."""

    async def claim(
        self,
        game_id: int,
        kind: str,
        owner: str,
        *,
        now: float,
        until: float,
        phase_id: int | None = None,
    ) -> float | None:
        """Take (game, kind) for `owner` until `until` if it is free, its lease ran out or it
        is already `owner`'s: None. Else when to look again (the holder's lease end, or
        `now` when another process is taking it this instant)."""
        ...

    async def release_claim(self, game_id: int, kind: str, owner: str) -> None: ...

    async def renew_claims(self, owner: str, until: float) -> int:
        """Every claim `owner` holds runs until `until`; how many."""
        ...

    async def claim_of(self, game_id: int, kind: str) -> ClaimRow | None: ...

    async def held_elsewhere(self, kind: str, owner: str, now: float) -> dict[int, float]:
        """game id -> lease end, for the live `kind` claims of processes other than `owner`."""
        ...

    async def pending_events_of(self, game_id: int) -> list[OutboxRow]:
        """This game's undelivered events, in order."""
        ...

    async def take_rate_slot(self, slot: int, limit: int) -> bool:
        """One more request in `slot` if fewer than `limit` started in it."""
        ...

    async def drop_rate_slots(self, before: int) -> None: ...


class Coordination(Protocol):
    """What several processes on one database need besides rows (see the module docstring)."""

    @property
    def shared(self) -> bool:
        """True when other processes may use the same database (PostgreSQL)."""
        ...

    async def lock_game(self, game_id: int) -> bool:
        """Try to take this game's lock for this process; False if another process has it."""
        ...

    async def unlock_game(self, game_id: int) -> None: ...

    async def announce(self, game_id: int, sender: str, due: float | None) -> None:
        """Tell the other processes that this game's times or settings changed, and when
        its clock is next due now (they need not read it again)."""
        ...

    async def listen(self, on_change: GameChanged) -> None:
        """Call `on_change` for every announcement (this process's own included)."""
        ...


class SqliteClaims:
    """The claims statements (SQLite's; PostgreSQL adds `FOR UPDATE SKIP LOCKED`)."""

    _db: Store | Tx
    _LOCK_ROW = ""  # how a claim row is read: PostgreSQL locks it, skipping a locked one

    def _tx(self) -> Tx:
        raise NotImplementedError  # (SqliteRepo's)

    async def claim(
        self,
        game_id: int,
        kind: str,
        owner: str,
        *,
        now: float,
        until: float,
        phase_id: int | None = None,
    ) -> float | None:
        tx = self._tx()
        await tx.execute(
            "INSERT OR IGNORE INTO claims (game_id, kind, lease_until) VALUES (?,?,0)",
            (game_id, kind),
        )
        row = await tx.fetchone(
            "SELECT claimed_by, lease_until FROM claims WHERE game_id=? AND kind=?"  # noqa: S608
            + self._LOCK_ROW,  # (a constant of the class)
            (game_id, kind),
        )
        if row is None:  # another process is claiming it right now
            return now
        holder, lease = row["claimed_by"], float(row["lease_until"])
        if holder not in (None, owner) and lease > now:
            return lease
        await tx.execute(
            "UPDATE claims SET claimed_by=?, lease_until=?,"
            " phase_id=COALESCE(?, (SELECT current_phase_id FROM games WHERE id=?))"
            " WHERE game_id=? AND kind=?",
            (owner, until, phase_id, game_id, game_id, kind),
        )
        return None

    async def release_claim(self, game_id: int, kind: str, owner: str) -> None:
        await self._tx().execute(
            "UPDATE claims SET claimed_by=NULL, lease_until=0"
            " WHERE game_id=? AND kind=? AND claimed_by=?",
            (game_id, kind, owner),
        )

    async def renew_claims(self, owner: str, until: float) -> int:
        return await self._tx().execute(
            "UPDATE claims SET lease_until=? WHERE claimed_by=?", (until, owner)
        )

    async def claim_of(self, game_id: int, kind: str) -> ClaimRow | None:
        row = await self._db.fetchone(
            "SELECT * FROM claims WHERE game_id=? AND kind=?", (game_id, kind)
        )
        if row is None:
            return None
        phase = row["phase_id"]
        return ClaimRow(
            int(row["game_id"]),
            str(row["kind"]),
            row["claimed_by"],
            float(row["lease_until"]),
            None if phase is None else int(phase),
        )

    async def held_elsewhere(self, kind: str, owner: str, now: float) -> dict[int, float]:
        rows = await self._db.fetchall(
            "SELECT game_id, lease_until FROM claims WHERE kind=? AND claimed_by IS NOT NULL"
            " AND claimed_by != ? AND lease_until > ?",
            (kind, owner, now),
        )
        return {int(r["game_id"]): float(r["lease_until"]) for r in rows}

    async def pending_events_of(self, game_id: int) -> list[OutboxRow]:
        rows = await self._db.fetchall(
            "SELECT * FROM outbox WHERE game_id = ? AND delivered_at IS NULL ORDER BY id",
            (game_id,),
        )
        return [outbox_row(r) for r in rows]

    async def take_rate_slot(self, slot: int, limit: int) -> bool:
        tx = self._tx()
        await tx.execute("INSERT OR IGNORE INTO rate_slots (slot, used) VALUES (?, 0)", (slot,))
        n = await tx.execute(
            "UPDATE rate_slots SET used = used + 1 WHERE slot = ? AND used < ?", (slot, limit)
        )
        return n > 0

    async def drop_rate_slots(self, before: int) -> None:
        await self._tx().execute("DELETE FROM rate_slots WHERE slot < ?", (before,))


class LocalCoordination:
    """One process (SQLite): nothing to coordinate with."""

    @property
    def shared(self) -> bool:
        return False

    async def lock_game(self, game_id: int) -> bool:  # noqa: ARG002
        return True

    async def unlock_game(self, game_id: int) -> None:  # noqa: ARG002
        return None

    async def announce(self, game_id: int, sender: str, due: float | None) -> None:  # noqa: ARG002
        return None

    async def listen(self, on_change: GameChanged) -> None:  # noqa: ARG002
        return None
