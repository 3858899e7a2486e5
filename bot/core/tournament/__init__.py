"""Tournaments, the pure half: the tournament file's model, EDC 2023 section D scoring,
round aggregations and seating (no I/O; the service and `parley tournament` drive them).

Readings of the EDC 2023 rules where the seed is open are in `docs/tournaments.md`.
"""

from __future__ import annotations

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

# Issue 33: what this package's modules may import besides each other (tests/test_rooms.py).
MAY_IMPORT = ("bot.core.model",)

__all__ = [
    "Absence",
    "Final",
    "Penalty",
    "PlayerEntry",
    "StandingRow",
    "TableResult",
    "TournamentError",
    "TournamentInput",
    "TwoTables",
    "Withdrawal",
]
