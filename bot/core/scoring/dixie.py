"""Dixie (DixieCon's draw-based scoring).

Source: shared/research/tournaments.md 3a, https://www.dixiecon.com/tournament-rules:
place points Win 270 / 70 / 50 / 34 / 20 / 10 / 0, plus 4 points per centre; a draw splits
the place points of the places its members span (2-way 170, 3-way 130, 4-way 106); draws
need not include all survivors. Ties are broken by order of elimination (research 3c).

Our readings where the research is silent:
- a game that stops without a vote (year limit, stalemate) is a draw of all survivors, as
  for draw-size;
- with a solo the soloist takes the Win (270); the others, like the powers outside a draw,
  take the following places by centre count, then by year of elimination (eliminated later
  ranks higher; the year comes from the game record); powers still tied split the points of
  the places they span;
- every power, the soloist included, adds 4 points per centre it holds.
"""

from __future__ import annotations

from bot.core.model import Power
from bot.core.scoring.table import ScoringError, Table, elimination_key, shared_places

PLACE_POINTS = (270.0, 70.0, 50.0, 34.0, 20.0, 10.0, 0.0)
PER_CENTRE = 4.0


def score(table: Table) -> dict[Power, float]:
    soloist = table.soloist
    if soloist is not None:
        top: frozenset[Power] = frozenset({soloist})
    else:
        top = table.draw if table.draw is not None else table.survivors
    if not top:
        raise ScoringError("nobody survives: no draw to score")
    share = sum(PLACE_POINTS[: len(top)]) / len(top)
    rest = [p for p in table.powers if p not in top]
    keys = {p: (float(table.centers[p]), *elimination_key(table, p, rest)) for p in rest}
    places = shared_places(keys, PLACE_POINTS[len(top) :])
    return {
        p: (share if p in top else places[p]) + PER_CENTRE * table.centers[p] for p in table.powers
    }
