"""Civil-disorder removals: which units a power that ordered too few removals loses.

`removal_rule(rule)` returns `pick(position, power, n, game_map) -> list[Unit]`: the `n` units of
`power` in `position` to remove, most distant first (all of them if it has no more than `n`).
The adjudicator passes the board without the units already removed by valid orders.

Each rule measures a distance, then breaks ties fleets first and then by province name:
- 2023 (DATC 4.D.8): to the nearest *owned* centre, armies and fleets over land and sea;
  ties by English province name.
- World Masters (gm-order-correction-rules III(4)): to a *home* centre; an army counts moves
  "as if ... it had the fictional ability to enter both bodies of water and land provinces", a
  fleet "the smallest number of legal fleet-moves"; "fleets before armies", then by "the three
  letter abbreviation used by the system".
- EDC "Renegade 2023" (edc-2023 section E): "farthest from the centers belonging to this
  nation ... regardless of the nature (land or sea) ... of the regions", "fleets before land
  armies", then "lowest number in the list appearing in section G".
- house (house-rules V(4) Alternative C): "nearest Home SC by shortest legal route including
  convoys, fleets before armies, ties broken by alphabetical order of province name". A fleet
  uses legal fleet moves; an army moves over land, and a convoy through a chain of seas that
  hold fleets (of any power) counts as one move (our reading of "legal route").
- pre-2023 common practice (DATC 4.D.8, 6.J.11 alternative): to a home centre, fleets move
  normally, armies may also cross water; ties by English province name.
- home, any terrain (Stabbeurfou 4.D.8 'e', DATC 2.x 4.D.8 e): to a home centre, armies and
  fleets both over land and sea; ties by English province name.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable

from bot.core.adjudicator.mapindex import MapIndex, distances, map_index
from bot.core.map import GameMap
from bot.core.model import Location, Position, Power, Unit, UnitType
from bot.core.rules import CivilDisorder

RemovalRule = Callable[[Position, Power, int, GameMap], list[Unit]]

# A unit that cannot reach any target counts as the most distant.
UNREACHABLE = 1_000_000

# edc-2023 section G, "List of territory names", numbered 1-75 (ties: lowest number first).
EDC_SECTION_G: tuple[str, ...] = (
    "ADR", "AEG", "ALB", "ANK", "APU", "ARM", "BAL", "BAR", "BEL", "BER",
    "BLA", "BOH", "BRE", "BUD", "BUL", "BUR", "CLY", "CON", "DEN", "EAS",
    "EDI", "ENG", "FIN", "GAL", "GAS", "GRE", "BOT", "LYO", "HEL", "HOL",
    "ION", "IRI", "KIE", "LVP", "LVN", "LON", "MAR", "MAO", "MOS", "MUN",
    "NAP", "NAF", "NAO", "NTH", "NWY", "NWG", "PAR", "PIC", "PIE", "POR",
    "PRU", "ROM", "RUH", "RUM", "STP", "SER", "SEV", "SIL", "SKA", "SMY",
    "SPA", "SWE", "SYR", "TUN", "TUS", "TRI", "TYR", "TYS", "UKR", "VEN",
    "VIE", "WAL", "WAR", "WES", "YOR",
)  # fmt: skip
_EDC_RANK = {pid: i for i, pid in enumerate(EDC_SECTION_G)}

Distance = Callable[[MapIndex, Position, Unit, frozenset[str]], int]
NameKey = Callable[[MapIndex, str], tuple[int, str]]


def _fleet_distance(idx: MapIndex, _pos: Position, unit: Unit, targets: frozenset[str]) -> int:
    """Legal fleet moves (coast-exact) to a location in one of the target provinces."""
    if unit.province in targets:
        return 0
    seen = {unit.location}
    todo: deque[tuple[Location, int]] = deque([(unit.location, 0)])
    while todo:
        loc, d = todo.popleft()
        for nxt in idx.fleet_adj.get(loc, ()):
            if nxt in seen:
                continue
            if nxt.province in targets:
                return d + 1
            seen.add(nxt)
            todo.append((nxt, d + 1))
    return UNREACHABLE


def _any_terrain(idx: MapIndex, _pos: Position, unit: Unit, targets: frozenset[str]) -> int:
    return distances(idx, targets).get(unit.province, UNREACHABLE)


def _army_with_convoys(idx: MapIndex, pos: Position, unit: Unit, targets: frozenset[str]) -> int:
    """Army moves over land; a convoy along seas holding fleets (any power) is one move."""
    fleets = frozenset(p for p, u in pos.units.items() if u.type is UnitType.FLEET and p in idx.sea)
    start = unit.province
    if start in targets:
        return 0
    seen = {start}
    todo: deque[tuple[str, int]] = deque([(start, 0)])
    while todo:
        prov, d = todo.popleft()
        for nxt in _army_steps(idx, prov, fleets):
            if nxt in seen:
                continue
            if nxt in targets:
                return d + 1
            seen.add(nxt)
            todo.append((nxt, d + 1))
    return UNREACHABLE


def _army_steps(idx: MapIndex, prov: str, fleets: frozenset[str]) -> Iterable[str]:
    yield from idx.army_adj.get(prov, ())
    # Shores reachable through a chain of fleet-held seas starting next to `prov`.
    todo = deque(s for s in fleets if prov in idx.sea_shores[s])
    seen = set(todo)
    while todo:
        s = todo.popleft()
        yield from (p for p in idx.sea_shores[s] if p != prov)
        for n in idx.sea_seas[s]:
            if n in fleets and n not in seen:
                seen.add(n)
                todo.append(n)


def _by(army: Distance, fleet: Distance) -> Distance:
    def measure(idx: MapIndex, pos: Position, unit: Unit, targets: frozenset[str]) -> int:
        return (fleet if unit.type is UnitType.FLEET else army)(idx, pos, unit, targets)

    return measure


def _english_name(idx: MapIndex, pid: str) -> tuple[int, str]:
    return (0, idx.name_en.get(pid, pid).casefold())


def _abbreviation(_idx: MapIndex, pid: str) -> tuple[int, str]:
    return (0, pid)


def _section_g(_idx: MapIndex, pid: str) -> tuple[int, str]:
    return (_EDC_RANK.get(pid, len(_EDC_RANK)), pid)


def _home(_pos: Position, power: Power, game_map: GameMap) -> frozenset[str]:
    return game_map.home_centers(power)


def _owned(pos: Position, power: Power, _game_map: GameMap) -> frozenset[str]:
    return frozenset(pos.centers_of(power))


def _make(
    targets: Callable[[Position, Power, GameMap], frozenset[str]],
    distance: Distance,
    name_key: NameKey,
) -> RemovalRule:
    def pick(position: Position, power: Power, n: int, game_map: GameMap) -> list[Unit]:
        units = position.units_of(power)
        if n <= 0 or not units:
            return []
        idx = map_index(game_map)
        goal = targets(position, power, game_map)

        def key(u: Unit) -> tuple[int, int, tuple[int, str]]:
            d = distance(idx, position, u, goal) if goal else UNREACHABLE
            # Farthest first; "fleets before armies"; then the rule's province order.
            return (-d, 0 if u.type is UnitType.FLEET else 1, name_key(idx, u.province))

        return sorted(units, key=key)[:n]

    return pick


_PARTS: dict[
    CivilDisorder, tuple[Callable[[Position, Power, GameMap], frozenset[str]], Distance, NameKey]
] = {
    CivilDisorder.RULE_2023: (_owned, _any_terrain, _english_name),
    CivilDisorder.WORLD_MASTERS: (_home, _by(_any_terrain, _fleet_distance), _abbreviation),
    CivilDisorder.EDC_RENEGADE_2023: (_owned, _any_terrain, _section_g),
    CivilDisorder.HOUSE: (_home, _by(_army_with_convoys, _fleet_distance), _english_name),
    CivilDisorder.HOME_ANY_TERRAIN: (_home, _by(_any_terrain, _fleet_distance), _english_name),
    CivilDisorder.HOME_BOTH_ANY_TERRAIN: (_home, _any_terrain, _english_name),
}
_RULES: dict[CivilDisorder, RemovalRule] = {k: _make(*v) for k, v in _PARTS.items()}


def removal_rule(rule: CivilDisorder) -> RemovalRule:
    """The removal function for a civil-disorder rule (every `CivilDisorder` value)."""
    return _RULES[rule]


def distance_to_targets(
    rule: CivilDisorder, position: Position, unit: Unit, game_map: GameMap
) -> int:
    """The distance a rule measures for one unit (for explaining a removal to the player)."""
    targets, distance, _ = _PARTS[rule]
    goal = targets(position, unit.power, game_map)
    return distance(map_index(game_map), position, unit, goal) if goal else UNREACHABLE
