"""A tournament as read from storage in one go (`Snapshot`), and what the scoring core makes
of it: the tournament file (`tournament_input`, the form of `parley tournament score`) and
the standings by the tournament's rules."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from bot.core.tournament.model import (
    Absence,
    Final,
    Penalty,
    PlayerEntry,
    StandingRow,
    TableResult,
    TournamentError,
    TournamentInput,
    TwoTables,
    Withdrawal,
)
from bot.core.tournament.seating import PastTable
from bot.core.tournament.standings import standings as core_standings
from bot.service.storage.base import Repository
from bot.service.storage.tournaments import EntryRow, MarkRow, RoundRow, TableRow, TournamentRow
from bot.service.tournaments.texts import TournamentRefusedError


@dataclass(frozen=True, slots=True)
class Snapshot:
    row: TournamentRow
    entries: tuple[EntryRow, ...]
    rounds: tuple[RoundRow, ...]
    tables: tuple[TableRow, ...]
    marks: tuple[MarkRow, ...]
    # user -> the name people read (issue 35): the director's, else the display name kept
    # when the entrant entered; an entrant missing here is named by the bot's cache, or id.
    names: Mapping[str, str] = field(default_factory=dict)

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def lang(self) -> str:
        return self.row.lang

    def round(self, number: int) -> RoundRow | None:
        return next((r for r in self.rounds if r.round_no == number), None)

    def running(self) -> RoundRow | None:
        """The round being played (started, not all its tables over)."""
        return next((r for r in self.rounds if r.status == "running"), None)

    def next_round(self) -> int:
        """The round to register, check in and seat: the first not started."""
        started = [r.round_no for r in self.rounds if r.status in ("running", "done", "posted")]
        return max(started, default=0) + 1

    def tables_of(self, number: int) -> list[TableRow]:
        return [t for t in self.tables if t.round_no == number]

    def entries_of(self, number: int) -> list[EntryRow]:
        return [e for e in self.entries if e.round_no == number]

    def players(self) -> list[str]:
        """Everyone who entered the tournament, in the order they first appear."""
        seen: dict[str, None] = {}
        for e in self.entries:
            seen.setdefault(e.user_id, None)
        for t in self.tables:
            for p, _ in seats(t):
                seen.setdefault(p, None)
        return list(seen)

    def marks_of(self, kind: str) -> list[MarkRow]:
        return [m for m in self.marks if m.kind == kind]

    def gms(self) -> list[str]:
        return [str(g) for g in json.loads(self.row.gms_json)]

    def keep_apart(self) -> list[tuple[str, str]]:
        return [(str(a), str(b)) for a, b in json.loads(self.row.keep_apart_json)]


async def snapshot(repo: Repository, tournament_id: int) -> Snapshot:
    row = await repo.tournament(tournament_id)
    if row is None:
        raise TournamentRefusedError.of("no_tournament", None, id=tournament_id)
    return Snapshot(
        row,
        tuple(await repo.entries(tournament_id)),
        tuple(await repo.rounds(tournament_id)),
        tuple(await repo.tables(tournament_id)),
        tuple(await repo.marks(tournament_id)),
        MappingProxyType(await repo.entrant_names(tournament_id)),
    )


def seats(table: TableRow) -> list[tuple[str, str]]:
    """(player, power) of a table, in power order; power "" until a finalist has chosen."""
    return [(str(p), str(power)) for p, power in json.loads(table.seats_json)]


def scores(table: TableRow) -> dict[str, float] | None:
    return None if table.scores_json is None else dict(json.loads(table.scores_json))


def past_tables(snap: Snapshot) -> list[PastTable]:
    """The tables played and scored, for the seating (seed E: countries and opponents)."""
    out = []
    for t in snap.tables:
        found = scores(t)
        if found is not None:
            out.append(PastTable(t.round_no, dict(seats(t)), found))
    return out


def two_table_counts(snap: Snapshot, scored: dict[tuple[str, int], list[TableRow]]) -> list[Any]:
    """D: a doubler "will have to choose which of their two games ... must be taken into
    account": the choice recorded (`/tournament count`), else the better of the two."""
    out = []
    for m in snap.marks_of("two_tables"):
        if m.round_no is None:
            continue
        played = scored.get((m.user_id, m.round_no), [])
        if len(played) != 2:
            continue  # both tables not over yet
        chosen = m.reason if m.reason.isdigit() else ""
        numbers = [str(t.table_no) for t in played]
        if chosen not in numbers:
            best = max(played, key=lambda t: (scores(t) or {}).get(m.user_id, 0.0))
            chosen = str(best.table_no)
        out.append(TwoTables(m.user_id, m.round_no, chosen))
    return out


