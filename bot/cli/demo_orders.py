"""Seeded random but plausible orders for any kind of phase: moves to adjacent provinces,
supports of the power's own moves, retreats, builds and removals.

`parley demo` plays them, and so does its Stab! game (stab_demo.py, which also aims attacks
with `reach`); they live here rather than in demo.py, which runs the Stab! game and so must not
be imported by it (issue 33: no import circle). The benches draw their orders here too."""

from __future__ import annotations

import random

from bot.core.map import GameMap
from bot.core.model import Location, PhaseKind, Position, Power, UnitType
from bot.core.orders import Build, Disband, Hold, Move, Order, Retreat, SupportMove, UnitRef


def reach(game_map: GameMap, unit_type: UnitType, loc: Location) -> list[Location]:
    if unit_type is UnitType.ARMY:
        return [Location(p) for p in sorted(game_map.army_adj.get(loc.province, ()))]
    return sorted(game_map.fleet_adj.get(loc, ()))


def can_reach(game_map: GameMap, unit_type: UnitType, loc: Location, province: str) -> bool:
    return any(d.province == province for d in reach(game_map, unit_type, loc))


def random_orders(
    position: Position, power: Power, game_map: GameMap, rng: random.Random
) -> list[Order]:
    """Legal-looking orders for one power in any kind of phase."""
    kind = position.phase.kind
    if kind is PhaseKind.RETREAT:
        out: list[Order] = []
        for d in position.dislodged:
            if d.unit.power is not power:
                continue
            ref = UnitRef.of(d.unit)
            dests = [
                loc
                for loc in reach(game_map, d.unit.type, d.unit.location)
                if loc.province in d.retreats
            ]
            out.append(Retreat(power, ref, rng.choice(dests)) if dests else Disband(power, ref))
        return out
    if kind is PhaseKind.ADJUSTMENT:
        units = position.units_of(power)
        diff = len(position.centers_of(power)) - len(units)
        if diff < 0:
            return [Disband(power, UnitRef.of(u)) for u in rng.sample(units, -diff)]
        free = sorted(
            pid
            for pid in game_map.home_centers(power)
            if position.centers.get(pid) is power and pid not in position.units
        )
        builds: list[Order] = []
        for pid in rng.sample(free, min(diff, len(free))):
            fleets = game_map.fleet_locations(pid)
            if fleets and rng.random() < 0.4:
                builds.append(Build(power, UnitRef(UnitType.FLEET, rng.choice(fleets), power)))
            else:
                builds.append(Build(power, UnitRef(UnitType.ARMY, Location(pid), power)))
        return builds
    orders: dict[str, Order] = {}
    units = sorted(position.units_of(power), key=lambda u: u.province)
    taken: set[str] = set()
    for u in units:
        dests = [d for d in reach(game_map, u.type, u.location) if d.province not in taken]
        ref = UnitRef.of(u)
        if dests and rng.random() < 0.75:
            dest = rng.choice(dests)
            taken.add(dest.province)
            orders[u.province] = Move(power, ref, dest)
        else:
            orders[u.province] = Hold(power, ref)
    # Some units support a move of another of their own units instead of moving.
    moves = [o for o in orders.values() if isinstance(o, Move)]
    for u in units:
        if rng.random() < 0.35 and moves:
            target = rng.choice(moves)
            if target.unit.province != u.province and can_reach(
                game_map, u.type, u.location, target.dest.province
            ):
                mine = orders[u.province]
                if isinstance(mine, Move) and any(
                    isinstance(o, SupportMove) and o.target == mine.unit for o in orders.values()
                ):
                    continue
                orders[u.province] = SupportMove(
                    power, UnitRef.of(u), target.unit, Location(target.dest.province)
                )
    return list(orders.values())
