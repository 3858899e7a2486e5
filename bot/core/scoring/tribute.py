"""Tribute (Jason Fogel, 2020; North America).

Source: shared/research/tournaments.md 3a (diplomania-gen "To whom the tribute is due",
Diplomacy World 149; dipvis `game_scoring/tribute.py`).

Without a solo, each power scores 1 point per centre it holds, and the survivors share 66
points equally. Every survivor outside the board top then pays the leader(s) a tribute of 1
point per centre the leader holds over 6, never more than its own survival share; tied
leaders split what is paid. A solo scores 100 and every other power 0.
"""

from __future__ import annotations

from bot.core.model import Power
from bot.core.scoring.table import ScoringError, Table

SOLO = 100.0
SURVIVOR_POOL = 66.0
TRIBUTE_FROM = 6


def score(table: Table) -> dict[Power, float]:
    soloist = table.soloist
    if soloist is not None:
        return table.solo_scores(SOLO)
    if not table.survivors:
        raise ScoringError("nobody survives: nothing to share")
    share = SURVIVOR_POOL / len(table.survivors)
    top = max(table.centers.values())
    leaders = [p for p in table.survivors if table.centers[p] == top]
    tribute = min(share, float(max(0, top - TRIBUTE_FROM)))
    payers = len(table.survivors) - len(leaders)
    out: dict[Power, float] = {}
    for p in table.powers:
        points = float(table.centers[p])
        if p in table.survivors:
            points += share
            if p in leaders:
                points += tribute * payers / len(leaders)
            else:
                points -= tribute
        out[p] = points
    return out
