"""The adjudicator: `adjudicate(position, orders, rules, game_map) -> Outcome`.

Steps: order legality (legality.py, DATC 4.E.1) -> resolution (movement.py: Kruijswijk's
algorithm; retreat.py; adjustment.py) -> the next position with skips (phases.py).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.adjudicator.adjustment import adjudicate_adjustments
from bot.core.adjudicator.civil_disorder_2023 import civil_disorder_rule, removals_2023
from bot.core.adjudicator.expedited import apply_expedited
from bot.core.adjudicator.mapindex import map_index
from bot.core.adjudicator.movement_phase import adjudicate_movement
from bot.core.adjudicator.retreat import adjudicate_retreats
from bot.core.map import GameMap
from bot.core.model import MOVEMENT, RETREAT, Position
from bot.core.orders import Order
from bot.core.outcome import Outcome
from bot.core.rules import RuleSet

# Issue 33: what this package's modules may import besides each other (tests/test_rooms.py).
MAY_IMPORT = (
    "bot.core.map",
    "bot.core.model",
    "bot.core.orders",
    "bot.core.outcome",
    "bot.core.rules",
    "bot.core.messages",
    "bot.core.ending",
)

__all__ = ["adjudicate", "civil_disorder_rule", "removals_2023"]


def adjudicate(
    position: Position,
    orders: Sequence[Order],
    rules: RuleSet,
    game_map: GameMap,
) -> Outcome:
    """Adjudicate one phase. `orders` are typed orders; `.power` is the power that gave each.

    Missing orders: units hold, dislodged units are disbanded, builds are waived, removals
    are made by the civil-disorder rule of `rules`.
    """
    idx = map_index(game_map)
    kind = position.phase.kind
    if kind is MOVEMENT:  # (PhaseKind.MOVEMENT: ~700 instructions a read, issue 18)
        outcome = adjudicate_movement(position, orders, rules, idx)
    elif kind is RETREAT:
        outcome = adjudicate_retreats(position, orders, rules, idx)
    else:
        return adjudicate_adjustments(position, orders, rules, idx)
    return apply_expedited(outcome, rules, game_map, idx)  # stabbeurfou 3, if the preset says
