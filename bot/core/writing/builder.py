"""The order builder's model (issue 30): what each of a power's units may be ordered to do, as
typed orders, so that a set can be picked from menus instead of typed. Pure: no Discord here.

A `Slot` is one thing to order: a unit (movement), a dislodged unit (retreat), a free home
centre (build) or a unit that may be removed (adjustment, removals owed). Its `direct`
options (hold, each move, each retreat, disband, each build type and coast) take one pick; a
support is picked in two (the unit supported, then what it does), a convoy too (the army,
then where). Moves follow the variant's adjacency, coast-exact for fleets; an army on a
coast is offered a destination by convoy where a chain of fleets at sea reaches it; a
support only of a unit that could hold or move where the supporter can go; a convoy only by a
fleet at sea that lies on such a chain. Whether an order then succeeds is the adjudicator's
business; the set picked is read back through the typed path, with its checks and advice.

`page` cuts a list of choices to Discord's 25 options a select menu (a variant with more
gets "more" entries), see https://discord.com/developers/docs/components/reference#string-select.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from bot.core.map import GameMap
from bot.core.model import Location, PhaseKind, Position, Power, ProvinceKind, Unit, UnitType
from bot.core.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Retreat,
    SupportHold,
    SupportMove,
    UnitRef,
)
from bot.core.stab.placement import home_spaces
from bot.core.writing.advice import adjustment, order_key

SELECT_OPTIONS = 25  # Discord: at most 25 options a string select


@dataclass(frozen=True, slots=True)
class Slot:
    """Something `power` has to order: `key` is its province."""

    key: str
    unit: Unit | None  # None: a build site
    direct: tuple[Order, ...]
    supports: Mapping[str, tuple[Order, ...]] = field(default_factory=dict)  # by unit province
    convoys: Mapping[str, tuple[Order, ...]] = field(default_factory=dict)  # by army province

    def all_orders(self) -> tuple[Order, ...]:
        out = list(self.direct)
        for group in (*self.supports.values(), *self.convoys.values()):
            out.extend(group)
        return tuple(out)


def _ref(unit: Unit) -> UnitRef:
    return UnitRef(unit.type, unit.location)


def _sea(game_map: GameMap, pid: str) -> bool:
    return game_map.province(pid).kind is ProvinceKind.SEA


def _reach(game_map: GameMap, unit: Unit) -> set[str]:
    """Provinces the unit could move to directly (coasts aside): where it may support."""
    if unit.type is UnitType.ARMY:
        return set(game_map.army_adj.get(unit.province, ()))
    return {d.province for d in game_map.fleet_adj.get(unit.location, ())}


def _seas_next_to(game_map: GameMap, pid: str) -> set[str]:
    out: set[str] = set()
    for loc in game_map.fleet_locations(pid):
        out |= {d.province for d in game_map.fleet_adj.get(loc, ()) if _sea(game_map, d.province)}
    return out


def convoy_chain(position: Position, game_map: GameMap, army: str) -> tuple[set[str], set[str]]:
    """(the seas holding a fleet that a chain from coastal `army` reaches, the coastal
    provinces such a chain can land it in). DATC 4.A: a convoy is by fleets at sea."""
    if game_map.province(army).kind is not ProvinceKind.COASTAL:
        return set(), set()

    def fleet_at(pid: str) -> bool:
        unit = position.units.get(pid)
        return unit is not None and unit.type is UnitType.FLEET

    seen: set[str] = set()
    todo = [s for s in _seas_next_to(game_map, army) if fleet_at(s)]
    while todo:
        sea = todo.pop()
        if sea in seen:
            continue
        seen.add(sea)
        todo += [s for s in _seas_next_to(game_map, sea) if fleet_at(s) and s not in seen]
    lands: set[str] = set()
    for sea in seen:
        for loc in game_map.fleet_adj.get(Location(sea), ()):
            kind = game_map.province(loc.province).kind
            if kind is ProvinceKind.COASTAL and loc.province != army:
                lands.add(loc.province)
    return seen, lands


def moves(position: Position, game_map: GameMap, unit: Unit) -> list[Move]:
    """The unit's moves: by adjacency (a fleet's coast-exact), then an army's by convoy."""
    if unit.type is UnitType.FLEET:
        dests = sorted(game_map.fleet_adj.get(unit.location, ()), key=str)
        return [Move(unit.power, _ref(unit), d) for d in dests]
    near = sorted(game_map.army_adj.get(unit.province, ()))
    out = [Move(unit.power, _ref(unit), Location(p)) for p in near]
    _, lands = convoy_chain(position, game_map, unit.province)
    out += [
        Move(unit.power, _ref(unit), Location(p), via_convoy=True)
        for p in sorted(lands - set(near))
    ]
    return out


def _supports(position: Position, game_map: GameMap, unit: Unit) -> dict[str, tuple[Order, ...]]:
    reach = _reach(game_map, unit)
    out: dict[str, tuple[Order, ...]] = {}
    for other in sorted(position.units.values(), key=lambda u: u.province):
        if other.province == unit.province:
            continue
        found: list[Order] = []
        if other.province in reach:
            found.append(SupportHold(unit.power, _ref(unit), _ref(other)))
        dests = sorted({m.dest.province for m in moves(position, game_map, other)} & reach)
        found += [
            SupportMove(unit.power, _ref(unit), _ref(other), Location(d))
            for d in dests
            if d != unit.province
        ]
        if found:
            out[other.province] = tuple(found)
    return out


