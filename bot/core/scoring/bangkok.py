"""Bangkok (2020/2022; WDC 2023 Bangkok, APDA 2023, the Thai league).

Source: shared/research/tournaments.md 3a (diplomania-gen `scorage:bangkok_2022`;
world-diplomacy-wiki Bangkok_2020; dipvis `game_scoring/bangkok.py`, its "Bangkok" preset).

Without a solo, each power scores 1 point per centre it holds; a 12-point domination pool is
shared between the powers at the top centre count (3 shares each), one centre behind it (2
shares) and two behind (1 share): points = 12 × own shares / all shares; a survivor adds 3
points, an eliminated power 0.3 per whole year it played (eliminated in 1905 with a 1901
start: 4 years, 1.2; the year comes from the game record). A solo scores 41 and every other
power 0.5 per centre it holds. Only powers holding a centre take pool shares (a reading: the
research is silent about eliminated powers near a tiny top).
"""

from __future__ import annotations

from bot.core.model import Power
from bot.core.scoring.table import Table

SOLO = 41.0
LOSER_PER_CENTRE = 0.5
POOL = 12.0
SHARES = (3.0, 2.0, 1.0)  # at the top, one behind, two behind
SURVIVAL = 3.0
PER_YEAR_ELIMINATED = 0.3


def score(table: Table) -> dict[Power, float]:
    soloist = table.soloist
    if soloist is not None:
        return {
            p: SOLO if p == soloist else LOSER_PER_CENTRE * table.centers[p] for p in table.powers
        }
    top = max(table.centers.values())
    shares = {
        p: SHARES[top - n] if n > 0 and top - n < len(SHARES) else 0.0
        for p, n in table.centers.items()
    }
    total_shares = sum(shares.values())
    out: dict[Power, float] = {}
    for p in table.powers:
        base = float(table.centers[p])
        if p in table.survivors:
            base += SURVIVAL
        else:
            base += PER_YEAR_ELIMINATED * table.years_survived(p)
        out[p] = base + (POOL * shares[p] / total_shares if total_shares else 0.0)
    return out
