"""Seeded random movement phases: a board and legal orders for it (benchmarks and the fast
path's differential tests). The same seed gives the same phase in every process: every set is
sorted before a choice."""

from __future__ import annotations

import random

from bot.core.adjudicator.mapindex import MapIndex
from bot.core.map import GameMap
from bot.core.model import Location, Phase, Position, Unit, UnitType
from bot.core.orders import Convoy, Hold, Move, Order, SupportHold, SupportMove, UnitRef


def random_position(rng: random.Random, gm: GameMap, n_units: int) -> Position:
    """`n_units` units of random powers on random provinces, about a third fleets at sea."""
    powers = list(gm.powers)
    # seas first in a random share, so that a third or so of the units are fleets at sea
    provs = sorted(
        gm.provinces, key=lambda p: rng.random() - (gm.provinces[p].kind.value == "sea") * 0.35
    )
    units = []
    for pid in provs[:n_units]:
        kind = gm.provinces[pid].kind.value
        if kind == "land" or (kind == "coastal" and rng.random() < 0.5):
            units.append(Unit(rng.choice(powers), UnitType.ARMY, Location(pid)))
        else:
            loc = rng.choice(gm.fleet_locations(pid))
            units.append(Unit(rng.choice(powers), UnitType.FLEET, loc))
    return Position.build(Phase.parse("S1901M"), units, gm.start.centers)


def random_orders(
    rng: random.Random,
    pos: Position,
    idx: MapIndex,
    *,
    move_rate: float = 0.45,
    convoys: bool = True,
    wild: float = 0.0,
) -> list[Order]:
    """Legal orders: moves first, then supports of those moves or holds, then convoys.

    `convoys=False` gives no convoy and no move by convoy; `wild` is the share of supports of a
    random unit's random move (often void or illegal: the cases a player's slip makes)."""
    units = list(pos.units.values())
    fleets_at_sea = {
        u.province for u in units if u.type is UnitType.FLEET and u.province in idx.sea
    }
    moves: dict[str, Move] = {}
    convoyed: list[tuple[Move, list[str]]] = []
    for u in units:
        if rng.random() < move_rate:
            if u.type is UnitType.ARMY:
                coastal = sorted(s for s in fleets_at_sea if u.province in idx.sea_shores[s])
                if convoys and coastal and rng.random() < 0.6:
                    # a convoy along a random walk of fleets at sea
                    walk = [rng.choice(coastal)]
                    for _ in range(rng.randrange(3)):
                        nxt = [
                            s
                            for s in sorted(idx.sea_seas[walk[-1]])
                            if s in fleets_at_sea and s not in walk
                        ]
                        if not nxt:
                            break
                        walk.append(rng.choice(nxt))
                    shores = sorted(p for p in idx.sea_shores[walk[-1]] if p != u.province)
                    if shores:
                        m = Move(u.power, UnitRef.of(u), Location(rng.choice(shores)), True)
                        moves[u.province] = m
                        convoyed.append((m, walk))
                        continue
                dest = rng.choice(sorted(idx.army_adj[u.province]))
                moves[u.province] = Move(u.power, UnitRef.of(u), Location(dest))
            else:
                dest_loc = rng.choice(sorted(idx.fleet_adj[u.location]))
                moves[u.province] = Move(u.power, UnitRef.of(u), dest_loc)
    orders: list[Order] = list(moves.values())
    convoying: set[str] = set()
    for m, walk in convoyed:
        for s in walk:
            if s not in moves and s not in convoying:
                convoying.add(s)
                f = pos.units[s]
                orders.append(Convoy(f.power, UnitRef.of(f), m.unit, m.dest))
    for u in units:
        if u.province in moves or u.province in convoying:
            continue
        reach = (
            idx.army_adj[u.province] if u.type is UnitType.ARMY else idx.fleet_adj_prov[u.location]
        )
        if wild and rng.random() < wild:
            orders.append(_wild_support(rng, pos, idx, u, reach))
            continue
        options: list[Order] = [
            SupportMove(u.power, UnitRef.of(u), m.unit, Location(m.dest.province))
            for p, m in moves.items()
            if m.dest.province in reach and u.province not in (p, m.dest.province)
        ]
        options += [
            SupportHold(u.power, UnitRef.of(u), UnitRef.of(pos.units[p]))
            for p in sorted(reach)
            if p in pos.units and p not in moves
        ]
        if options and rng.random() < 0.85:
            orders.append(rng.choice(options))
        else:
            orders.append(Hold(u.power, UnitRef.of(u)))
    rng.shuffle(orders)
    return orders


def _wild_support(
    rng: random.Random, pos: Position, idx: MapIndex, u: Unit, reach: frozenset[str]
) -> Order:
    """A support of a unit near `reach` moving anywhere next to it, or of it holding."""
    near = sorted(reach)
    if not near:
        return Hold(u.power, UnitRef.of(u))
    dest = rng.choice(near)
    around = sorted(p for p in idx.any_adj[dest] if p in pos.units and p != u.province)
    if not around:
        return Hold(u.power, UnitRef.of(u))
    target = pos.units[rng.choice(around)]
    if rng.random() < 0.3:
        return SupportHold(u.power, UnitRef.of(u), UnitRef.of(target))
    return SupportMove(u.power, UnitRef.of(u), UnitRef.of(target), Location(dest))
