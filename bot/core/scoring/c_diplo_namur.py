"""C-Diplo Namur (Belgium / France).

Source: shared/research/tournaments.md 3a (dipvis `game_scoring/cdiplo_namur.py`;
stabbeurfou.org/ModesCalcul.php).

Without a solo, each power scores 1 point for playing (eliminated powers too), points on a
survival curve by the centres it holds (0 → 0, 1 → 5, 2 → 9, 3 → 12, 4 → 14, 5 → 16,
6 → 18, then +1 per further centre), and the top three by centre count add 38, 14 and 7;
tied powers share the bonuses of the places they span. A solo scores 85 and every other
power 0.
"""

from __future__ import annotations

from bot.core.model import Power
from bot.core.scoring.table import Table, shared_rank_bonus

SOLO = 85.0
RANK_BONUS = (38.0, 14.0, 7.0)
CURVE = (0, 5, 9, 12, 14, 16, 18)


def survival_points(centres: int) -> int:
    if centres < len(CURVE):
        return CURVE[centres]
    return CURVE[-1] + centres - (len(CURVE) - 1)


def score(table: Table) -> dict[Power, float]:
    soloist = table.soloist
    if soloist is not None:
        return table.solo_scores(SOLO)
    bonus = shared_rank_bonus(table.centers, RANK_BONUS, table.powers)
    return {p: 1.0 + survival_points(n) + bonus[p] for p, n in table.centers.items()}
