"""A power's own orders drawn on the current board, for its player's eyes only (the DM that
confirms a submission, `/orders show`): a misorder is seen before the deadline.

Drawn before adjudication, so there are no results: the orders the legality step will rule
illegal (bot.core.writing.advice.impossible) are given a failed result, which the renderer draws
faded and crossed in red. Small (800 px): it is read in a DM's preview.
"""

from __future__ import annotations

from bot.core.map import GameMap
from bot.core.model import PhaseKind, Position, Power
from bot.core.orders import Build, Order
from bot.core.outcome import OrderResult, Reason, Verdict
from bot.core.rules import RuleSet
from bot.core.writing.advice import Impossible, impossible, order_key
from renderer import default_renderer

WIDTH = 800


def warned(
    position: Position, game_map: GameMap, rules: RuleSet, orders: list[Order]
) -> list[OrderResult]:
    """Failed results for the orders that cannot be carried out as written."""
    if position.phase.kind is not PhaseKind.MOVEMENT:
        return []
    found: list[Impossible] = impossible(position, game_map, rules, orders)
    return [
        OrderResult(i.order.power, i.order, Verdict.FAILS, Reason.ILLEGAL, message=i.why)
        for i in found
    ]


def draw(
    position: Position,
    game_map: GameMap,
    rules: RuleSet,
    power: Power,
    orders: list[Order],
    *,
    lang: str,
    palette: str = "default",
    width: int = WIDTH,
) -> bytes:
    """PNG of `power`'s orders (only those for its own units) on `position`. CPU-bound: call
    it off the event loop."""
    if position.phase.kind is PhaseKind.RETREAT:
        mine = {d.unit.province for d in position.dislodged if d.unit.power is power}
    else:
        mine = {u.province for u in position.units_of(power)}
    # A build names an empty province; a waive names none.
    own = [o for o in orders if isinstance(o, Build) or order_key(o) in mine | {None}]
    return default_renderer(game_map).render(
        position,
        own,
        warned(position, game_map, rules, own),
        lang=lang,
        view=power,
        palette=palette,
        width=width,
    )
