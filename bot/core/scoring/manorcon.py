"""ManorCon (the UK's ManorCon tournament).

Source: shared/research/tournaments.md 3a (http://diplom.org/manorcon/dipscore.htm;
dipvis `game_scoring/manorcon.py`, its "ManorCon" preset: solo 75, eliminated powers counted
with N = 16).

Without a solo, take N = S² + 4S + 16 for each power, S its centres (N = 16 for an eliminated
power); each surviving power scores 100 × N / ΣN; an eliminated power scores 0.1 per whole
year it played (eliminated in 1905 with a 1901 start: 0.4; the year comes from the game
record). A solo scores 75; every other power scores 0.1 per year it played: up to its year of
elimination, or up to the solo's year (the last year played) for a survivor.
"""

from __future__ import annotations

from bot.core.model import Power
from bot.core.scoring.table import Table

SOLO = 75.0
PER_YEAR = 0.1


def _n(centres: int) -> int:
    return centres * centres + 4 * centres + 16


def score(table: Table) -> dict[Power, float]:
    soloist = table.soloist
    out: dict[Power, float] = {}
    if soloist is not None:
        for p in table.powers:
            if p == soloist:
                out[p] = SOLO
            elif p in table.survivors:
                out[p] = PER_YEAR * (table.last_year() - table.first_year)
            else:
                out[p] = PER_YEAR * table.years_survived(p)
        return out
    total = sum(_n(n) for n in table.centers.values())
    for p in table.powers:
        if p in table.survivors:
            out[p] = 100.0 * _n(table.centers[p]) / total
        else:
            out[p] = PER_YEAR * table.years_survived(p)
    return out