def _convoys(position: Position, game_map: GameMap, fleet: Unit) -> dict[str, tuple[Order, ...]]:
    if fleet.type is not UnitType.FLEET or not _sea(game_map, fleet.province):
        return {}
    out: dict[str, tuple[Order, ...]] = {}
    for army in sorted(position.units.values(), key=lambda u: u.province):
        if army.type is not UnitType.ARMY:
            continue
        seas, lands = convoy_chain(position, game_map, army.province)
        if fleet.province in seas and lands:
            out[army.province] = tuple(
                Convoy(fleet.power, _ref(fleet), _ref(army), Location(d)) for d in sorted(lands)
            )
    return out


def _movement(position: Position, game_map: GameMap, power: Power) -> list[Slot]:
    out = []
    for unit in sorted(position.units_of(power), key=lambda u: u.province):
        direct: list[Order] = [Hold(power, _ref(unit)), *moves(position, game_map, unit)]
        out.append(
            Slot(
                unit.province,
                unit,
                tuple(direct),
                _supports(position, game_map, unit),
                _convoys(position, game_map, unit),
            )
        )
    return out


def _retreats(position: Position, game_map: GameMap, power: Power) -> list[Slot]:
    out = []
    for d in sorted(position.dislodged, key=lambda d: d.unit.province):
        unit = d.unit
        if unit.power is not power:
            continue
        places: list[Location] = []
        for pid in sorted(d.retreats):
            if unit.type is UnitType.FLEET:
                places += game_map.reachable_coasts(unit.location, pid)
            else:
                places.append(Location(pid))
        direct: list[Order] = [Retreat(power, _ref(unit), loc) for loc in places]
        direct.append(Disband(power, _ref(unit)))
        out.append(Slot(unit.province, unit, tuple(direct)))
    return out


def build_sites(position: Position, game_map: GameMap, power: Power) -> list[str]:
    """Free home centres the power owns: where it may build (DATC 6.I.3-6)."""
    return sorted(
        pid
        for pid in game_map.home_centers(power)
        if position.centers.get(pid) is power and pid not in position.units
    )


def _adjustments(position: Position, game_map: GameMap, power: Power) -> list[Slot]:
    owed = adjustment(position, game_map, power)
    if owed < 0:
        units = sorted(position.units_of(power), key=lambda u: u.province)
        return [Slot(u.province, u, (Disband(power, _ref(u)),)) for u in units]
    out = []
    for pid in build_sites(position, game_map, power) if owed > 0 else []:
        direct: list[Order] = []
        if game_map.province(pid).kind is not ProvinceKind.SEA:
            direct.append(Build(power, UnitRef(UnitType.ARMY, Location(pid))))
        direct += [
            Build(power, UnitRef(UnitType.FLEET, loc)) for loc in game_map.fleet_locations(pid)
        ]
        out.append(Slot(pid, None, tuple(direct)))
    return out


def slots(position: Position, game_map: GameMap, power: Power) -> list[Slot]:
    """What `power` has to order in `position`'s phase, by province."""
    kind = position.phase.kind
    if kind is PhaseKind.MOVEMENT:
        return _movement(position, game_map, power)
    if kind is PhaseKind.RETREAT:
        return _retreats(position, game_map, power)
    return _adjustments(position, game_map, power)


def unordered(found: Sequence[Slot], orders: Iterable[Order]) -> list[Slot]:
    """The slots no order names yet (a build site once built on counts as ordered)."""
    named = {order_key(o) for o in orders}
    return [s for s in found if s.key not in named]


def placed(orders: Sequence[Order], order: Order) -> list[Order]:
    """`orders` with `order` in place of the one for the same unit (or added). A build is
    apart from an order for the same province: a Stab! placement, then its unit's order."""

    def key(o: Order) -> tuple[str | None, bool]:
        return order_key(o), isinstance(o, Build)

    mine = key(order)
    kept = [o for o in orders if mine[0] is None or key(o) != mine]
    return [*kept, order]


def placement_slots(game_map: GameMap, power: Power, orders: Sequence[Order]) -> list[Slot]:
    """Stab! rule 1: the home spaces still free for the power's starting units (one a home
    centre), each with an army and a fleet on each coast where it may stand."""
    spaces = home_spaces(game_map, power)
    taken = {o.unit.province for o in orders if isinstance(o, Build)}
    if len(taken) >= len(game_map.home_centers(power)):
        return []
    out = []
    for pid in sorted(spaces - taken):
        direct: list[Order] = []
        if game_map.province(pid).kind is not ProvinceKind.SEA:
            direct.append(Build(power, UnitRef(UnitType.ARMY, Location(pid), power)))
        direct += [
            Build(power, UnitRef(UnitType.FLEET, loc, power))
            for loc in game_map.fleet_locations(pid)
        ]
        out.append(Slot(pid, None, tuple(direct)))
    return out


def repeated(found: Sequence[Slot], previous: Iterable[Order]) -> list[Order]:
    """Last turn's orders that can still be given word for word: same unit, same place,
    and still one of its options now ("repeat last turn where still possible")."""
    by_key: dict[str, Order] = {}
    for slot in found:
        for option in slot.all_orders():
            by_key.setdefault(option.canonical(), option)
    out = []
    for order in previous:
        now = by_key.get(order.canonical())
        if now is not None:
            out.append(now)
    return out


def page(items: Sequence[str], number: int, size: int = SELECT_OPTIONS) -> tuple[list[str], bool]:
    """Page `number` of `items` for one select menu, keeping room for "previous"/"more"
    entries: (the items on it, whether a next page exists)."""
    if len(items) <= size:
        return list(items), False
    per = size - 2
    start = max(0, number) * per
    return list(items[start : start + per]), start + per < len(items)
