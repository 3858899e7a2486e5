"""Advice on a power's order set, before the deadline: what the set leaves out or will not do
as written. Pure: the service words each item in the game's language.

`advise(position, game_map, rules, power, orders)` gives, in this order: units (or dislodged
units) without an order, builds left unused or removals missing (the power balance of an
adjustment), fleets built without the coast they need, orders for units that are not the
power's, units given several orders (what the rule set does with them), and movement orders
the adjudicator will rule illegal (`F Bre - Spa`: the unit holds instead).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.core.adjudicator.legality import MovementCheck
from bot.core.adjudicator.mapindex import map_index
from bot.core.map import GameMap
from bot.core.messages import Message
from bot.core.model import Location, PhaseKind, Position, Power, Unit, UnitType
from bot.core.orders import Build, Disband, Order, UnitOrder, UnitRef, Waive
from bot.core.rules import DuplicateOrders, RuleSet


@dataclass(frozen=True, slots=True)
class NoOrder:
    """A unit without an order (it holds)."""

    unit: Unit


@dataclass(frozen=True, slots=True)
class NoRetreat:
    """A dislodged unit without a retreat order (it is disbanded)."""

    unit: Unit


@dataclass(frozen=True, slots=True)
class BuildsUnused:
    n: int


@dataclass(frozen=True, slots=True)
class RemovalsMissing:
    n: int


@dataclass(frozen=True, slots=True)
class NeedsCoast:
    """`F STP B`: a fleet built in a province with several coasts must name one (DATC 6.B.14,
    4.B.7); it parses, and would fail at the deadline."""

    order: Build
    options: tuple[Build, ...]  # the same build on each coast


@dataclass(frozen=True, slots=True)
class NotYours:
    """An order for a unit (by its province) that is not the power's."""

    order: Order
    province: str


@dataclass(frozen=True, slots=True)
class SeveralOrders:
    """A unit given several orders; `then` says which counts, or that it holds (DATC 4.D.3)."""

    unit: UnitRef
    orders: tuple[UnitOrder, ...]
    then: DuplicateOrders


@dataclass(frozen=True, slots=True)
class Impossible:
    """A movement order the unit cannot carry out (a move it cannot make, a support of a
    place it cannot reach): ruled illegal at the deadline, the unit holds."""

    order: UnitOrder
    why: Message


Advice = (
    NoOrder
    | NoRetreat
    | BuildsUnused
    | RemovalsMissing
    | NeedsCoast
    | NotYours
    | SeveralOrders
    | Impossible
)


def order_key(order: Order) -> str | None:
    """The province of the unit an order is for (None for a waive)."""
    if isinstance(order, UnitOrder):
        return order.unit.province
    return None


def adjustment(position: Position, game_map: GameMap, power: Power) -> int:
    """Builds (>0) the power can actually make, or removals (<0) it owes."""
    diff = len(position.centers_of(power)) - len(position.units_of(power))
    if diff <= 0:
        return diff
    free = [
        pid
        for pid in game_map.home_centers(power)
        if position.centers.get(pid) is power and pid not in position.units
    ]
    return min(diff, len(free))


def to_order_powers(position: Position, game_map: GameMap) -> list[Power]:
    """Powers with something to order in this position's phase."""
    kind = position.phase.kind
    if kind is PhaseKind.MOVEMENT and not position.units:
        # An empty board is a free placement (Stab! rule 1): every power places its units.
        return [p for p in game_map.powers if game_map.home_centers(p)]
    if kind is PhaseKind.MOVEMENT:
        return [p for p in game_map.powers if position.units_of(p)]
    if kind is PhaseKind.RETREAT:
        return [p for p in game_map.powers if any(d.unit.power is p for d in position.dislodged)]
    return [p for p in game_map.powers if adjustment(position, game_map, p) != 0]


def nothing_to_do(position: Position, game_map: GameMap) -> bool:
    """A retreat or adjustment phase in which no power has anything to order (skipped)."""
    if position.phase.kind is PhaseKind.MOVEMENT:
        return False
    return not to_order_powers(position, game_map)


def advise(
    position: Position, game_map: GameMap, rules: RuleSet, power: Power, orders: list[Order]
) -> list[Advice]:
    """Everything worth telling `power` about `orders` in `position` (module docstring)."""
    out: list[Advice] = _left_out(position, game_map, power, orders)
    out += needs_coast(game_map, orders)
    kind = position.phase.kind
    if kind is PhaseKind.RETREAT:
        mine = {d.unit.province for d in position.dislodged if d.unit.power is power}
    else:
        mine = {u.province for u in position.units_of(power)}
    for o in orders:
        key = order_key(o)
        if key is not None and not isinstance(o, Build) and key not in mine:
            out.append(NotYours(o, key))
    out += several_orders(rules, orders)
    if kind is PhaseKind.MOVEMENT:
        out += impossible(position, game_map, rules, [o for o in orders if order_key(o) in mine])
    return out


def impossible(
    position: Position, game_map: GameMap, rules: RuleSet, orders: list[Order]
) -> list[Impossible]:
    """Movement orders the legality step (DATC 4.E.1) rules illegal. Each order is checked on
    its own: a unit's second order is SeveralOrders' business, not an illegal one."""
    idx = map_index(game_map)
    out: list[Impossible] = []
    for o in orders:
        if not isinstance(o, UnitOrder):
            continue
        check = MovementCheck(position, idx, rules).run([o])
        out += [Impossible(o, why) for _, _, why in check.entries[:1] if why is not None]
    return out


def _left_out(
    position: Position, game_map: GameMap, power: Power, orders: list[Order]
) -> list[Advice]:
    """Units without an order, or the builds/removals the set does not use up."""
    ordered = {order_key(o) for o in orders}
    kind = position.phase.kind
    if kind is PhaseKind.MOVEMENT:
        units = sorted(position.units_of(power), key=lambda u: u.province)
        return [NoOrder(u) for u in units if u.province not in ordered]
    if kind is PhaseKind.RETREAT:
        return [
            NoRetreat(d.unit)
            for d in position.dislodged
            if d.unit.power is power and d.unit.province not in ordered
        ]
    n = adjustment(position, game_map, power)
    if n > 0:
        given = sum(isinstance(o, Build | Waive) for o in orders)
        return [BuildsUnused(n - given)] if given < n else []
    if n < 0:
        given = sum(isinstance(o, Disband) for o in orders)
        return [RemovalsMissing(-n - given)] if given < -n else []
    return []


def needs_coast(game_map: GameMap, orders: list[Order]) -> list[Advice]:
    """Fleet builds that must name a coast (see NeedsCoast)."""
    out: list[Advice] = []
    for o in orders:
        if not isinstance(o, Build) or o.unit.type is not UnitType.FLEET:
            continue
        loc = o.unit.location
        coasts = game_map.province(loc.province).coasts
        if loc.coast is not None or len(coasts) < 2:
            continue
        refs = [replace(o.unit, location=Location(loc.province, c)) for c in coasts]
        out.append(NeedsCoast(o, tuple(replace(o, unit=r) for r in refs)))
    return out


def several_orders(rules: RuleSet, orders: list[Order]) -> list[Advice]:
    """Units given more than one order (see SeveralOrders)."""
    by_unit: dict[str, list[UnitOrder]] = {}
    for o in orders:
        if isinstance(o, UnitOrder):
            by_unit.setdefault(o.unit.province, []).append(o)
    return [
        SeveralOrders(given[0].unit, tuple(given), rules.duplicate_orders)
        for given in by_unit.values()
        if len(given) > 1
    ]
