"""The tournament file as frozen values, read from its JSON form with clear errors.

Players and tables are opaque string ids. The JSON form is the one of
`parley tournament score` (docs/formats.md).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any


class TournamentError(ValueError):
    """A tournament file that cannot be scored or seated; the message says what to fix."""


@dataclass(frozen=True, slots=True)
class PlayerEntry:
    id: str
    preregistered: frozenset[int]  # rounds announced by the day before (seed G)


@dataclass(frozen=True, slots=True)
class TableResult:
    round: int
    table: str
    scores: Mapping[str, float]  # player -> table score
    coefficients: Mapping[str, float]  # latecomers' (14-n)/14; 1 for everyone else
    powers: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))


@dataclass(frozen=True, slots=True)
class Final:
    table: str
    winner: str


@dataclass(frozen=True, slots=True)
class Absence:
    player: str
    round: int
    registered: bool  # registered and absent: -15 and the bonuses lost (seed D 4)


@dataclass(frozen=True, slots=True)
class Penalty:
    player: str
    points: float | None
    reason: str


@dataclass(frozen=True, slots=True)
class Withdrawal:
    player: str
    round: int


@dataclass(frozen=True, slots=True)
class TwoTables:
    player: str
    round: int
    counts: str  # the table the player chose to count


@dataclass(frozen=True, slots=True)
class TournamentInput:
    rules: str
    players: tuple[PlayerEntry, ...]
    rounds: tuple[TableResult, ...]
    final: Final | None
    absences: tuple[Absence, ...] = ()
    penalties: tuple[Penalty, ...] = ()
    withdrawals: tuple[Withdrawal, ...] = ()
    two_tables: tuple[TwoTables, ...] = ()

    @property
    def player_ids(self) -> tuple[str, ...]:
        return tuple(p.id for p in self.players)

    @property
    def round_numbers(self) -> tuple[int, ...]:
        return tuple(sorted({t.round for t in self.rounds}))


@dataclass(frozen=True, slots=True)
class StandingRow:
    rank: int  # 1-based; equal totals share a rank (1, 2, 2, 4)
    player: str
    total: float
    detail: Mapping[str, Any]


def ranked(
    totals: Mapping[str, float], details: Mapping[str, Mapping[str, Any]]
) -> list[StandingRow]:
    """Rows best first; equal totals share a rank, listed by player id."""
    order = sorted(totals, key=lambda p: (-totals[p], p))
    rows: list[StandingRow] = []
    for i, p in enumerate(order):
        rank = rows[-1].rank if rows and rows[-1].total == totals[p] else i + 1
        rows.append(StandingRow(rank, p, totals[p], MappingProxyType(dict(details[p]))))
    return rows


# --- reading the JSON form -------------------------------------------------------------


def _obj(raw: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(raw, dict):
        raise TournamentError(f"{where} must be an object")
    return raw


def _list(raw: Any, where: str) -> list[Any]:
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise TournamentError(f"{where} must be a list")
    return raw


def _str(raw: Any, where: str) -> str:
    if isinstance(raw, bool) or not isinstance(raw, (str, int)) or str(raw).strip() == "":
        raise TournamentError(f"{where} must be an id (a non-empty string)")
    return str(raw)


def _int(raw: Any, where: str, low: int = 1) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int) or raw < low:
        raise TournamentError(f"{where} must be a whole number >= {low}, not {raw!r}")
    return raw


def _num(raw: Any, where: str) -> float:
    if isinstance(raw, bool) or not isinstance(raw, (int, float)) or not math.isfinite(raw):
        raise TournamentError(f"{where} must be a number, not {raw!r}")
    return float(raw)


def _table(raw: Any, round_no: int, where: str) -> TableResult:
    doc = _obj(raw, where)
    table = _str(doc.get("table"), f"{where}.table")
    scores: dict[str, float] = {}
    for player, value in _obj(doc.get("scores"), f"{where}.scores").items():
        score = _num(value, f"{where}.scores.{player}")
        if score < 0:
            raise TournamentError(f"{where}.scores.{player}: a table score is never negative")
        scores[str(player)] = score
    coefficients: dict[str, float] = {}
    for player, value in _obj(doc.get("coefficients") or {}, f"{where}.coefficients").items():
        c = _num(value, f"{where}.coefficients.{player}")
        if not 0 < c <= 1:
            raise TournamentError(f"{where}.coefficients.{player} must be in (0, 1], not {c}")
        if player not in scores:
            raise TournamentError(f"{where}.coefficients.{player}: no score at this table")
        coefficients[str(player)] = c
    powers: dict[str, str] = {}
    for player, power in _obj(doc.get("powers") or {}, f"{where}.powers").items():
        if player not in scores:
            raise TournamentError(f"{where}.powers.{player}: no score at this table")
        powers[str(player)] = _str(power, f"{where}.powers.{player}").upper()
    if len(set(powers.values())) != len(powers):
        raise TournamentError(f"{where}.powers: a country is given twice")
    return TableResult(
        round_no,
        table,
        MappingProxyType(scores),
        MappingProxyType(coefficients),
        MappingProxyType(powers),
    )


def read_document(doc: Any) -> TournamentInput:
    """The tournament file (already JSON-decoded), checked: every error names its place."""
    top = _obj(doc, "the document")
    rules = _str(top.get("rules", "edc2023"), "rules")
    players: list[PlayerEntry] = []
    seen: set[str] = set()
    for i, raw in enumerate(_list(top.get("players"), "players")):
        entry = _obj(raw, f"players[{i}]")
        pid = _str(entry.get("id"), f"players[{i}].id")
        if pid in seen:
            raise TournamentError(f"players[{i}]: {pid} is listed twice")
        seen.add(pid)
        pre = frozenset(
            _int(r, f"players[{i}].preregistered")
            for r in _list(entry.get("preregistered"), f"players[{i}].preregistered")
        )
        players.append(PlayerEntry(pid, pre))
    tables: list[TableResult] = []
    table_ids: set[tuple[int, str]] = set()
    for i, raw in enumerate(_list(top.get("rounds"), "rounds")):
        rnd = _obj(raw, f"rounds[{i}]")
        n = _int(rnd.get("round"), f"rounds[{i}].round")
        for j, traw in enumerate(_list(rnd.get("tables"), f"rounds[{i}].tables")):
            t = _table(traw, n, f"rounds[{i}].tables[{j}]")
            if (n, t.table) in table_ids:
                raise TournamentError(f"round {n}: table {t.table} is given twice")
            table_ids.add((n, t.table))
            for p in t.scores:
                if p not in seen:
                    raise TournamentError(f"round {n}, table {t.table}: {p} is not in players")
            tables.append(t)
    final: Final | None = None
    if top.get("final") is not None:
        f = _obj(top["final"], "final")
        final = Final(_str(f.get("table"), "final.table"), _str(f.get("winner"), "final.winner"))

    def who(raw: Any, where: str) -> str:
        p = _str(raw, where)
        if p not in seen:
            raise TournamentError(f"{where}: {p} is not in players")
        return p

    absences = tuple(
        Absence(
            who(_obj(a, f"absences[{i}]").get("player"), f"absences[{i}].player"),
            _int(a.get("round"), f"absences[{i}].round"),
            bool(a.get("registered", False)),
        )
        for i, a in enumerate(_list(top.get("absences"), "absences"))
    )
    penalties = []
    for i, raw in enumerate(_list(top.get("penalties"), "penalties")):
        pen = _obj(raw, f"penalties[{i}]")
        pts = pen.get("points")
        penalties.append(
            Penalty(
                who(pen.get("player"), f"penalties[{i}].player"),
                None if pts is None else _num(pts, f"penalties[{i}].points"),
                _str(pen.get("reason"), f"penalties[{i}].reason"),
            )
        )
    withdrawals = tuple(
        Withdrawal(
            who(_obj(w, f"withdrawals[{i}]").get("player"), f"withdrawals[{i}].player"),
            _int(w.get("round"), f"withdrawals[{i}].round"),
        )
        for i, w in enumerate(_list(top.get("withdrawals"), "withdrawals"))
    )
    two = tuple(
        TwoTables(
            who(_obj(t, f"two_tables[{i}]").get("player"), f"two_tables[{i}].player"),
            _int(t.get("round"), f"two_tables[{i}].round"),
            _str(t.get("counts"), f"two_tables[{i}].counts"),
        )
        for i, t in enumerate(_list(top.get("two_tables"), "two_tables"))
    )
    return TournamentInput(
        rules, tuple(players), tuple(tables), final, absences, tuple(penalties), withdrawals, two
    )
