"""A tournament's standings and its export, as JSON and CSV (docs/formats.md, "Tournament
export"). The CSV of tables has one row per seat (round, table, game, variant, player,
power, centres, score): the shape results databases and director tools import.

    doc = standings_document(snap, rows, names)    csv = standings_csv(rows, names)
    doc = await export_document(svc, snap, names)  csv = tables_csv(snap, names)
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from bot.core.tournament.model import StandingRow
from bot.service.games.record import game_record
from bot.service.tournaments.state import (
    Snapshot,
    input_document,
    scores,
    seats,
    standings,
    tournament_input,
)

if TYPE_CHECKING:
    from bot.service.service import TableService

FORMAT = "parley-tournament"
VERSION = 1


def _name(names: Mapping[str, str], player: str) -> str:
    return names.get(player, player)


def _round_scores(row: StandingRow) -> dict[int, float]:
    out: dict[int, float] = {}
    for e in row.detail.get("scores", []):
        if e.get("counted", True):
            out[int(e["round"])] = max(out.get(int(e["round"]), 0.0), float(e["score"]))
    return out


def standings_document(
    snap: Snapshot, rows: list[StandingRow], names: Mapping[str, str]
) -> dict[str, Any]:
    return {
        "format": FORMAT + "-standings",
        "version": VERSION,
        "tournament": snap.row.name,
        "rules": snap.row.aggregation,
        "rounds_played": sorted({t.round_no for t in snap.tables if t.scores_json}),
        "standings": [
            {
                "rank": r.rank,
                "player": r.player,
                "name": _name(names, r.player),
                "total": r.total,
                "detail": dict(r.detail),
            }
            for r in rows
        ],
    }


def standings_csv(rows: list[StandingRow], names: Mapping[str, str]) -> str:
    rounds = sorted({n for r in rows for n in _round_scores(r)})
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["rank", "player", "name", "total", *(f"round {n}" for n in rounds)])
    for r in rows:
        by_round = _round_scores(r)
        w.writerow(
            [
                r.rank,
                r.player,
                _name(names, r.player),
                f"{r.total:g}",
                *(f"{by_round[n]:g}" if n in by_round else "" for n in rounds),
            ]
        )
    return out.getvalue()


def table_rows(snap: Snapshot, names: Mapping[str, str]) -> list[dict[str, Any]]:
    out = []
    for t in snap.tables:
        points = scores(t) or {}
        centers = json.loads(t.centers_json) if t.centers_json else {}
        for player, power in seats(t):
            out.append(
                {
                    "round": t.round_no,
                    "table": t.table_no,
                    "game": t.game_id,
                    "variant": t.variant,
                    "player": player,
                    "name": _name(names, player),
                    "power": power,
                    "centers": centers.get(player),
                    "score": points.get(player),
                }
            )
    return out


def tables_csv(snap: Snapshot, names: Mapping[str, str]) -> str:
    out = io.StringIO()
    fields = ["round", "table", "game", "variant", "player", "name", "power", "centers", "score"]
    w = csv.DictWriter(out, fields, lineterminator="\n")
    w.writeheader()
    for row in table_rows(snap, names):
        w.writerow({k: "" if v is None else v for k, v in row.items()})
    return out.getvalue()


async def export_document(
    svc: TableService, snap: Snapshot, names: Mapping[str, str]
) -> dict[str, Any]:
    """The whole tournament: settings, the tournament file (`parley tournament score` reads
    it back), the standings, every seat with its centres and score, every game's record."""
    row = snap.row
    rows = standings(snap)
    games = [t.game_id for t in snap.tables if t.game_id is not None]
    return {
        "format": FORMAT,
        "version": VERSION,
        "tournament": {
            "id": row.id,
            "name": row.name,
            "director": row.director,
            "rules": row.rules,
            "clock": row.clock,
            "scoring": row.scoring,
            "aggregation": row.aggregation,
            "lang": row.lang,
            "final_table": row.final_table,
            "final_winner": row.final_winner,
        },
        "file": input_document(tournament_input(snap)),
        "standings": standings_document(snap, rows, names)["standings"],
        "tables": table_rows(snap, names),
        "games": [await game_record(svc, g) for g in games],
    }
