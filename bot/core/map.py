"""A variant as data: its powers (ids, names and adjectives per language, colours),
provinces, coasts, adjacencies, starting position and solo threshold, loaded from JSON.

`load_map("standard")` reads `data/maps/standard.json` once and checks it; `load_map(path)`
reads a variant file anywhere (a name ending in `.json` or holding a `/`). A broken file is
a `MapError` naming the entry at fault.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
from itertools import pairwise
from pathlib import Path
from typing import Any

from bot.core.catalogue import DEFAULT_LANG, languages
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
from bot.core.names import NameTable, load_names, split_words
from bot.paths import data_dir

RGB = tuple[int, int, int]


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
class PowerInfo:
    """One power of a variant: what players call it and how the renderer paints it."""

    id: Power
    # Language -> names; the first is the one shown, all are read ("Autriche-Hongrie").
    names: Mapping[str, tuple[str, ...]]
    # Language -> adjectives, read in orders ("French A PAR"); the first is the one shown for
    # a unit's owner (French: feminine, "une unité française").
    adjectives: Mapping[str, tuple[str, ...]]
    colour: RGB
    colour_blind: RGB  # the colour-blind palette (Okabe-Ito on the standard map)
    # The spaces coloured as the power's on the board (Stab! rule 1 starts units there);
    # empty when the file gives none: then its home centres.
    home_spaces: frozenset[str] = frozenset()

    def name(self, lang: str = DEFAULT_LANG) -> str:
        names = self.names.get(lang) or self.names.get(DEFAULT_LANG) or (self.id.title(),)
        return names[0]

    def adjective(self, lang: str = DEFAULT_LANG) -> str:
        adjs = self.adjectives.get(lang) or self.adjectives.get(DEFAULT_LANG) or (self.name(lang),)
        return adjs[0]


@dataclass(frozen=True, slots=True)
class GameMap:
    name: str
    powers: tuple[Power, ...]
    power_info: Mapping[Power, PowerInfo]
    provinces: Mapping[str, Province]
    # Army moves: province -> provinces (land and coastal only).
    army_adj: Mapping[str, frozenset[str]]
    # Fleet moves: location (with coast where split) -> locations.
    fleet_adj: Mapping[Location, frozenset[Location]]
    start: Position
    # A variant on another map's geography (Sandard on "standard") shares that map's names
    # (`NAME_names.json`) and drawing (`NAME_geometry.json`); empty: the map's own name.
    family: str = ""
    # Centres for a solo; None: strictly more than half of the supply centres.
    solo_centers: int | None = None
    title: str = ""
    # The file a variant given by path came from (its `STEM_names.json` and
    # `STEM_geometry.json` sit beside it); empty for a bundled map.
    source: str = ""
    # Derived once: supply centres and home centres are read in every adjudication.
    _centers: frozenset[str] = field(init=False, repr=False, compare=False)
    _homes: Mapping[Power, frozenset[str]] = field(init=False, repr=False, compare=False)
    # Folded word -> power: every name, adjective and id a player may type.
    _words: Mapping[str, Power] = field(init=False, repr=False, compare=False)
    # Word pairs that a hyphen joins into one power name ("autriche", "hongrie").
    _bigrams: frozenset[tuple[str, str]] = field(init=False, repr=False, compare=False)
    _names: list[NameTable] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        provs = self.provinces.values()
        object.__setattr__(self, "_centers", frozenset(p.id for p in provs if p.supply_center))
        homes = {pw: frozenset(p.id for p in provs if p.home is pw) for pw in self.powers}
        object.__setattr__(self, "_homes", homes)
        words: dict[str, Power] = {}
        bigrams: set[tuple[str, str]] = set()
        for pw in self.powers:
            info = self.power_info[pw]
            texts = [pw.value]
            for table in (info.names, info.adjectives):
                texts += [t for forms in table.values() for t in forms]
            for text in texts:
                parts = split_words(text)
                words.setdefault("".join(parts), pw)
                bigrams |= set(pairwise(parts))
        object.__setattr__(self, "_words", words)
        object.__setattr__(self, "_bigrams", frozenset(bigrams))
        object.__setattr__(self, "_names", [])

    def names(self) -> NameTable:
        """The names players may write for the provinces: the bundled `BASE_names.json`, the
        `STEM_names.json` beside a variant file, else the provinces' own names and ids."""
        if not self._names:
            self._names.append(self._load_names())
        return self._names[0]

    def _load_names(self) -> NameTable:
        if not self.source:
            if (data_dir() / "maps" / f"{self.base}_names.json").exists():
                return load_names(self.base)
        else:
            beside = Path(self.source).with_name(f"{Path(self.source).stem}_names.json")
            if beside.exists():
                return NameTable(json.loads(beside.read_text(encoding="utf-8")))
        # Coast words are the same on every board: the standard table's.
        generic = json.loads((data_dir() / "maps" / "standard_names.json").read_text("utf-8"))
        provinces = {
            p.id: {lang: {"abbr": [p.id], "names": [p.name(lang)]} for lang in languages()}
            for p in self.provinces.values()
        }
        return NameTable({**generic, "provinces": provinces, "coast_aliases": {}})

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
        return self._homes.get(power, frozenset())

    @property
    def solo_threshold(self) -> int:
        """Centres for a solo on this board."""
        if self.solo_centers is not None:
            return self.solo_centers
        return len(self._centers) // 2 + 1

    def power_name(self, power: Power, lang: str = DEFAULT_LANG) -> str:
        info = self.power_info.get(power)
        return info.name(lang) if info is not None else power.value.title()

    def power_adjective(self, power: Power, lang: str = DEFAULT_LANG) -> str:
        info = self.power_info.get(power)
        return info.adjective(lang) if info is not None else power.value.title()

    def power_word(self, word: str) -> Power | None:
        """The power a folded word names (`fold_word`: "francaise", "autrichehongrie")."""
        return self._words.get(word)

    @property
    def power_bigrams(self) -> frozenset[tuple[str, str]]:
        return self._bigrams

    def parse_power(self, text: str) -> Power:
        """A power by its id, a name or an adjective in any language of the variant, any case,
        accents optional ("france", "Autriche-Hongrie"); ModelError if none."""
        power = self._words.get("".join(split_words(text)))
        if power is None:
            known = ", ".join(self.power_name(p) for p in self.powers)
            raise ModelError(f"unknown power {text!r} (on {self.name}: {known})")
        return power

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
        infos = [_parse_power(d) for d in raw["powers"]]
        powers = tuple(i.id for i in infos)
        if len(set(powers)) != len(powers) or not powers:
            raise _fail(f"map {name}: the powers list is empty or names a power twice")
        provinces: dict[str, Province] = {}
        for d in raw["provinces"]:
            pid = d["id"]
            if pid in provinces:
                raise _fail(f"province {pid} is listed twice")
            home = Power(d["home"]) if d.get("home") else None
            if home is not None and home not in powers:
                raise _fail(f"map {name}: home of {pid} is {home}, not a power of the map")
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
    solo = raw.get("solo_centers")
    if solo is not None and (type(solo) is not int or solo < 1):
        raise _fail(f"map {name}: solo_centers must be a positive whole number, not {solo!r}")

    def check_prov(pid: str, where: str) -> None:
        if pid not in provinces:
            raise _fail(f"map {name}: {where} names unknown province {pid!r}")

    for info in infos:
        for pid in sorted(info.home_spaces):
            check_prov(pid, f"home_spaces of {info.id}")
            if provinces[pid].kind is ProvinceKind.SEA:
                raise _fail(f"map {name}: home space {pid} of {info.id} is a sea")

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
    strangers = {u.power for u in start.units.values()} | set(start.centers.values())
    if strangers - set(powers):
        raise _fail(f"map {name}: the start names {sorted(strangers - set(powers))}, not powers")
    game_map = GameMap(
        name=raw.get("name", name),
        powers=powers,
        power_info={i.id: i for i in infos},
        provinces=provinces,
        army_adj={k: frozenset(v) for k, v in army.items()},
        fleet_adj={k: frozenset(v) for k, v in fleet.items()},
        start=start,
        family=str(raw.get("family", "")),
        solo_centers=solo,
        title=str(raw.get("title", "")),
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


def _colour(text: object) -> RGB:
    if not isinstance(text, str) or len(text) != 7 or text[0] != "#":
        raise ValueError(f"colour {text!r} is not #rrggbb")
    v = int(text[1:], 16)
    return (v >> 16, (v >> 8) & 0xFF, v & 0xFF)


def _parse_power(d: Mapping[str, Any]) -> PowerInfo:
    """`{"id", "names": {lang: [...]}, "adjectives": {lang: [...]}, "colour", "colour_blind",
    "home_spaces": [...]}`."""
    pid = Power(d["id"])

    def forms(key: str) -> dict[str, tuple[str, ...]]:
        table = d.get(key, {})
        out = {lang: tuple(str(x) for x in v) for lang, v in table.items()}
        if any(not v for v in out.values()):
            raise ValueError(f"{pid}: an empty {key} list")
        return out

    names = forms("names")
    if DEFAULT_LANG not in names:
        raise ValueError(f"{pid} has no name in {DEFAULT_LANG}")
    colour = _colour(d["colour"])
    return PowerInfo(
        pid,
        names,
        forms("adjectives"),
        colour,
        _colour(d.get("colour_blind", d["colour"])),
        frozenset(str(x) for x in d.get("home_spaces", ())),
    )


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


def load_variant_file(path: Path) -> GameMap:
    """A variant file anywhere (tests, a table's own variant): remembers where it lies."""
    return replace(load_map_file(path), source=str(path))


def is_map_path(name: str) -> bool:
    """A variant given as a file path rather than a bundled name."""
    return name.endswith(".json") or "/" in name or "\\" in name


@lru_cache(maxsize=16)
def load_map(name: str) -> GameMap:
    """Load a bundled map `data/maps/NAME.json`, or a variant file by its path (cached: maps
    are immutable). Only the command line and the service's stored variant pick one."""
    if is_map_path(name):
        return load_variant_file(Path(name))
    if not name or not all(c.isalnum() or c in "-_" for c in name):
        raise MapError(f"not a map name: {name!r}")
    return load_map_file(data_dir() / "maps" / f"{name}.json")


def bundled_maps() -> tuple[str, ...]:
    """The variants shipped in `data/maps/` (files with a "powers" list)."""
    out = []
    for path in sorted((data_dir() / "maps").iterdir(), key=lambda p: p.name):
        if path.name.endswith(".json") and "_" not in path.stem:
            out.append(path.stem)
    return tuple(out)
