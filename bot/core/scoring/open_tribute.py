"""OpenTribute (Jason Fogel, 2020; North America).

Source: shared/research/tournaments.md 3a (diplomania-gen "To whom the tribute is due",
Diplomacy World 149; dipvis `game_scoring/open_tribute.py`).

Without a solo, each survivor scores 34 + 3 points per centre it holds and pays the leader(s)
1 point per centre it holds fewer than the leader; an eliminated power scores 0 and pays the
leader's whole centre count. The board top receives the tribute; when N powers share the
top, each receives 1/N² of it, rounded down. A solo scores 340 and every other power 0.
"""

from __future__ import annotations

import math

from bot.core.model import Power
from bot.core.scoring.table import Table

SOLO = 340.0
BASE = 34.0
PER_CENTRE = 3.0


def score(table: Table) -> dict[Power, float]:
    soloist = table.soloist
    if soloist is not None:
        return table.solo_scores(SOLO)
    top = max(table.centers.values())
    leaders = [p for p in table.powers if table.centers[p] == top]
    out: dict[Power, float] = {}
    paid = 0
    for p in table.powers:
        n = table.centers[p]
        paid += top - n
        if p in table.survivors:
            out[p] = BASE + PER_CENTRE * n - (top - n)
        else:
            out[p] = 0.0
    for p in leaders:
        out[p] += math.floor(paid / (len(leaders) ** 2))
    return out
