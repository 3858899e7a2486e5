"""Carnage (the default scoring of many of the largest North American conventions).

Source: shared/research/tournaments.md 3a (webdiplomacy.net forum thread 1325258;
playdiplomacy forum t=57943; dipvis `game_scoring/carnage.py`, "Carnage with elimination
order", and its "Carnage 2023" preset).

Without a solo, every power scores 1 point per centre it holds plus place points
7000, 6000, 5000, 4000, 3000, 2000, 1000 for places 1 to 7; tied powers split the points of
the places they span. Survivors take the first places by centre count; eliminated powers
take the places after them by year of elimination (eliminated later ranks higher; eliminated
the same year is a tie), which comes from the game record. A solo takes all the points of
the board (28,000 + the map's 34 centres = 28,034) and every other power 0.

`carnage-2023` is the same plus 300 points per centre of lead for a sole leader over the
second power. On a smaller board (Sandard, 6 powers) the places are 7000 ... 2000 (research
is silent; we keep the first places' values).
"""

from __future__ import annotations

from bot.core.model import Power
from bot.core.scoring.table import Table, elimination_key, shared_places

PLACE_POINTS = (7000.0, 6000.0, 5000.0, 4000.0, 3000.0, 2000.0, 1000.0)
LEAD_POINTS_2023 = 300.0


def _score(table: Table, lead_points: float) -> dict[Power, float]:
    soloist = table.soloist
    if soloist is not None:
        pot = sum(PLACE_POINTS) + table.total_centers
        return table.solo_scores(pot)
    keys = {
        p: (*elimination_key(table, p, table.powers), float(table.centers[p])) for p in table.powers
    }
    places = shared_places(keys, PLACE_POINTS)
    out = {p: table.centers[p] + places[p] for p in table.powers}
    counts = sorted(table.centers.values(), reverse=True)
    lead = counts[0] - counts[1] if len(counts) > 1 else 0
    if lead_points and lead > 0:
        leader = next(p for p in table.powers if table.centers[p] == counts[0])
        out[leader] += lead * lead_points
    return out


def score(table: Table) -> dict[Power, float]:
    return _score(table, 0.0)


def score_2023(table: Table) -> dict[Power, float]:
    return _score(table, LEAD_POINTS_2023)
