"""Draw size ("draw-based scoring", the classic postal result).

A solo scores 100 and every other power 0. Otherwise the 100 points are shared equally among
the members of the draw the table agreed (a non-DIAS draw leaves the others at 0); a game that
stopped without a vote (year limit, stalemate) is a draw of all survivors.
"""

from __future__ import annotations

from bot.core.model import Power
from bot.core.scoring.table import ScoringError, Table


def score(table: Table) -> dict[Power, float]:
    soloist = table.soloist
    if soloist is not None:
        return table.solo_scores(100.0)
    members = table.draw if table.draw is not None else table.survivors
    if not members:
        raise ScoringError("nobody survives: no draw to share")
    share = 100.0 / len(members)
    return {p: share if p in members else 0.0 for p in table.powers}
