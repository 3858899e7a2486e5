"""C-Diplo ("C-Diplo 100", Bruno-André Giraudon, 1992; the French hobby's topping system).

A solo scores 100 and every other power 0. Otherwise each power scores 1 point for playing
(eliminated powers too), 1 point per centre it holds, and the top three by centre count add
38, 14 and 7 points; tied powers share the bonuses of the places they span (two tied second
take (14+7)/2 each). With all 34 centres owned, a board is worth 100 points.
"""

from __future__ import annotations

from bot.core.model import Power
from bot.core.scoring.table import Table, shared_rank_bonus

RANK_BONUS = (38.0, 14.0, 7.0)


def score(table: Table) -> dict[Power, float]:
    soloist = table.soloist
    if soloist is not None:
        return table.solo_scores(100.0)
    bonus = shared_rank_bonus(table.centers, RANK_BONUS, table.powers)
    return {p: 1.0 + n + bonus[p] for p, n in table.centers.items()}
