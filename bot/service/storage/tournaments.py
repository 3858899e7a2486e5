"""The tournament statements (issue 15): tournaments, entries per round, rounds, tables and
marks (migration 0005), entrants' names (0019). `TournamentRepository` is their interface
(`Repository` inherits it); `TournamentStatements` is the SQLite implementation `SqliteRepo`
inherits (PostgreSQL runs the same SQL through its translation)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from bot.service.storage.connection import Store, Tx

ENTRY_FIELDS = ("preregistered_at", "registered_at", "checked_in_at")
_MARK_ENTRY = {  # spelt out whole: no SQL is built from a value
    "preregistered_at": "INSERT INTO tournament_entries (tournament_id, round_no, user_id,"
    " preregistered_at) VALUES (?,?,?,?) ON CONFLICT (tournament_id, round_no, user_id)"
    " DO UPDATE SET preregistered_at = excluded.preregistered_at",
    "registered_at": "INSERT INTO tournament_entries (tournament_id, round_no, user_id,"
    " registered_at) VALUES (?,?,?,?) ON CONFLICT (tournament_id, round_no, user_id)"
    " DO UPDATE SET registered_at = excluded.registered_at",
    "checked_in_at": "INSERT INTO tournament_entries (tournament_id, round_no, user_id,"
    " checked_in_at) VALUES (?,?,?,?) ON CONFLICT (tournament_id, round_no, user_id)"
    " DO UPDATE SET checked_in_at = excluded.checked_in_at",
}


@dataclass(frozen=True, slots=True)
class NewTournament:
    name: str
    director: str
    guild_id: str
    channel_id: str
    rules: str
    clock: str
    scoring: str
    aggregation: str
    lang: str
    gms_json: str
    keep_apart_json: str
    created_at: float


@dataclass(frozen=True, slots=True)
class TournamentRow:
    id: int
    name: str
    director: str
    guild_id: str
    channel_id: str
    rules: str
    clock: str
    scoring: str
    aggregation: str
    lang: str
    gms_json: str
    keep_apart_json: str
    status: str
    final_table: int | None
    final_winner: str | None
    created_at: float


@dataclass(frozen=True, slots=True)
class EntryRow:
    round_no: int
    user_id: str
    preregistered_at: float | None
    registered_at: float | None
    checked_in_at: float | None
    request: str | None


@dataclass(frozen=True, slots=True)
class RoundRow:
    round_no: int
    starts_at: float | None
    status: str
    seating_json: str | None
    started_at: float | None
    is_final: bool


@dataclass(frozen=True, slots=True)
class TableRow:
    round_no: int
    table_no: int
    variant: str
    seats_json: str
    game_id: int | None
    thread_id: str | None
    scores_json: str | None
    centers_json: str | None
    ended_at: float | None


@dataclass(frozen=True, slots=True)
class MarkRow:
    user_id: str
    kind: str  # penalty, absence, withdrawal, two_tables, latecomer
    round_no: int | None
    points: float | None
    reason: str
    at: float


def _f(value: Any) -> float | None:
    return None if value is None else float(value)


def _i(value: Any) -> int | None:
    return None if value is None else int(value)


class TournamentRepository(Protocol):
    """The statements on tournaments."""

    async def add_tournament(self, t: NewTournament) -> int: ...

    async def tournament(self, tournament_id: int) -> TournamentRow | None: ...

    async def tournament_ids(self, *, include_over: bool) -> list[int]: ...

    async def set_tournament_status(self, tournament_id: int, status: str) -> None: ...

    async def set_keep_apart(self, tournament_id: int, keep_apart_json: str) -> None: ...

    async def set_final(self, tournament_id: int, table_no: int | None, winner: str | None) -> None:
        """The final table's number, and its winner once known."""
        ...

    async def mark_entry(
        self, tournament_id: int, round_no: int, user: str, field: str, at: float | None
    ) -> None:
        """Set one of `ENTRY_FIELDS` of a player's entry for a round (created if new)."""
        ...

    async def set_request(
        self, tournament_id: int, round_no: int, user: str, request: str | None
    ) -> None: ...

    async def entries(self, tournament_id: int) -> list[EntryRow]: ...

    async def put_round(self, tournament_id: int, r: RoundRow) -> None:
        """Insert or replace a round."""
        ...

    async def rounds(self, tournament_id: int) -> list[RoundRow]: ...

    async def put_table(self, tournament_id: int, t: TableRow) -> None:
        """Insert or replace a table."""
        ...

    async def delete_tables(self, tournament_id: int, round_no: int) -> None:
        """A round's proposed tables (before it starts), to seat it again."""
        ...

    async def tables(self, tournament_id: int) -> list[TableRow]: ...

    async def table_of_game(self, game_id: int) -> tuple[int, int, int] | None:
        """(tournament, round, table) of a game played as a tournament table."""
        ...

    async def record_table_result(  # noqa: PLR0917 - the key and the result
        self,
        tournament_id: int,
        round_no: int,
        table_no: int,
        scores_json: str,
        centers_json: str,
        at: float,
    ) -> bool:
        """The table's score, once: False if it was already recorded."""
        ...

    async def add_mark(self, tournament_id: int, mark: MarkRow) -> None: ...

    async def delete_marks(
        self, tournament_id: int, kind: str, user: str, round_no: int | None = None
    ) -> None:
        """A player's marks of one kind (of one round, if given)."""
        ...

    async def marks(self, tournament_id: int) -> list[MarkRow]: ...

    async def set_display_name(self, tournament_id: int, user: str, name: str) -> None:
        """The entrant's display name when they enter (kept, the bot cannot look it up)."""
        ...

    async def set_director_name(self, tournament_id: int, user: str, name: str | None) -> None:
        """The name the director gives an entrant (None: their display name again)."""
        ...

    async def entrant_names(self, tournament_id: int) -> dict[str, str]:
        """user -> the name to show: the director's, else the display name (if any)."""
        ...


