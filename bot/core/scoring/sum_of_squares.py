"""Sum of squares (Brandon Clarke's system, used by many online tournaments).

Without a solo, each power scores 100 × (its centres)² / Σ (centres of every power)²: the
board is worth 100 points, shared in proportion to the squared centre counts. A solo scores
100 and every other power 0. Draw votes do not change the scores.
"""

from __future__ import annotations

from bot.core.model import Power
from bot.core.scoring.table import ScoringError, Table


def score(table: Table) -> dict[Power, float]:
    soloist = table.soloist
    if soloist is not None:
        return table.solo_scores(100.0)
    squares = sum(n * n for n in table.centers.values())
    if squares == 0:
        raise ScoringError("nobody holds a centre: nothing to share")
    return {p: 100.0 * n * n / squares for p, n in table.centers.items()}
