"""The map as data: provinces, coasts, adjacencies and the starting position, loaded from JSON.

`load_map("standard")` reads `data/maps/standard.json` once and checks it; a broken file is a
`MapError` naming the province at fault.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from bot.core.model import (
    Coast,
    Location,
    ModelError,
    Phase,
    Position,
    Power,
    ProvinceKind,
    Unit,
    UnitType,
)
from bot.paths import data_dir


class MapError(ValueError):
    """The map file is missing or inconsistent."""


@dataclass(frozen=True, slots=True)
class Province:
    id: str
    kind: ProvinceKind
    name_en: str
    name_fr: str
    supply_center: bool
    home: Power | None
    coasts: tuple[Coast, ...]

    def name(self, lang: str = "en") -> str:
        """The name in `lang` (the field `name_<lang>`), English if the map has none in it."""
        found = getattr(self, f"name_{lang}", None)
        return found if isinstance(found, str) else self.name_en

    @property
    def split(self) -> bool:
        return bool(self.coasts)


@dataclass(frozen=True, slots=True)
class GameMap:
    name: str
    powers: tuple[Power, ...]
    power_names: Mapping[Power, tuple[str, str]]
    provinces: Mapping[str, Province]
    # Army moves: province -> provinces (land and coastal only).
    army_adj: Mapping[str, frozenset[str]]
    # Fleet moves: location (with coast where split) -> locations.
    fleet_adj: Mapping[Location, frozenset[Location]]
    start: Position
    # A variant on another map's geography (Sandard on "standard") shares that map's names
    # (`NAME_names.json`) and drawing (`NAME_geometry.json`); empty: the map's own name.
    family: str = ""
    # Derived once: supply centres and home centres are read in every adjudication.
    _centers: frozenset[str] = field(init=False, repr=False, compare=False)
    _homes: Mapping[Power, frozenset[str]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        provs = self.provinces.values()
        object.__setattr__(self, "_centers", frozenset(p.id for p in provs if p.supply_center))
        homes = {pw: frozenset(p.id for p in provs if p.home is pw) for pw in Power}
        object.__setattr__(self, "_homes", homes)

    @property
    def base(self) -> str:
        """The map whose names and geometry files this map uses."""
        return self.family or self.name

    # --- queries -----------------------------------------------------------------------

    def province(self, pid: str) -> Province:
        try:
            return self.provinces[pid]
        except KeyError:
            raise MapError(f"unknown province {pid!r}") from None

    @property
    def supply_centers(self) -> frozenset[str]:
        return self._centers

    def home_centers(self, power: Power) -> frozenset[str]:
        return self._homes[power]

    def power_name(self, power: Power, lang: str = "en") -> str:
        en, fr = self.power_names[power]
        return fr if lang == "fr" else en

    def fleet_locations(self, pid: str) -> tuple[Location, ...]:
        """Where a fleet can stand in a province: one location per coast, or the province."""
        prov = self.province(pid)
        if prov.kind is ProvinceKind.LAND:
            return ()
        if prov.coasts:
            return tuple(Location(pid, c) for c in prov.coasts)
        return (Location(pid),)

    def can_occupy(self, unit_type: UnitType, loc: Location) -> bool:
        prov = self.provinces.get(loc.province)
        if prov is None:
            return False
        if unit_type is UnitType.ARMY:
            return prov.kind is not ProvinceKind.SEA and loc.coast is None
        return loc in self.fleet_adj

    def adjacent(self, unit_type: UnitType, src: Location, dst: Location) -> bool:
        """Can a unit of this type move from src to dst directly (coast-exact for fleets)?"""
        if unit_type is UnitType.ARMY:
            return dst.province in self.army_adj.get(src.province, frozenset())
        return dst in self.fleet_adj.get(src, frozenset())

    def reachable_coasts(self, src: Location, pid: str) -> tuple[Location, ...]:
        """The locations of province `pid` that a fleet at `src` can move to directly."""
        near = self.fleet_adj.get(src, frozenset())
        return tuple(loc for loc in self.fleet_locations(pid) if loc in near)

    def neighbours(self, pid: str) -> frozenset[str]:
        """Provinces adjacent for some unit (used by the renderer's border check)."""
        out = set(self.army_adj.get(pid, ()))
        for loc in self.fleet_locations(pid):
            out |= {d.province for d in self.fleet_adj.get(loc, ())}
        return frozenset(out)


def _fail(msg: str) -> MapError:
    return MapError(msg)


def parse_map(raw: Mapping[str, Any], name: str = "map") -> GameMap:
    """Build and check a map from its JSON document."""
    try:
        powers = tuple(Power(p) for p in raw["powers"])
        power_names = {Power(p): (n[0], n[1]) for p, n in raw["power_names"].items()}
        provinces: dict[str, Province] = {}
        for d in raw["provinces"]:
            pid = d["id"]
            if pid in provinces:
                raise _fail(f"province {pid} is listed twice")
            home = Power(d["home"]) if d.get("home") else None
            provinces[pid] = Province(
                id=pid,
                kind=ProvinceKind(d["kind"]),
                name_en=d["name_en"],
                name_fr=d["name_fr"],
                supply_center=bool(d.get("supply_center")),
                home=home,
                coasts=tuple(Coast(c) for c in d.get("coasts", ())),
            )
    except MapError:
        raise
    except (KeyError, ValueError, TypeError, IndexError) as exc:
        raise _fail(f"map {name}: malformed province or power entry ({exc})") from None

    def check_prov(pid: str, where: str) -> None:
        if pid not in provinces:
            raise _fail(f"map {name}: {where} names unknown province {pid!r}")

    army: dict[str, set[str]] = {}
    for src, dsts in raw.get("army_adjacency", {}).items():
        check_prov(src, "army_adjacency")
        for dst in dsts:
            check_prov(dst, f"army_adjacency of {src}")
            for p in (src, dst):
                if provinces[p].kind is ProvinceKind.SEA:
                    raise _fail(f"map {name}: army adjacency {src}-{dst} touches sea {p}")
        army[src] = set(dsts)
    fleet: dict[Location, set[Location]] = {}
    for src_s, dsts in raw.get("fleet_adjacency", {}).items():
        try:
            src = Location.parse(src_s)
            dst_locs = [Location.parse(x) for x in dsts]
        except ModelError as exc:
            raise _fail(f"map {name}: fleet_adjacency of {src_s}: {exc}") from None
        for loc in (src, *dst_locs):
            check_prov(loc.province, f"fleet_adjacency of {src_s}")
            prov = provinces[loc.province]
            if prov.kind is ProvinceKind.LAND:
                raise _fail(f"map {name}: fleet adjacency {src_s} touches land {loc.province}")
            if bool(prov.coasts) != (loc.coast is not None) or (
                loc.coast is not None and loc.coast not in prov.coasts
            ):
                raise _fail(f"map {name}: {loc} in fleet_adjacency of {src_s} has a wrong coast")
        fleet[src] = set(dst_locs)

    # Consistency: symmetric adjacencies, every fleet location known, every province reachable.
    for src, dsts in army.items():
        for dst in dsts:
            if src not in army.get(dst, ()):
                raise _fail(f"map {name}: army adjacency {src}-{dst} is not symmetric ({dst})")
    for floc, fdsts in fleet.items():
        for fdst in fdsts:
            if floc not in fleet.get(fdst, ()):
                raise _fail(f"map {name}: fleet adjacency {floc}-{fdst} is not symmetric ({fdst})")
    for pid, prov in provinces.items():
        if prov.kind is ProvinceKind.LAND and not army.get(pid):
            raise _fail(f"map {name}: land province {pid} has no army adjacency")
        if prov.kind is not ProvinceKind.LAND:
            locs = [Location(pid, c) for c in prov.coasts] if prov.coasts else [Location(pid)]
            for loc in locs:
                if not fleet.get(loc):
                    raise _fail(f"map {name}: coast {loc} of {pid} is not reachable by fleet")
        if prov.kind is ProvinceKind.COASTAL and not army.get(pid):
            # Coastal provinces normally touch land too; islands would need explicit support.
            raise _fail(f"map {name}: coastal province {pid} has no army adjacency")

    start = _parse_start(raw.get("start", {}), provinces, name)
    game_map = GameMap(
        name=raw.get("name", name),
        powers=powers,
        power_names=power_names,
        provinces=provinces,
        army_adj={k: frozenset(v) for k, v in army.items()},
        fleet_adj={k: frozenset(v) for k, v in fleet.items()},
        start=start,
        family=str(raw.get("family", "")),
    )
    for u in start.units.values():
        if not game_map.can_occupy(u.type, u.location):
            raise _fail(f"map {name}: starting unit {u} cannot stand in {u.location}")
    expected_sc = raw.get("expected_supply_centers")
    if expected_sc is not None and len(game_map.supply_centers) != expected_sc:
        raise _fail(
            f"map {name}: {len(game_map.supply_centers)} supply centres, expected {expected_sc}"
        )
    expected_units = raw.get("expected_start_units")
    if expected_units is not None and len(start.units) != expected_units:
        raise _fail(f"map {name}: {len(start.units)} starting units, expected {expected_units}")
    return game_map


def _parse_start(raw: Mapping[str, Any], provinces: Mapping[str, Province], name: str) -> Position:
    try:
        phase = Phase.parse(raw.get("phase", "S1901M"))
        units = [
            Unit.parse(Power(p), text)
            for p, texts in raw.get("units", {}).items()
            for text in texts
        ]
        centers = {c: Power(p) for p, cs in raw.get("centers", {}).items() for c in cs}
        for c in centers:
            if c not in provinces or not provinces[c].supply_center:
                raise _fail(f"map {name}: starting centre {c} is not a supply centre")
        return Position.build(phase, units, centers)
    except MapError:
        raise
    except (ModelError, ValueError, KeyError) as exc:
        raise _fail(f"map {name}: bad starting position ({exc})") from None


def load_map_file(path: Path) -> GameMap:
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise MapError(f"map file not found: {path}") from None
    except (OSError, json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise MapError(f"map file {path} is not valid JSON: {exc}") from None
    return parse_map(raw, name=path.stem)


@lru_cache(maxsize=8)
def load_map(name: str = "standard") -> GameMap:
    """Load a named map from `data/maps/NAME.json` (cached: maps are immutable)."""
    return load_map_file(data_dir() / "maps" / f"{name}.json")