class TournamentStatements:
    """The SQLite statements (mixed into `SqliteRepo`, which provides `_db` and `_tx`)."""

    _db: Store | Tx

    def _tx(self) -> Tx:
        raise NotImplementedError  # SqliteRepo's

    async def add_tournament(self, t: NewTournament) -> int:
        return await self._tx().execute(
            "INSERT INTO tournaments (name, director, guild_id, channel_id, rules, clock,"
            " scoring, aggregation, lang, gms_json, keep_apart_json, status, created_at)"
            " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (
                t.name,
                t.director,
                t.guild_id,
                t.channel_id,
                t.rules,
                t.clock,
                t.scoring,
                t.aggregation,
                t.lang,
                t.gms_json,
                t.keep_apart_json,
                "open",
                t.created_at,
            ),
        )

    async def tournament(self, tournament_id: int) -> TournamentRow | None:
        r = await self._db.fetchone("SELECT * FROM tournaments WHERE id = ?", (tournament_id,))
        if r is None:
            return None
        return TournamentRow(
            int(r["id"]),
            r["name"],
            r["director"],
            r["guild_id"],
            r["channel_id"],
            r["rules"],
            r["clock"],
            r["scoring"],
            r["aggregation"],
            r["lang"],
            r["gms_json"],
            r["keep_apart_json"],
            r["status"],
            _i(r["final_table"]),
            r["final_winner"],
            float(r["created_at"]),
        )

    async def tournament_ids(self, *, include_over: bool) -> list[int]:
        rows = await self._db.fetchall(
            "SELECT id FROM tournaments WHERE (? OR status != 'over') ORDER BY id",
            (include_over,),
        )
        return [int(r["id"]) for r in rows]

    async def set_tournament_status(self, tournament_id: int, status: str) -> None:
        await self._tx().execute(
            "UPDATE tournaments SET status = ? WHERE id = ?", (status, tournament_id)
        )

    async def set_keep_apart(self, tournament_id: int, keep_apart_json: str) -> None:
        await self._tx().execute(
            "UPDATE tournaments SET keep_apart_json = ? WHERE id = ?",
            (keep_apart_json, tournament_id),
        )

    async def set_final(self, tournament_id: int, table_no: int | None, winner: str | None) -> None:
        await self._tx().execute(
            "UPDATE tournaments SET final_table = ?, final_winner = ? WHERE id = ?",
            (table_no, winner, tournament_id),
        )

    async def mark_entry(
        self, tournament_id: int, round_no: int, user: str, field: str, at: float | None
    ) -> None:
        sql = _MARK_ENTRY.get(field)
        if sql is None:
            raise ValueError(f"not an entry field: {field}")
        await self._tx().execute(sql, (tournament_id, round_no, user, at))

    async def set_request(
        self, tournament_id: int, round_no: int, user: str, request: str | None
    ) -> None:
        await self._tx().execute(
            "INSERT INTO tournament_entries (tournament_id, round_no, user_id, request)"
            " VALUES (?,?,?,?) ON CONFLICT (tournament_id, round_no, user_id)"
            " DO UPDATE SET request = excluded.request",
            (tournament_id, round_no, user, request),
        )

    async def entries(self, tournament_id: int) -> list[EntryRow]:
        rows = await self._db.fetchall(
            "SELECT * FROM tournament_entries WHERE tournament_id = ? ORDER BY round_no, user_id",
            (tournament_id,),
        )
        return [
            EntryRow(
                int(r["round_no"]),
                r["user_id"],
                _f(r["preregistered_at"]),
                _f(r["registered_at"]),
                _f(r["checked_in_at"]),
                r["request"],
            )
            for r in rows
        ]

    async def put_round(self, tournament_id: int, r: RoundRow) -> None:
        await self._tx().execute(
            "INSERT INTO tournament_rounds (tournament_id, round_no, starts_at, status,"
            " seating_json, started_at, is_final) VALUES (?,?,?,?,?,?,?)"
            " ON CONFLICT (tournament_id, round_no) DO UPDATE SET starts_at = excluded.starts_at,"
            " status = excluded.status, seating_json = excluded.seating_json,"
            " started_at = excluded.started_at, is_final = excluded.is_final",
            (
                tournament_id,
                r.round_no,
                r.starts_at,
                r.status,
                r.seating_json,
                r.started_at,
                int(r.is_final),
            ),
        )

    async def rounds(self, tournament_id: int) -> list[RoundRow]:
        rows = await self._db.fetchall(
            "SELECT * FROM tournament_rounds WHERE tournament_id = ? ORDER BY round_no",
            (tournament_id,),
        )
        return [
            RoundRow(
                int(r["round_no"]),
                _f(r["starts_at"]),
                r["status"],
                r["seating_json"],
                _f(r["started_at"]),
                bool(r["is_final"]),
            )
            for r in rows
        ]

    async def put_table(self, tournament_id: int, t: TableRow) -> None:
        await self._tx().execute(
            "INSERT INTO tournament_tables (tournament_id, round_no, table_no, variant,"
            " seats_json, game_id, thread_id, scores_json, centers_json, ended_at)"
            " VALUES (?,?,?,?,?,?,?,?,?,?) ON CONFLICT (tournament_id, round_no, table_no)"
            " DO UPDATE SET variant = excluded.variant, seats_json = excluded.seats_json,"
            " game_id = excluded.game_id, thread_id = excluded.thread_id,"
            " scores_json = excluded.scores_json, centers_json = excluded.centers_json,"
            " ended_at = excluded.ended_at",
            (
                tournament_id,
                t.round_no,
                t.table_no,
                t.variant,
                t.seats_json,
                t.game_id,
                t.thread_id,
                t.scores_json,
                t.centers_json,
                t.ended_at,
            ),
        )

    async def delete_tables(self, tournament_id: int, round_no: int) -> None:
        await self._tx().execute(
            "DELETE FROM tournament_tables WHERE tournament_id = ? AND round_no = ?"
            " AND game_id IS NULL",
            (tournament_id, round_no),
        )

    async def tables(self, tournament_id: int) -> list[TableRow]:
        rows = await self._db.fetchall(
            "SELECT * FROM tournament_tables WHERE tournament_id = ? ORDER BY round_no, table_no",
            (tournament_id,),
        )
        return [
            TableRow(
                int(r["round_no"]),
                int(r["table_no"]),
                r["variant"],
                r["seats_json"],
                _i(r["game_id"]),
                r["thread_id"],
                r["scores_json"],
                r["centers_json"],
                _f(r["ended_at"]),
            )
            for r in rows
        ]

    async def table_of_game(self, game_id: int) -> tuple[int, int, int] | None:
        r = await self._db.fetchone(
            "SELECT tournament_id, round_no, table_no FROM tournament_tables WHERE game_id = ?",
            (game_id,),
        )
        if r is None:
            return None
        return int(r["tournament_id"]), int(r["round_no"]), int(r["table_no"])

    async def record_table_result(  # noqa: PLR0917 - the key and the result
        self,
        tournament_id: int,
        round_no: int,
        table_no: int,
        scores_json: str,
        centers_json: str,
        at: float,
    ) -> bool:
        changed = await self._tx().execute(
            "UPDATE tournament_tables SET scores_json = ?, centers_json = ?, ended_at = ?"
            " WHERE tournament_id = ? AND round_no = ? AND table_no = ? AND scores_json IS NULL",
            (scores_json, centers_json, at, tournament_id, round_no, table_no),
        )
        return changed > 0

    async def add_mark(self, tournament_id: int, mark: MarkRow) -> None:
        await self._tx().execute(
            "INSERT INTO tournament_marks (tournament_id, user_id, kind, round_no, points,"
            " reason, at) VALUES (?,?,?,?,?,?,?)",
            (
                tournament_id,
                mark.user_id,
                mark.kind,
                mark.round_no,
                mark.points,
                mark.reason,
                mark.at,
            ),
        )

    async def delete_marks(
        self, tournament_id: int, kind: str, user: str, round_no: int | None = None
    ) -> None:
        if round_no is None:
            await self._tx().execute(
                "DELETE FROM tournament_marks WHERE tournament_id = ? AND kind = ? AND user_id = ?",
                (tournament_id, kind, user),
            )
            return
        await self._tx().execute(
            "DELETE FROM tournament_marks WHERE tournament_id = ? AND kind = ? AND user_id = ?"
            " AND round_no = ?",
            (tournament_id, kind, user, round_no),
        )

    async def marks(self, tournament_id: int) -> list[MarkRow]:
        rows = await self._db.fetchall(
            "SELECT * FROM tournament_marks WHERE tournament_id = ? ORDER BY at, user_id",
            (tournament_id,),
        )
        return [
            MarkRow(
                r["user_id"],
                r["kind"],
                _i(r["round_no"]),
                _f(r["points"]),
                r["reason"],
                float(r["at"]),
            )
            for r in rows
        ]

    async def set_display_name(self, tournament_id: int, user: str, name: str) -> None:
        await self._tx().execute(
            "INSERT INTO tournament_names (tournament_id, user_id, display_name) VALUES (?,?,?)"
            " ON CONFLICT (tournament_id, user_id) DO UPDATE"
            " SET display_name = excluded.display_name",
            (tournament_id, user, name),
        )

    async def set_director_name(self, tournament_id: int, user: str, name: str | None) -> None:
        await self._tx().execute(
            "INSERT INTO tournament_names (tournament_id, user_id, director_name) VALUES (?,?,?)"
            " ON CONFLICT (tournament_id, user_id) DO UPDATE"
            " SET director_name = excluded.director_name",
            (tournament_id, user, name),
        )

    async def entrant_names(self, tournament_id: int) -> dict[str, str]:
        rows = await self._db.fetchall(
            "SELECT user_id, display_name, director_name FROM tournament_names"
            " WHERE tournament_id = ? ORDER BY user_id",
            (tournament_id,),
        )
        out = {r["user_id"]: r["director_name"] or r["display_name"] for r in rows}
        return {user: name for user, name in out.items() if name}
