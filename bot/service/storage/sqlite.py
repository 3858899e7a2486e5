"""The repository on SQLite: every statement Parley runs against its tables.

`SqliteStorage` reads outside a transaction; `async with storage.tx() as tx:` gives the same
methods inside one `BEGIN IMMEDIATE` transaction (writes only there)."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from bot.service.storage.boards import BoardStatements
from bot.service.storage.claims import LocalCoordination, SqliteClaims
from bot.service.storage.connection import Store, Tx
from bot.service.storage.drafts import DraftStatements
from bot.service.storage.early import EarlyOrdersSql
from bot.service.storage.health import HealthStatements
from bot.service.storage.palettes import PaletteStatements
from bot.service.storage.rows import (
    AuditRow,
    DeliveryRow,
    GameRow,
    HistoryRow,
    NewGame,
    NewResult,
    OutboxRow,
    PhaseRow,
    PhaseSummary,
    PlayedPhase,
    ResultRow,
    SubmissionRow,
    outbox_row,
)
from bot.service.storage.tournaments import TournamentStatements


def _opt_float(value: Any) -> float | None:
    return None if value is None else float(value)


def _game(r: sqlite3.Row) -> GameRow:
    return GameRow(
        int(r["id"]),
        r["name"],
        r["gm"],
        r["variant"],
        r["rules"],
        r["clock_name"],
        r["clock_json"],
        r["lang"],
        r["status"],
        r["options_json"],
        r["meta_json"],
        float(r["created_at"]),
        _opt_float(r["started_at"]),
        _opt_float(r["paused_at"]),
        _opt_float(r["ended_at"]),
        r["end_reason"],
        bool(r["press_open"]),
        None if r["current_phase_id"] is None else int(r["current_phase_id"]),
    )


def phase_row(r: sqlite3.Row) -> PhaseRow:
    return PhaseRow(
        int(r["id"]),
        int(r["game_id"]),
        r["phase"],
        r["position_json"],
        r["status"],
        r["window"],
        _opt_float(r["opens_at"]),
        _opt_float(r["writing_at"]),
        _opt_float(r["deadline"]),
    )


def _submission(r: sqlite3.Row) -> SubmissionRow:
    return SubmissionRow(
        int(r["id"]),
        int(r["phase_id"]),
        r["power"],
        r["user_id"],
        r["kind"],
        r["text"],
        bool(r["accepted"]),
        r["orders_json"],
        r["reply_json"],
        float(r["submitted_at"]),
    )


def _result(r: sqlite3.Row) -> ResultRow:
    return ResultRow(
        int(r["phase_id"]),
        r["phase"],
        r["outcome_json"],
        r["orders_json"],
        r["png"],
        float(r["adjudicated_at"]),
    )


class SqliteRepo(
    TournamentStatements,
    SqliteClaims,
    EarlyOrdersSql,
    PaletteStatements,
    DraftStatements,
    BoardStatements,
    HealthStatements,
):
    """The statements, on the store (reads) or on one open transaction (reads and writes)."""

    def __init__(self, db: Store | Tx) -> None:
        self._db = db

    def _tx(self) -> Tx:
        if not isinstance(self._db, Tx):
            raise TypeError("writes go through `async with storage.tx() as tx`")
        return self._db

    # --- games ------------------------------------------------------------------------

    async def game(self, game_id: int) -> GameRow | None:
        row = await self._db.fetchone("SELECT * FROM games WHERE id = ?", (game_id,))
        return None if row is None else _game(row)

    async def game_ids(
        self, *, statuses: tuple[str, ...] = (), include_over: bool = True
    ) -> list[int]:
        """Games by id; `statuses` keeps only those, `include_over=False` leaves out ended ones."""
        sql = "SELECT id FROM games WHERE (? OR status != 'over')"
        params: list[Any] = [include_over]
        if statuses:
            sql += f" AND status IN ({','.join('?' * len(statuses))})"
            params += statuses
        rows = await self._db.fetchall(sql + " ORDER BY id", params)
        return [int(r["id"]) for r in rows]

    async def game_ids_of(self, user: str, *, include_over: bool) -> list[int]:
        """Games where `user` plays or is GM."""
        rows = await self._db.fetchall(
            "SELECT DISTINCT g.id FROM games g LEFT JOIN players p ON p.game_id = g.id"
            " WHERE (p.user_id = ? OR g.gm = ?) AND (? OR g.status != 'over') ORDER BY g.id",
            (user, user, include_over),
        )
        return [int(r["id"]) for r in rows]

    async def add_game(self, game: NewGame) -> int:
        """A forming game; without a name it is called `game-<id>`."""
        tx = self._tx()
        gid = await tx.execute(
            "INSERT INTO games (name, gm, variant, rules, clock_name, clock_json, lang,"
            " status, options_json, meta_json, created_at) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
            (
                game.name,
                game.gm,
                game.variant,
                game.rules,
                game.clock_name,
                game.clock_json,
                game.lang,
                "forming",
                game.options_json,
                game.meta_json,
                game.created_at,
            ),
        )
        if not game.name:
            await tx.execute("UPDATE games SET name = ? WHERE id = ?", (f"game-{gid}", gid))
        return gid

    async def start_game(self, game_id: int, at: float, phase_id: int) -> None:
        await self._tx().execute(
            "UPDATE games SET status='active', started_at=?, current_phase_id=? WHERE id=?",
            (at, phase_id, game_id),
        )

    async def set_current_phase(self, game_id: int, phase_id: int) -> None:
        await self._tx().execute(
            "UPDATE games SET current_phase_id=? WHERE id=?", (phase_id, game_id)
        )

    async def reopen_game(self, game_id: int, phase_id: int) -> None:
        """After a rollback: `phase_id` is current and an ended game runs again."""
        await self._tx().execute(
            "UPDATE games SET current_phase_id=?, status=CASE WHEN status='over'"
            " THEN 'active' ELSE status END, end_reason=NULL, ended_at=NULL WHERE id=?",
            (phase_id, game_id),
        )

    async def pause_game(self, game_id: int, at: float) -> None:
        await self._tx().execute(
            "UPDATE games SET status='paused', paused_at=? WHERE id=?", (at, game_id)
        )

    async def resume_game(self, game_id: int) -> None:
        await self._tx().execute(
            "UPDATE games SET status='active', paused_at=NULL WHERE id=?", (game_id,)
        )

    async def end_game(self, game_id: int, at: float, reason: str) -> None:
        await self._tx().execute(
            "UPDATE games SET status='over', ended_at=?, end_reason=? WHERE id=?",
            (at, reason, game_id),
        )

    async def set_press_open(self, game_id: int, press_open: bool) -> None:
        await self._tx().execute(
            "UPDATE games SET press_open = ? WHERE id = ?", (press_open, game_id)
        )

    async def set_meta_json(self, game_id: int, meta_json: str) -> None:
        await self._tx().execute(
            "UPDATE games SET meta_json = ? WHERE id = ?", (meta_json, game_id)
        )

    # --- players ----------------------------------------------------------------------

    async def players(self, game_id: int) -> dict[str, str]:
        """power -> user, by power."""
        rows = await self._db.fetchall(
            "SELECT power, user_id FROM players WHERE game_id = ? ORDER BY power", (game_id,)
        )
        return {r["power"]: r["user_id"] for r in rows}

    async def power_of(self, game_id: int, user: str) -> str | None:
        row = await self._db.fetchone(
            "SELECT power FROM players WHERE game_id = ? AND user_id = ?", (game_id, user)
        )
        return None if row is None else str(row["power"])

    async def user_of(self, game_id: int, power: str) -> str | None:
        row = await self._db.fetchone(
            "SELECT user_id FROM players WHERE game_id = ? AND power = ?", (game_id, power)
        )
        return None if row is None else str(row["user_id"])

    async def add_player(self, game_id: int, power: str, user: str, at: float) -> None:
        await self._tx().execute(
            "INSERT INTO players (game_id, power, user_id, joined_at) VALUES (?,?,?,?)",
            (game_id, power, user, at),
        )

    async def remove_user(self, game_id: int, user: str) -> None:
        await self._tx().execute(
            "DELETE FROM players WHERE game_id = ? AND user_id = ?", (game_id, user)
        )

    async def remove_power(self, game_id: int, power: str) -> None:
        await self._tx().execute(
            "DELETE FROM players WHERE game_id = ? AND power = ?", (game_id, power)
        )

    # --- phases -----------------------------------------------------------------------

    async def phase(self, phase_id: int) -> PhaseRow | None:
        row = await self._db.fetchone("SELECT * FROM phases WHERE id = ?", (phase_id,))
        return None if row is None else phase_row(row)

    async def current_phase(self, game_id: int) -> PhaseRow | None:
        row = await self._db.fetchone(
            "SELECT p.* FROM phases p JOIN games g ON g.current_phase_id = p.id WHERE g.id = ?",
            (game_id,),
        )
        return None if row is None else phase_row(row)

    async def last_done_before(self, game_id: int, phase_id: int) -> PhaseRow | None:
        """The latest adjudicated phase before `phase_id`."""
        row = await self._db.fetchone(
            "SELECT * FROM phases WHERE game_id=? AND id<? AND status='done'"
            " ORDER BY id DESC LIMIT 1",
            (game_id, phase_id),
        )
        return None if row is None else phase_row(row)

    async def line_of_play(self, game_id: int) -> list[tuple[str, str]]:
        """(phase, position_json) of the phases in the game's line of play, in order."""
        rows = await self._db.fetchall(
            "SELECT phase, position_json FROM phases WHERE game_id = ? AND status IN"
            " ('done', 'final', 'pending', 'open', 'adjudicating') ORDER BY id",
            (game_id,),
        )
        return [(r["phase"], r["position_json"]) for r in rows]

    async def phase_summaries(self, game_id: int) -> list[PhaseSummary]:
        rows = await self._db.fetchall(
            "SELECT p.id, p.phase, p.status, r.adjudicated_at FROM phases p"
            " LEFT JOIN results r ON r.phase_id = p.id WHERE p.game_id = ? ORDER BY p.id",
            (game_id,),
        )
        return [
            PhaseSummary(int(r["id"]), r["phase"], r["status"], _opt_float(r["adjudicated_at"]))
            for r in rows
        ]

    async def played_phases(self, game_id: int, *, adjudicated_only: bool) -> list[PlayedPhase]:
        """The game as played (rolled-back rows left out), with results; `adjudicated_only`:
        the done and skipped phases only."""
        select = (
            "SELECT p.id, p.phase, p.status, p.position_json, r.phase_id, r.outcome_json,"
            " r.orders_json, r.png, r.adjudicated_at FROM phases p"
            " LEFT JOIN results r ON r.phase_id = p.id WHERE p.game_id = ?"
        )
        if adjudicated_only:
            sql = select + " AND p.status IN ('done', 'skipped') ORDER BY p.id"
        else:
            sql = select + " AND p.status != 'rolled_back' ORDER BY p.id"
        rows = await self._db.fetchall(sql, (game_id,))
        out = []
        for r in rows:
            result = _result(r) if r["phase_id"] is not None else None
            if adjudicated_only and result is None:
                continue
            out.append(
                PlayedPhase(int(r["id"]), r["phase"], r["status"], r["position_json"], result)
            )
        return out

    async def add_phase(  # noqa: PLR0917 - the columns of a phase row
        self,
        game_id: int,
        phase: str,
        position_json: str,
        status: str,
        window: str,
        opens_at: float | None,
        at: float,
    ) -> int:
        return await self._tx().execute(
            "INSERT INTO phases (game_id, phase, position_json, status, window, opens_at,"
            " created_at) VALUES (?,?,?,?,?,?,?)",
            (game_id, phase, position_json, status, window, opens_at, at),
        )

    async def open_phase(
        self, phase_id: int, window: str, opens_at: float, writing_at: float, deadline: float
    ) -> bool:
        """pending -> open; False if it was not pending."""
        n = await self._tx().execute(
            "UPDATE phases SET status='open', window=?, opens_at=?, writing_at=?,"
            " deadline=? WHERE id=? AND status='pending'",
            (window, opens_at, writing_at, deadline, phase_id),
        )
        return n > 0

    async def start_writing(self, phase_id: int) -> bool:
        """negotiation -> writing in an open phase; False if it was not."""
        n = await self._tx().execute(
            "UPDATE phases SET window='writing' WHERE id=? AND window='negotiation'"
            " AND status='open'",
            (phase_id,),
        )
        return n > 0

    async def close_phase(self, phase_id: int, at: float) -> None:
        """Orders frozen: the phase is to be adjudicated."""
        await self._tx().execute(
            "UPDATE phases SET status='adjudicating', window='closed', closed_at=? WHERE id=?",
            (at, phase_id),
        )

    async def mark_phase_done(self, phase_id: int) -> None:
        await self._tx().execute("UPDATE phases SET status='done' WHERE id=?", (phase_id,))

    async def mark_phase_final(self, phase_id: int) -> None:
        """The game ended in this phase (unless it was already adjudicated)."""
        await self._tx().execute(
            "UPDATE phases SET status='final', window='closed' WHERE id=?"
            " AND status IN ('pending', 'open', 'adjudicating')",
            (phase_id,),
        )

    async def roll_back_from(self, game_id: int, phase_id: int) -> None:
        await self._tx().execute(
            "UPDATE phases SET status='rolled_back', window='closed' WHERE game_id=? AND id>=?",
            (game_id, phase_id),
        )

    async def deadline_now(self, phase_id: int, at: float) -> None:
        """Everyone is ready: the open phase's deadline is now."""
        await self._tx().execute(
            "UPDATE phases SET deadline = ?, writing_at = MIN(writing_at, ?)"
            " WHERE id = ? AND status = 'open'",
            (at, at, phase_id),
        )

    async def set_opens_at(self, phase_id: int, at: float) -> None:
        await self._tx().execute("UPDATE phases SET opens_at=? WHERE id=?", (at, phase_id))

    async def set_position(self, phase_id: int, position_json: str) -> None:
        await self._tx().execute(
            "UPDATE phases SET position_json=? WHERE id=? AND status IN ('pending', 'open')",
            (position_json, phase_id),
        )

    async def shift_phase(self, phase_id: int, seconds: float) -> None:
        """Every time of the phase moves by `seconds` (a resumed pause)."""
        await self._tx().execute(
            "UPDATE phases SET opens_at=opens_at+?, writing_at=writing_at+?,"
            " deadline=deadline+? WHERE id=?",
            (seconds, seconds, seconds, phase_id),
        )

    async def extend_phase(self, phase_id: int, seconds: float, window: str) -> None:
        """The current window gets `seconds` more: "pending" (reading), "negotiation" or
        "writing"."""
        if window == "pending":
            sql = "UPDATE phases SET opens_at=opens_at+? WHERE id=?"
            params: tuple[Any, ...] = (seconds, phase_id)
        elif window == "negotiation":
            sql = "UPDATE phases SET writing_at=writing_at+?, deadline=deadline+? WHERE id=?"
            params = (seconds, seconds, phase_id)
        else:
            sql = "UPDATE phases SET deadline=deadline+? WHERE id=?"
            params = (seconds, phase_id)
        await self._tx().execute(sql, params)

    # --- submissions and ready marks --------------------------------------------------

    async def standing(self, phase_id: int) -> list[SubmissionRow]:
        """The latest accepted submission of each power in a phase.

        Index seeks only (issue 18: a submit's cost must not grow with the phase's history):
        the powers one by one (a skip scan of `submissions_phase`), each one's newest accepted
        row (`submissions_standing`), then those rows by id, a second statement so that no
        planner joins the whole table to a guessed number of powers."""
        found = await self._db.fetchall(
            "WITH RECURSIVE p(power) AS ("
            " SELECT MIN(power) FROM submissions WHERE phase_id = ?"
            " UNION ALL SELECT (SELECT MIN(power) FROM submissions"
            "  WHERE phase_id = ? AND power > p.power) FROM p WHERE p.power IS NOT NULL)"
            " SELECT (SELECT id FROM submissions WHERE phase_id = ? AND power = p.power"
            "  AND accepted = 1 ORDER BY id DESC LIMIT 1) AS id FROM p",
            (phase_id, phase_id, phase_id),
        )
        ids = [int(r["id"]) for r in found if r["id"] is not None]
        if not ids:
            return []
        marks = ",".join("?" * len(ids))  # placeholders only: the ids are parameters
        rows = await self._db.fetchall(
            f"SELECT * FROM submissions WHERE id IN ({marks}) ORDER BY id",  # noqa: S608
            ids,
        )
        return [_submission(r) for r in rows]

    async def add_submission(  # noqa: PLR0917 - the columns of a submission row
        self,
        phase_id: int,
        power: str,
        user: str,
        kind: str,
        text: str,
        accepted: bool,
        orders_json: str,
        reply_json: str,
        at: float,
    ) -> int:
        return await self._tx().execute(
            "INSERT INTO submissions (phase_id, power, user_id, kind, text, accepted,"
            " orders_json, reply_json, submitted_at) VALUES (?,?,?,?,?,?,?,?,?)",
            (phase_id, power, user, kind, text, int(accepted), orders_json, reply_json, at),
        )

    async def submissions_of_game(self, game_id: int) -> list[HistoryRow]:
        rows = await self._db.fetchall(
            "SELECT s.*, p.phase, EXISTS (SELECT 1 FROM results r WHERE r.phase_id = p.id)"
            " AS adjudicated FROM submissions s"
            " JOIN phases p ON p.id = s.phase_id WHERE p.game_id = ? ORDER BY s.id",
            (game_id,),
        )
        return [HistoryRow(_submission(r), r["phase"], bool(r["adjudicated"])) for r in rows]

    async def ready_powers(self, phase_id: int) -> list[str]:
        rows = await self._db.fetchall(
            "SELECT power FROM ready WHERE phase_id = ? ORDER BY power", (phase_id,)
        )
        return [r["power"] for r in rows]

    async def set_ready(self, phase_id: int, power: str, at: float | None) -> None:
        """Mark `power` ready at `at`, or not ready (None)."""
        if at is None:
            await self._tx().execute(
                "DELETE FROM ready WHERE phase_id = ? AND power = ?", (phase_id, power)
            )
        else:
            await self._tx().execute(
                "INSERT OR REPLACE INTO ready (phase_id, power, at) VALUES (?,?,?)",
                (phase_id, power, at),
            )

    # --- results ----------------------------------------------------------------------

    async def result(self, game_id: int, phase_id: int | None) -> ResultRow | None:
        """The results of a phase of this game, or (None) of its latest adjudicated phase."""
        if phase_id is None:
            row = await self._db.fetchone(
                "SELECT r.*, p.phase FROM results r JOIN phases p ON p.id = r.phase_id"
                " WHERE p.game_id = ? AND p.status = 'done' ORDER BY r.phase_id DESC LIMIT 1",
                (game_id,),
            )
        else:
            row = await self._db.fetchone(
                "SELECT r.*, p.phase FROM results r JOIN phases p ON p.id = r.phase_id"
                " WHERE p.game_id = ? AND r.phase_id = ?",
                (game_id, phase_id),
            )
        return None if row is None else _result(row)

    async def add_result(self, result: NewResult) -> None:
        await self._tx().execute(
            "INSERT INTO results (phase_id, outcome_json, orders_json, png, adjudicated_at,"
            " compute_seconds) VALUES (?,?,?,?,?,?)",
            (
                result.phase_id,
                result.outcome_json,
                result.orders_json,
                result.png,
                result.adjudicated_at,
                result.compute_seconds,
            ),
        )

    # --- outbox -----------------------------------------------------------------------

    async def add_event(  # noqa: PLR0917 - the columns of an outbox row
        self,
        key: str,
        game_id: int,
        kind: str,
        payload_json: str,
        phase_id: int | None,
        at: float,
        delivered_at: float | None = None,
    ) -> None:
        """Once per key (a repeat is ignored); `delivered_at`: recorded as already handled."""
        await self._tx().execute(
            "INSERT OR IGNORE INTO outbox (key, game_id, kind, payload_json, phase_id,"
            " created_at, delivered_at) VALUES (?,?,?,?,?,?,?)",
            (key, game_id, kind, payload_json, phase_id, at, delivered_at),
        )

    async def pending_events(self) -> list[OutboxRow]:
        rows = await self._db.fetchall(
            "SELECT * FROM outbox WHERE delivered_at IS NULL ORDER BY id"
        )
        return [outbox_row(r) for r in rows]

    async def has_pending_events(self) -> bool:
        row = await self._db.fetchone("SELECT 1 FROM outbox WHERE delivered_at IS NULL LIMIT 1")
        return row is not None

    async def event_keys(self, game_id: int, phase_id: int, kind: str) -> set[str]:
        rows = await self._db.fetchall(
            "SELECT key FROM outbox WHERE game_id = ? AND phase_id = ? AND kind = ?",
            (game_id, phase_id, kind),
        )
        return {r["key"] for r in rows}

    async def event_payload(self, key: str) -> str | None:
        row = await self._db.fetchone("SELECT payload_json FROM outbox WHERE key = ?", (key,))
        return None if row is None else str(row["payload_json"])

    async def count_attempt(self, event_id: int) -> None:
        await self._tx().execute(
            "UPDATE outbox SET attempts = attempts + 1 WHERE id = ?", (event_id,)
        )

    async def mark_delivered(self, event_id: int, at: float) -> None:
        await self._tx().execute("UPDATE outbox SET delivered_at=? WHERE id=?", (at, event_id))

    # --- deliveries per (event, destination) -------------------------------------------

    async def begin_delivery(
        self, event_id: int, dest: str, game_id: int, after: str | None, at: float
    ) -> bool:
        """Record that `event_id` is being posted to `dest`; False if it already was."""
        n = await self._tx().execute(
            "INSERT OR IGNORE INTO deliveries (event_id, dest, game_id, after, started_at)"
            " VALUES (?,?,?,?,?)",
            (event_id, dest, game_id, after, at),
        )
        return n > 0

    async def delivery(self, event_id: int, dest: str) -> DeliveryRow | None:
        row = await self._db.fetchone(
            "SELECT after, delivered_at FROM deliveries WHERE event_id=? AND dest=?",
            (event_id, dest),
        )
        if row is None:
            return None
        parts = await self._db.fetchall(
            "SELECT message_id FROM delivered_messages WHERE event_id=? AND dest=? ORDER BY part",
            (event_id, dest),
        )
        ids = tuple(str(p["message_id"]) for p in parts)
        return DeliveryRow(event_id, dest, row["after"], ids, row["delivered_at"] is not None)

    async def record_post(  # noqa: PLR0917 - the columns of a posted message
        self, event_id: int, dest: str, part: int, message_id: str, at: float, last: bool
    ) -> None:
        """One posted message; `last` also marks the destination delivered."""
        tx = self._tx()
        await tx.execute(
            "INSERT OR REPLACE INTO delivered_messages (event_id, dest, part, message_id,"
            " posted_at) VALUES (?,?,?,?,?)",
            (event_id, dest, part, message_id, at),
        )
        if last:
            await tx.execute(
                "UPDATE deliveries SET delivered_at=? WHERE event_id=? AND dest=?",
                (at, event_id, dest),
            )

    async def claimed_messages(self, message_ids: list[str]) -> set[str]:
        """Those of `message_ids` recorded for some delivery."""
        if not message_ids:
            return set()
        marks = ",".join("?" * len(message_ids))
        rows = await self._db.fetchall(
            f"SELECT message_id FROM delivered_messages WHERE message_id IN ({marks})",  # noqa: S608
            message_ids,
        )
        return {str(r["message_id"]) for r in rows}

    async def delivery_dests(self, event_id: int) -> list[str]:
        """The destinations of an event, in the order they were begun."""
        rows = await self._db.fetchall(
            "SELECT dest FROM deliveries WHERE event_id=? ORDER BY started_at, rowid", (event_id,)
        )
        return [r["dest"] for r in rows]

    # --- audit ------------------------------------------------------------------------

    async def add_audit(
        self, game_id: int, at: float, actor: str, action: str, detail_json: str
    ) -> int:
        return await self._tx().execute(
            "INSERT INTO audit (game_id, at, actor, action, detail_json) VALUES (?,?,?,?,?)",
            (game_id, at, actor, action, detail_json),
        )

    async def audit(self, game_id: int) -> list[AuditRow]:
        rows = await self._db.fetchall(
            "SELECT * FROM audit WHERE game_id = ? ORDER BY id", (game_id,)
        )
        return [
            AuditRow(int(r["id"]), float(r["at"]), r["actor"], r["action"], r["detail_json"])
            for r in rows
        ]

    # --- votes ------------------------------------------------------------------------

    async def votebook(self, game_id: int) -> str | None:
        """The game's vote book state (JSON), if it has one."""
        row = await self._db.fetchone(
            "SELECT state_json FROM votebooks WHERE game_id = ?", (game_id,)
        )
        return None if row is None else str(row["state_json"])

    async def save_votebook(self, game_id: int, state_json: str, at: float) -> None:
        await self._tx().execute(
            "INSERT OR REPLACE INTO votebooks (game_id, state_json, updated_at) VALUES (?,?,?)",
            (game_id, state_json, at),
        )


class SqliteStorage(SqliteRepo, LocalCoordination):
    """The repository on one SQLite file (see `connection.Store` for the file's checks)."""

    def __init__(self, store: Store) -> None:
        super().__init__(store)
        self.store = store  # the connection itself: tests and maintenance only

    @classmethod
    async def open(
        cls, path: str | os.PathLike[str] | None = None, *, init: bool = False
    ) -> SqliteStorage:
        return cls(await Store.open(path, init=init))

    @property
    def path(self) -> Path:
        return self.store.path

    @asynccontextmanager
    async def tx(self, *, durable: bool = True) -> AsyncIterator[SqliteRepo]:
        """One transaction; `durable=False` see `Store.tx`."""
        async with self.store.tx(durable=durable) as tx:
            yield SqliteRepo(tx)

    async def close(self) -> None:
        await self.store.close()
