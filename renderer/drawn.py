"""What a picture draws, decided before any drawing: `drawn()` is a pure function of the
position, orders, results and viewer, and `Renderer.image` draws its `Drawn` and nothing else,
so a test can check exactly which units, orders and marks a viewer's map holds."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field

from bot.core.map import GameMap
from bot.core.model import Position, Power
from bot.core.orders import Order, UnitOrder
from bot.core.outcome import OrderResult
from bot.core.stab.views import PUBLIC, Sight


@dataclass(frozen=True, slots=True)
class Drawn:
    position: Position  # the units, units awaiting retreat and centre owners drawn
    orders: tuple[Order, ...]
    result_of: Mapping[Order, OrderResult]
    # Legend rows: (power, centres, units); None: the legend counts the drawn position.
    counts: tuple[tuple[Power, int, int | None], ...] | None = None
    # Units marked dislodged though their order is not drawn (Stab!: `F PIC S ?; (dislodged)`).
    marks: frozenset[str] = frozenset()
    retreat_options: bool = True
    # Units drawn with a hidden order the report still names: province -> ("support" |
    # "convoy", cut); marked `S ?` / `C ?` (crossed when cut).
    obscured: Mapping[str, tuple[str, bool]] = field(default_factory=dict)


def drawn(
    game_map: GameMap,
    position: Position,
    orders: Sequence[Order] | None,
    results: Sequence[OrderResult] | None,
    *,
    view: Power | str | None = None,
    visible: Collection[str] | None = None,
    sight: Sight | None = None,
) -> Drawn:
    """`sight` (a hidden-movement viewer, bot/core/stab/views.py) decides everything;
    otherwise `view` keeps unjudged orders to their power (none for the public) and
    `visible` keeps the units of those provinces."""
    if sight is not None:
        return _of_sight(game_map, position, sight)
    result_of: dict[Order, OrderResult] = {}
    for r in results or ():
        result_of.setdefault(r.order, r)
    chosen = list(orders) if orders is not None else [r.order for r in results or ()]
    if results is None and view is not None:
        # Before adjudication a power sees its own orders; the public sees none.
        chosen = [] if view == PUBLIC else [o for o in chosen if o.power == view]
    if visible is not None:
        # Filtered before the fills: a hidden unit must not tint its province either.
        seen = frozenset(visible)
        position = _only(position, seen, position.centers)
        chosen = [o for o in chosen if not isinstance(o, UnitOrder) or o.unit.province in seen]
    return Drawn(position, tuple(chosen), result_of)


def _only(position: Position, seen: frozenset[str], centres: Mapping[str, Power]) -> Position:
    return Position(
        position.phase,
        {p: u for p, u in position.units.items() if p in seen},
        centres,
        tuple(d for d in position.dislodged if d.unit.province in seen),
    )


def _of_sight(game_map: GameMap, position: Position, sight: Sight) -> Drawn:
    shown = _only(position, sight.units, sight.centres)
    result_of: dict[Order, OrderResult] = {}
    for r in sight.results:
        result_of.setdefault(r.order, r)
    ordered = {o.unit.province for o in sight.orders if isinstance(o, UnitOrder)}
    counts = tuple(
        (p, sight.centre_totals.get(p, 0), sight.unit_counts.get(p)) for p in game_map.powers
    )
    return Drawn(
        shown,
        sight.orders,
        result_of,
        counts,
        # A drawn order whose result says dislodged marks its unit itself.
        frozenset(pid for pid in sight.dislodged if pid not in ordered),
        sight.retreat_options,
        {pid: v for pid, v in sight.obscured.items() if pid in shown.units and pid not in ordered},
    )
