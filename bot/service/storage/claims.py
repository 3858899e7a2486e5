"""Claims and coordination between several Parley processes on one database (issue 17).

A claim (migration 0007, table `claims`) names the process that runs a game's due clock step
(`CLOCK`) or delivers its events (`LANE`) and how long it may (`lease_until`). A live process
renews its leases; a dead one's run out and another process takes the work over. A claim is
one upsert that takes the row only if it is free, lapsed or already the claimant's (formerly
a read `FOR UPDATE SKIP LOCKED` and a write: three statements where one does, and a row is
held locked only for that one statement's commit, so a second claimant waits microseconds
rather than skipping): of two processes claiming at once one gets it, the other learns the
holder's lease and looks again then.

`Coordination` is the rest, at the level of the storage: an advisory lock per game (held
around every step that changes a game, adjudication included), a notice to the other
processes when a game's times changed (LISTEN/NOTIFY) and whether the database is shared at
all. SQLite is one process (its file lock): its claims are always free, its game locks are
the process's own, and nobody else is listening.

The shared rate limit (`rate_slots`) counts the requests every process started per slot of
time, and `rate_demand` (migration 0010) says how urgent each process's waiting request is,
so that priorities hold across processes (see `bot/service/delivery/ratelimit.py`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from bot.service.storage.connection import Store, Tx
from bot.service.storage.rows import OutboxRow, outbox_row

CLOCK = "clock"  # the due step of a game's current phase (open, remind, adjudicate)
# What `take_rate_turn` found: the turn taken, the slot full, or a more urgent process waiting.
TAKEN, FULL, OUTRANKED = 1, 0, -1
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


@dataclass(frozen=True, slots=True)
class PendingGame:
    game_id: int
    oldest: float  # when its oldest undelivered event was written
    held_until: float | None  # another process's lane lease on it, if live


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

    async def pending_games(self, owner: str, now: float) -> list[PendingGame]:
        """Every game with undelivered events: since when, and until when another process
        than `owner` holds its lane (None if none does). One read, no payloads."""
        ...

    async def take_rate_slot(self, slot: int, limit: int) -> bool:
        """One more request in `slot` if fewer than `limit` started in it."""
        ...

    async def take_rate_turn(
        self, slot: int, limit: int, *, owner: str, level: int, now: float, until: float
    ) -> int:
        """As `take_rate_slot`, for `owner` waiting at priority `level` (0 most urgent):
        TAKEN, FULL, or OUTRANKED when another process's live demand is more urgent (that
        process goes first). Posts `owner`'s demand (until `until`) either way."""
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
    """The claims statements (the same on both dialects)."""

    _db: Store | Tx

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
        # One statement when the claim is free, lapsed or already ours (the usual case);
        # a second read only to learn the holder's lease.
        taken = await tx.fetchone(
            "INSERT INTO claims (game_id, kind, claimed_by, lease_until, phase_id)"
            " VALUES (?,?,?,?, COALESCE(?, (SELECT current_phase_id FROM games WHERE id=?)))"
            " ON CONFLICT (game_id, kind) DO UPDATE SET claimed_by=excluded.claimed_by,"
            " lease_until=excluded.lease_until, phase_id=excluded.phase_id"
            " WHERE claims.claimed_by IS NULL OR claims.claimed_by=excluded.claimed_by"
            " OR claims.lease_until <= ? RETURNING game_id",
            (game_id, kind, owner, until, phase_id, game_id, now),
        )
        if taken is not None:
            return None
        row = await tx.fetchone(
            "SELECT claimed_by, lease_until FROM claims WHERE game_id=? AND kind=?",
            (game_id, kind),
        )
        if row is None:  # (released and dropped meanwhile: look again at once)
            return now
        return max(now, float(row["lease_until"]))

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

    async def pending_games(self, owner: str, now: float) -> list[PendingGame]:
        rows = await self._db.fetchall(
            "SELECT o.game_id, MIN(o.created_at) AS oldest, MAX(c.lease_until) AS held"
            " FROM outbox o LEFT JOIN claims c ON c.game_id = o.game_id AND c.kind = ?"
            " AND c.claimed_by IS NOT NULL AND c.claimed_by != ? AND c.lease_until > ?"
            " WHERE o.delivered_at IS NULL GROUP BY o.game_id",
            (LANE, owner, now),
        )
        return [
            PendingGame(
                int(r["game_id"]),
                float(r["oldest"]),
                None if r["held"] is None else float(r["held"]),
            )
            for r in rows
        ]

    async def take_rate_slot(self, slot: int, limit: int) -> bool:
        tx = self._tx()
        await tx.execute("INSERT OR IGNORE INTO rate_slots (slot, used) VALUES (?, 0)", (slot,))
        n = await tx.execute(
            "UPDATE rate_slots SET used = used + 1 WHERE slot = ? AND used < ?", (slot, limit)
        )
        return n > 0

    async def take_rate_turn(
        self, slot: int, limit: int, *, owner: str, level: int, now: float, until: float
    ) -> int:
        tx = self._tx()
        await tx.execute(
            "INSERT INTO rate_demand (owner, level, until) VALUES (?,?,?) ON CONFLICT (owner)"
            " DO UPDATE SET level=excluded.level, until=excluded.until",
            (owner, level, until),
        )
        above = await tx.fetchone(
            "SELECT owner FROM rate_demand WHERE owner != ? AND level < ? AND until > ? LIMIT 1",
            (owner, level, now),
        )
        if above is not None:
            return OUTRANKED
        return TAKEN if await self.take_rate_slot(slot, limit) else FULL

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
