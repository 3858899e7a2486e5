"""EDC 2023 / French championship 2022 table scoring (edc-2023 section C).

Without a solo, each power scores:
- 1 point per centre it holds;
- 1 point per centre held by each other power holding strictly fewer centres;
- 1 point per surviving power on the table;
- 1 point per centre still neutral at the end;
- a rank bonus by centre count: 1st 9, 2nd 6, 3rd 3, 4th 1; tied powers share the bonuses
  of the places they span ((9+6+3)/3 = 6 for three tied at the top), the next power takes
  the following place.
With a solo (strictly more than half of the centres, after an adjustment) the soloist scores
its points as if every power had survived, doubled (100 with 7 powers); the others score 0.

Where the section is silent: eliminated powers (no centre) take no rank bonus; they still
score the survivor and neutral points ("the eliminated people still score the points
corresponding to the number of survivors").
"""

from __future__ import annotations

from bot.core.model import Power
from bot.core.scoring.table import Table, shared_rank_bonus

RANK_BONUS = (9.0, 6.0, 3.0, 1.0)


def _points(table: Table, power: Power, survivors: int) -> float:
    mine = table.centers[power]
    below = sum(n for p, n in table.centers.items() if p is not power and n < mine)
    return float(mine + below + survivors + table.neutral)


def score(table: Table) -> dict[Power, float]:
    soloist = table.soloist
    if soloist is not None:
        # "as if everyone had survived, then doubles that score"; the soloist is alone first.
        solo = 2 * (_points(table, soloist, len(table.powers)) + RANK_BONUS[0])
        return table.solo_scores(solo)
    bonus = shared_rank_bonus(table.centers, RANK_BONUS, table.survivors)
    n = len(table.survivors)
    return {p: _points(table, p, n) + bonus[p] for p in table.powers}
