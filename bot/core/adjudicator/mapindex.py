"""Adjacency tables precomputed once per map for the adjudicator's hot path."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Final

from bot.core.map import GameMap
from bot.core.model import Coast, Location, Power, ProvinceKind, Unit, UnitType
from bot.core.orders import Hold, UnitRef
from bot.core.outcome import OrderResult, Verdict

# A unit on a given province, as a key of the `units`/`held` tables: (power, type, coast).
UnitKey = tuple[Power, UnitType, Coast | None]


@dataclass(frozen=True, slots=True)
class MapIndex:
    game_map: GameMap
    army_adj: dict[str, frozenset[str]]
    fleet_adj: dict[Location, frozenset[Location]]
    # Provinces a fleet at a location can move to (any coast).
    fleet_adj_prov: dict[Location, frozenset[str]]
    # Location -> province -> the locations of that province a fleet there can move to (in
    # the order of GameMap.fleet_locations).
    fleet_reach: dict[Location, dict[str, tuple[Location, ...]]]
    # The same two tables keyed by the location's text (`NTH`, `SPA/NC`): hashing a str is
    # much cheaper than hashing a Location in the hot path (see `key`).
    fleet_reach_s: dict[str, dict[str, tuple[Location, ...]]]
    fleet_adj_prov_s: dict[str, frozenset[str]]
    sea: frozenset[str]
    land: frozenset[str]
    split: frozenset[str]
    # Sea province -> adjacent sea provinces (sorted: resolution visits fleets in a fixed
    # order, whatever the hash seed) / adjacent coastal provinces (for convoy routes).
    sea_seas: dict[str, tuple[str, ...]]
    sea_shores: dict[str, frozenset[str]]
    # The reverse: province -> the sea provinces on its shore (sorted; empty for a sea or an
    # inland province), where a convoy route from or to it starts.
    shore_seas: dict[str, tuple[str, ...]]
    # Province -> provinces adjacent for any unit (land or sea crossing).
    any_adj: dict[str, frozenset[str]]
    supply_centers: frozenset[str]
    homes: dict[Power, frozenset[str]]
    name_en: dict[str, str]
    # Every unit that can stand on the map, by province then UnitKey, and the engine's implied
    # hold of it, succeeding (~1,100 each, built once): a unit that moves, or that has no
    # order, costs a lookup in each phase instead of the construction of frozen dataclasses.
    units: dict[str, dict[UnitKey, Unit]]
    held: dict[str, dict[UnitKey, OrderResult]]
    # The result of an order that succeeds, by order object (movement_phase.py): the batch path
    # hands out the same objects for repeated texts. Keyed by id(); each entry keeps its order
    # alive, so an id is not reused while its entry stands.
    succeeded: dict[int, OrderResult] = field(default_factory=dict, compare=False)
    # `distances` by target set (civil-disorder removals: half the corpus sample's calls ask
    # a set asked before, a power keeping its centres from one year to the next).
    dist_memo: dict[frozenset[str], dict[str, int]] = field(default_factory=dict, compare=False)

    def unit(self, power: Power, utype: UnitType, location: Location) -> Unit:
        """The unit the map knows at `location` (built once, see `units`), or a new one for a
        power the map does not know (only in a hand-made position)."""
        try:
            return self.units[location.province][power, utype, location.coast]
        except KeyError:
            return Unit(power, utype, location)

    def route_exists(self, src: str, dst: str, fleets: Iterable[str]) -> bool:
        """Is there a chain of sea provinces in `fleets` leading from src to dst?"""
        # Only membership is asked of `fleets`: a set or a dict (sea -> fleet) is used as it is.
        # (a tuple of types: `set | frozenset | dict` would build a union at each call)
        alive = fleets if type(fleets) in _MEMBERSHIP else set(fleets)
        todo = [s for s in self.shore_seas.get(src, ()) if s in alive]
        seen = set(todo)
        shores, seas = self.sea_shores, self.sea_seas
        while todo:  # depth first: only whether dst is reached matters
            s = todo.pop()
            if dst in shores[s]:
                return True
            for n in seas[s]:
                if n in alive and n not in seen:
                    seen.add(n)
                    todo.append(n)
        return False


_MEMBERSHIP: Final = (set, frozenset, dict)  # the collections route_exists asks as they are


def key(loc: Location) -> str:
    """The text of a location, the key of the `*_s` tables."""
    return loc.province if loc.coast is None else f"{loc.province}/{loc.coast.value}"


class _Identity:
    """Hashes a GameMap by identity (its mappings are not hashable)."""

    __slots__ = ("game_map",)

    def __init__(self, game_map: GameMap) -> None:
        self.game_map = game_map

    def __hash__(self) -> int:
        return id(self.game_map)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Identity) and other.game_map is self.game_map


def map_index(game_map: GameMap) -> MapIndex:
    # The map of the last call first: every phase asks (interpretation, then adjudication),
    # and an lru_cache look-up hashes and compares through _Identity's Python methods.
    global _last  # noqa: PLW0603 - a one-entry cache; a tuple, so read whole at once
    last = _last
    if last is not None and last[0] is game_map:
        return last[1]
    idx = _index(_Identity(game_map))
    _last = (game_map, idx)
    return idx


_last: tuple[GameMap, MapIndex] | None = None  # the last call's map and its index


@lru_cache(maxsize=8)
def _index(key: _Identity) -> MapIndex:
    gm = key.game_map
    provs = gm.provinces
    sea = frozenset(p for p, v in provs.items() if v.kind is ProvinceKind.SEA)
    land = frozenset(p for p, v in provs.items() if v.kind is ProvinceKind.LAND)
    split = frozenset(p for p, v in provs.items() if v.coasts)
    fleet_adj = dict(gm.fleet_adj)
    fleet_adj_prov = {loc: frozenset(d.province for d in ds) for loc, ds in fleet_adj.items()}
    fleet_reach: dict[Location, dict[str, tuple[Location, ...]]] = {}
    for loc, targets in fleet_adj.items():
        # in the map's order of coasts: `fleet_dest` names them in that order
        fleet_reach[loc] = {
            p: tuple(x for x in gm.fleet_locations(p) if x in targets)
            for p in sorted({d.province for d in targets})
        }
    sea_seas: dict[str, tuple[str, ...]] = {}
    sea_shores: dict[str, frozenset[str]] = {}
    for s in sea:
        near = fleet_adj_prov.get(Location(s), frozenset())
        sea_seas[s] = tuple(sorted(p for p in near if p in sea))
        sea_shores[s] = frozenset(p for p in near if p not in sea)
    shore_seas = {p: tuple(sorted(s for s in sea if p in sea_shores[s])) for p in provs}
    units: dict[str, dict[UnitKey, Unit]] = {p: {} for p in provs}
    held: dict[str, dict[UnitKey, OrderResult]] = {p: {} for p in provs}
    for pid, prov in provs.items():
        locs = [(UnitType.FLEET, loc) for loc in gm.fleet_locations(pid)]
        if prov.kind is not ProvinceKind.SEA:
            locs.append((UnitType.ARMY, Location(pid)))
        for power in gm.powers:
            for utype, loc in locs:
                unit = Unit(power, utype, loc)
                units[pid][power, utype, loc.coast] = unit
                hold = Hold(power, UnitRef(utype, loc, power))
                held[pid][power, utype, loc.coast] = OrderResult(
                    power, hold, Verdict.SUCCEEDS, implied=True
                )
    any_adj: dict[str, set[str]] = {p: set(gm.army_adj.get(p, ())) for p in provs}
    for loc, ds in fleet_adj_prov.items():
        any_adj[loc.province] |= ds
    return MapIndex(
        game_map=gm,
        army_adj=dict(gm.army_adj),
        fleet_adj=fleet_adj,
        fleet_adj_prov=fleet_adj_prov,
        fleet_reach=fleet_reach,
        fleet_reach_s={str(k): v for k, v in fleet_reach.items()},
        fleet_adj_prov_s={str(k): v for k, v in fleet_adj_prov.items()},
        sea=sea,
        land=land,
        split=split,
        sea_seas=sea_seas,
        sea_shores=sea_shores,
        shore_seas=shore_seas,
        any_adj={p: frozenset(v) for p, v in any_adj.items()},
        supply_centers=gm.supply_centers,
        homes={p: gm.home_centers(p) for p in gm.powers},
        name_en={p: v.name_en for p, v in provs.items()},
        units=units,
        held=held,
    )


def distances(index: MapIndex, targets: Iterable[str]) -> Mapping[str, int]:
    """Moves from every province to the nearest of `targets`, crossing land and sea alike
    (shared between calls: read it, do not change it)."""
    key = frozenset(targets)
    memo = index.dist_memo
    known = memo.get(key)
    if known is not None:
        return known
    if len(memo) > _DIST_MEMO_SIZE:
        memo.clear()
    dist = dict.fromkeys(key, 0)
    todo = deque(dist)
    while todo:
        p = todo.popleft()
        for n in index.any_adj[p]:
            if n not in dist:
                dist[n] = dist[p] + 1
                todo.append(n)
    memo[key] = dist
    return dist


_DIST_MEMO_SIZE: Final = 512
