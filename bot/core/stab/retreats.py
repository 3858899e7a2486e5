"""Stab! rule 4, conditional retreats written with the movement orders (`F PIC R BEL`,
`F PIC R ENG`, in order of preference): the first retreat a dislodged unit may make is its
order; a unit with none is disbanded. A refused retreat is not explained (rule 4)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from bot.core.adjudicator import adjudicate
from bot.core.map import GameMap
from bot.core.model import PhaseKind
from bot.core.orders import Order, Retreat
from bot.core.outcome import Outcome
from bot.core.rules import RuleSet

_RETREAT = re.compile(r"^\s*(?:[AF]\s+)?[A-Z]{3}(?:\s*/\s*[A-Z]{2})?\s+R\s+\S+", re.IGNORECASE)


def is_retreat_line(line: str) -> bool:
    return _RETREAT.match(line) is not None


def split_retreats(lines: Sequence[str]) -> tuple[list[str], list[str]]:
    """(orders, conditional retreat lines) of one power's movement set."""
    orders = [t for t in lines if not is_retreat_line(t)]
    return orders, [t for t in lines if is_retreat_line(t)]


def conditional_retreats(
    outcome: Outcome, retreats: Sequence[Retreat], rules: RuleSet, game_map: GameMap
) -> Outcome | None:
    """The retreat phase settled by the written preferences (None: nobody was dislodged).
    `retreats` are read on the retreat position (`outcome.position`), in the order given."""
    position = outcome.position
    if position.phase.kind is not PhaseKind.RETREAT:
        return None
    chosen: list[Order] = []
    for d in position.dislodged:
        for r in retreats:
            if r.unit.province == d.unit.province and r.dest.province in d.retreats:
                chosen.append(r)
                break
    return adjudicate(position, chosen, rules, game_map)
