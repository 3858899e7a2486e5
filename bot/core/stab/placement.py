"""Stab! rule 1, free initial placement: "A player may choose the balance between types of
units available to him at the start of the game ... Initial units may start the game in any
home space. [This means any region indicated by the colour-coding on the original map as
belonging to the country, not just supply centres]" - one unit per home centre."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from bot.core.catalogue import text
from bot.core.map import GameMap
from bot.core.model import Coast, Location, Power, ProvinceKind, Unit, UnitType

_LINE = re.compile(r"^\s*([AFaf])\s+([A-Za-z]{3})(?:\s*/\s*([A-Za-z]{2}))?\s*$")


class PlacementError(ValueError):
    """A placement that breaks rule 1; the message says which unit and why."""


@dataclass(frozen=True, slots=True)
class Placement:
    power: Power
    units: tuple[Unit, ...]


def home_spaces(game_map: GameMap, power: Power) -> frozenset[str]:
    """The spaces `power` may start in: the variant's coloured home regions (`home_spaces`
    of the map file), else its home centres."""
    info = game_map.power_info.get(power)
    if info is not None and info.home_spaces:
        return info.home_spaces
    return game_map.home_centers(power)


def is_placement_line(line: str) -> bool:
    """`A YOR`, `F STP/NC`: a unit type and a space, nothing else."""
    return _LINE.match(line) is not None


def split_placement(lines: Sequence[str]) -> tuple[list[str], list[str]]:
    """The leading placement lines of a Spring 1901 set, and the orders after them."""
    n = 0
    while n < len(lines) and is_placement_line(lines[n]):
        n += 1
    return list(lines[:n]), list(lines[n:])


def place(power: Power, lines: Sequence[str], game_map: GameMap, lang: str = "en") -> Placement:
    """Read and check one power's placement; a `PlacementError` names the first fault.
    Places are read in the game's nomenclature first (`A BOU` is Burgundy in French, `A MAR`
    North Africa), as every order is (bot/core/names.py), and named back in it."""
    names = game_map.names()

    def fail(key: str, **params: object) -> PlacementError:
        who = game_map.power_name(power, lang)
        return PlacementError(text("core", f"stab.{key}", lang, power=who, **params))

    def shown(pid: str, coast: Coast | None = None) -> str:
        if pid not in names.province_ids:
            return pid
        out = names.abbreviation(pid, lang)
        return out + (f"/{names.coast_abbreviation(coast, lang)}" if coast else "")

    spaces = home_spaces(game_map, power)
    limit = len(game_map.home_centers(power))
    if len(lines) > limit:
        raise fail("placement_count", n=len(lines), limit=limit)
    units: list[Unit] = []
    taken: set[str] = set()
    for line in lines:
        m = _LINE.match(line)
        if m is None:
            raise fail("placement_syntax", line=line)
        kind = UnitType(m.group(1).upper())
        pid = names.lookup(m.group(2), lang) or m.group(2).upper()
        coast = names.coast([m.group(3)]) if m.group(3) else None
        if coast is not None:
            coast = names.coast_for(pid, coast)
        unit = f"{kind.value} {shown(pid, coast)}"
        if pid not in spaces:
            listed = ", ".join(sorted(shown(s) for s in spaces))
            raise fail("placement_foreign", unit=unit, spaces=listed)
        prov = game_map.provinces[pid]
        if kind is UnitType.FLEET and prov.kind is ProvinceKind.LAND:
            raise fail("placement_inland", unit=unit, province=shown(pid))
        if kind is UnitType.ARMY and prov.kind is ProvinceKind.SEA:
            raise fail("placement_army_sea", unit=unit, province=shown(pid))
        if kind is UnitType.FLEET and prov.coasts and coast is None:
            coasts = ", ".join(sorted(shown(pid, Coast(c)) for c in prov.coasts))
            raise fail("placement_coast", unit=unit, province=shown(pid), coasts=coasts)
        loc = Location.parse(f"{pid}/{coast}" if coast and kind is UnitType.FLEET else pid)
        if not game_map.can_occupy(kind, loc):
            raise fail("placement_coast", unit=unit, province=shown(pid), coasts="?")
        if pid in taken:
            raise fail("placement_twice", province=shown(pid))
        taken.add(pid)
        units.append(Unit(power, kind, loc))
    return Placement(power, tuple(units))
