"""Stabbeurfou section 3, "Expedited removal of players", at its phase steps.

(a) "at autumn move adjudication, are adjudicated as destroyed the dislodged units of a
player that" occupies no centre, has all its centres occupied, may not retreat onto a centre
nor where another player's retreat could collide (`endgame.expedited_destroyed`);
(b) "at autumn retreat adjudication, are removed units of a player that do not own any
centre" (`endgame.expedited_removed`). When the Fall has no retreat phase (nobody to retreat,
or (a) destroyed them all) the end of the Fall moves is that step: (b) applies there.
Both only under a preset with `expedited_removal = true`.
"""

from __future__ import annotations

from dataclasses import replace

from bot.core.adjudicator.mapindex import MapIndex
from bot.core.adjudicator.phases import next_position
from bot.core.ending.endgame import expedited_destroyed, expedited_removed
from bot.core.map import GameMap
from bot.core.model import Phase, PhaseKind, Season
from bot.core.outcome import Outcome
from bot.core.rules import RuleSet


def apply_expedited(outcome: Outcome, rules: RuleSet, game_map: GameMap, idx: MapIndex) -> Outcome:
    """The outcome of a Fall movement or retreat phase with section 3 applied."""
    done = outcome.phase
    if not rules.expedited_removal or done.season is not Season.FALL:
        return outcome
    pos = outcome.position
    removed = list(outcome.removed)
    if done.kind is PhaseKind.MOVEMENT and pos.phase.kind is PhaseKind.RETREAT:
        gone = expedited_destroyed(pos, game_map)  # (a)
        if gone:
            waiting = [d for d in pos.dislodged if d not in gone]
            removed += [d.unit for d in gone]
            pos = next_position(done, dict(pos.units), pos.centers, idx, waiting)
    if pos.phase.kind is not PhaseKind.RETREAT:  # the Fall is over: (b)
        out = expedited_removed(pos)
        if out:
            units = {p: u for p, u in pos.units.items() if u not in out}
            removed += out
            fall_retreats = Phase(done.year, Season.FALL, PhaseKind.RETREAT)
            pos = next_position(fall_retreats, units, pos.centers, idx)
    if pos is outcome.position:
        return outcome
    return replace(outcome, removed=tuple(removed), position=pos)