def tournament_input(snap: Snapshot) -> TournamentInput:
    """The tournament file of the rounds played so far (only tables that are over count)."""
    prereg: dict[str, set[int]] = defaultdict(set)
    for e in snap.entries:
        if e.preregistered_at is not None:
            prereg[e.user_id].add(e.round_no)
    players = tuple(PlayerEntry(p, frozenset(prereg[p])) for p in snap.players())
    results: list[TableResult] = []
    scored: dict[tuple[str, int], list[TableRow]] = defaultdict(list)
    for t in snap.tables:
        found = scores(t)
        if found is None:
            continue
        powers = {p: power for p, power in seats(t) if power}
        # D: a latecomer's "coefficient of (14-n)/14 applied to the score of his game"
        late = {
            m.user_id: float(m.points)
            for m in snap.marks_of("latecomer")
            if m.round_no == t.round_no and m.reason == str(t.table_no) and m.points is not None
        }
        results.append(
            TableResult(
                t.round_no,
                str(t.table_no),
                MappingProxyType(found),
                MappingProxyType(late),
                MappingProxyType(powers),
            )
        )
        for p in found:
            scored[(p, t.round_no)].append(t)
    rounds_scored = {r.round for r in results}
    final = None
    if snap.row.final_table is not None and snap.row.final_winner is not None:
        final = Final(str(snap.row.final_table), snap.row.final_winner)
    absences = tuple(
        Absence(m.user_id, m.round_no, m.reason == "registered")
        for m in snap.marks_of("absence")
        if m.round_no in rounds_scored
    )
    penalties = tuple(Penalty(m.user_id, m.points, m.reason) for m in snap.marks_of("penalty"))
    withdrawals = tuple(
        Withdrawal(m.user_id, m.round_no)
        for m in snap.marks_of("withdrawal")
        if m.round_no in rounds_scored
    )
    return TournamentInput(
        snap.row.aggregation,
        players,
        tuple(results),
        final,
        absences,
        penalties,
        withdrawals,
        tuple(two_table_counts(snap, scored)),
    )


def standings(snap: Snapshot) -> list[StandingRow]:
    try:
        return core_standings(tournament_input(snap))
    except TournamentError as exc:
        raise TournamentRefusedError.of("cannot_score", snap.lang, why=str(exc)) from None


def input_document(inp: TournamentInput) -> dict[str, Any]:
    """The tournament file as JSON (docs/formats.md, `parley tournament score`)."""
    by_round: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for t in inp.rounds:
        by_round[t.round].append(
            {
                "table": t.table,
                "scores": dict(t.scores),
                "coefficients": dict(t.coefficients),
                "powers": dict(t.powers),
            }
        )
    return {
        "rules": inp.rules,
        "players": [{"id": p.id, "preregistered": sorted(p.preregistered)} for p in inp.players],
        "rounds": [{"round": n, "tables": by_round[n]} for n in sorted(by_round)],
        "final": None
        if inp.final is None
        else {"table": inp.final.table, "winner": inp.final.winner},
        "absences": [
            {"player": a.player, "round": a.round, "registered": a.registered} for a in inp.absences
        ],
        "penalties": [
            {"player": p.player, "points": p.points, "reason": p.reason} for p in inp.penalties
        ],
        "withdrawals": [{"player": w.player, "round": w.round} for w in inp.withdrawals],
        "two_tables": [
            {"player": t.player, "round": t.round, "counts": t.counts} for t in inp.two_tables
        ],
    }
