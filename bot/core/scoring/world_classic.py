"""World Classic (WDC-style scoring).

Source: shared/research/tournaments.md 3a (dipvis `game_scoring/world_classic.py`, its
"World Classic" preset).

Without a solo, each survivor scores 10 points per centre it holds plus 30 for surviving, and
the board top shares a 48-point pool (48 / number of powers at the top). An eliminated power
scores 1 point per whole year it played (eliminated in 1905 with a 1901 start: 4; the year
comes from the game record). A solo scores 420; the other survivors score 1 per year played
up to the solo's year (the last year played), eliminated powers as above.
"""

from __future__ import annotations

from bot.core.model import Power
from bot.core.scoring.table import Table

SOLO = 420.0
PER_CENTRE = 10.0
SURVIVAL = 30.0
TOP_POOL = 48.0


def score(table: Table) -> dict[Power, float]:
    soloist = table.soloist
    top = max(table.centers.values())
    leaders = sum(1 for n in table.centers.values() if n == top)
    out: dict[Power, float] = {}
    for p in table.powers:
        n = table.centers[p]
        if p not in table.survivors:
            out[p] = float(table.years_survived(p))
        elif soloist is not None:
            out[p] = SOLO if p == soloist else float(table.last_year() - table.first_year)
        else:
            out[p] = PER_CENTRE * n + SURVIVAL + (TOP_POOL / leaders if n == top else 0.0)
    return out
