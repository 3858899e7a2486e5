"""Standings by the tournament's rules: `edc2023` (the whole of section D) or a plain round
aggregation (`sum`, `best-N`, `wdc2019`, `wdc2025`, `edc2023-weights`: no bonuses)."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from bot.core.tournament import aggregation, edc2023
from bot.core.tournament.model import StandingRow, TournamentError, TournamentInput, ranked


def standings(inp: TournamentInput) -> list[StandingRow]:
    if inp.rules == "edc2023":
        return edc2023.score(inp)
    aggregate = aggregation.aggregator(inp.rules)
    counts = {(t.player, t.round): t.counts for t in inp.two_tables}
    by_round: dict[str, dict[int, float]] = {p: {} for p in inp.player_ids}
    tables: dict[str, dict[int, str]] = defaultdict(dict)
    for t in inp.rounds:
        for p, raw in t.scores.items():
            chosen = counts.get((p, t.round))
            if chosen is not None and chosen != t.table:
                continue  # the other table of a two-table round does not count
            if t.round in by_round[p]:
                raise TournamentError(
                    f"{p} has two tables in round {t.round}: add a two_tables entry"
                )
            by_round[p][t.round] = raw * t.coefficients.get(p, 1.0)
            tables[p][t.round] = t.table
    totals = aggregate(by_round)
    details: dict[str, dict[str, Any]] = {
        p: {
            "scores": [
                {"round": r, "table": tables[p][r], "score": s} for r, s in sorted(rs.items())
            ]
        }
        for p, rs in by_round.items()
    }
    return ranked(totals, details)
