"""Whipping (the Whipping tournament, US).

Source: shared/research/tournaments.md 3a (dipvis `game_scoring/whipping.py`, its
"Whipping" preset: solo 468).

Without a solo, each survivor scores 10 points per centre it holds plus an equal share of 60
points among the survivors; the power alone at the board top adds twice its centre count
(nothing when the top is shared). An eliminated power scores 1 point per year it played,
the year of its elimination included (eliminated in 1905 with a 1901 start: 5; the year comes
from the game record). A solo scores 468; the other survivors score as if eliminated the
solo's year (the last year played).
"""

from __future__ import annotations

from bot.core.model import Power
from bot.core.scoring.table import Table

SOLO = 468.0
PER_CENTRE = 10.0
SURVIVOR_POOL = 60.0
TOP_FACTOR = 2


def score(table: Table) -> dict[Power, float]:
    soloist = table.soloist
    top = max(table.centers.values())
    sole_top = sum(1 for n in table.centers.values() if n == top) == 1
    out: dict[Power, float] = {}
    for p in table.powers:
        n = table.centers[p]
        if p not in table.survivors:
            out[p] = float(table.years_survived(p) + 1)
        elif soloist is not None:
            out[p] = SOLO if p == soloist else float(table.last_year() - table.first_year + 1)
        else:
            out[p] = PER_CENTRE * n + SURVIVOR_POOL / len(table.survivors)
            if n == top and sole_top:
                out[p] += TOP_FACTOR * n
    return out
