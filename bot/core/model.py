"""Typed, immutable model of a game of Diplomacy: powers, locations, units, phases, positions.

Province ids are upper-case English codes as in the DATC data (`PAR`, `MAO`, `STP`).
A location is a province plus, for split-coast provinces, a coast.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Any, Final

from bot.core.compiled.native import mypyc_attr
from bot.core.compiled.twin import twin
from bot.core.power import ModelError as ModelError  # noqa: PLC0414 - re-exported
from bot.core.power import Power as Power  # noqa: PLC0414 - re-exported

# Whether this module runs compiled by mypyc (tools/build_native.py, which compiles it with
# orders.py and outcome.py): their classes are then native and take no `__class__`
# assignment, so the batch path's makers build them by their constructors (as fast, compiled,
# as a twin's stores); interpreted, through their twins (bot.core.compiled.twin; issue 18).
NATIVE: Final = not __file__.endswith((".py", ".pyc"))  # compiled: ".so" (".pyd")


def _fold(text: str) -> str:
    """Lower case, no accents, no surrounding space."""
    decomposed = unicodedata.normalize("NFKD", text.strip().lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def fold(text: str) -> str:
    """How power words are compared: lower case, no accents, no surrounding space."""
    return _fold(text)


class UnitType(StrEnum):
    ARMY = "A"
    FLEET = "F"

    def __str__(self) -> str:
        return self.value


class Coast(StrEnum):
    NORTH = "NC"
    SOUTH = "SC"
    EAST = "EC"

    def __str__(self) -> str:
        return self.value


class ProvinceKind(StrEnum):
    LAND = "land"
    SEA = "sea"
    COASTAL = "coastal"


# The hot classes write their own __init__ (init=False), with `object.__setattr__` stores that
# mypyc compiles to plain struct stores: a dataclass's generated __init__ stays interpreted
# under mypyc (the native spike, issue 18).
@mypyc_attr(acyclic=True)  # frozen values: never in a cycle, so not tracked by the collector
@dataclass(frozen=True, slots=True, order=True, init=False)
class Location:
    """A province, with a coast only for a fleet location in a split-coast province."""

    province: str
    coast: Coast | None = None

    def __init__(self, province: str, coast: Coast | None = None) -> None:
        object.__setattr__(self, "province", province)
        object.__setattr__(self, "coast", coast)

    @classmethod
    def parse(cls, text: str) -> Location:
        """`PAR`, `stp/nc`, `SPA/SC` (the canonical and DATC notations)."""
        m = _LOC_RE.fullmatch(text.strip())
        if not m:
            raise ModelError(f"not a location: {text!r}")
        coast = Coast(m.group(2).upper()) if m.group(2) else None
        return cls(m.group(1).upper(), coast)

    def __str__(self) -> str:
        return f"{self.province}/{self.coast.value}" if self.coast else self.province


_LOC_RE: Final = re.compile(r"([A-Za-z]{3})(?:\s*/\s*([nsueNSEC][cC]))?")


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True, init=False)
class Unit:
    power: Power
    type: UnitType
    location: Location

    def __init__(self, power: Power, type: UnitType, location: Location) -> None:
        object.__setattr__(self, "power", power)
        object.__setattr__(self, "type", type)
        object.__setattr__(self, "location", location)

    @property
    def province(self) -> str:
        return self.location.province

    @classmethod
    def parse(cls, power: Power, text: str) -> Unit:
        """`A PAR`, `F STP/SC`, `f spa/nc` (type, space, location)."""
        parts = text.split()
        if len(parts) != 2 or parts[0].upper() not in ("A", "F"):
            raise ModelError(f"not a unit: {text!r} (write e.g. 'A PAR' or 'F STP/SC')")
        return cls(power, UnitType(parts[0].upper()), Location.parse(parts[1]))

    def __str__(self) -> str:
        return f"{self.type.value} {self.location}"


class Season(StrEnum):
    SPRING = "S"
    FALL = "F"
    WINTER = "W"


class PhaseKind(StrEnum):
    MOVEMENT = "M"
    RETREAT = "R"
    ADJUSTMENT = "A"


# The members hot paths read, bound once: an Enum's class attribute read in a function costs
# ~900 instructions (EnumType's look-up hook), a module's global a dict look-up (issue 18).
ARMY: Final = UnitType.ARMY
FLEET: Final = UnitType.FLEET
SPRING: Final = Season.SPRING
FALL: Final = Season.FALL
WINTER: Final = Season.WINTER
MOVEMENT: Final = PhaseKind.MOVEMENT
RETREAT: Final = PhaseKind.RETREAT
ADJUSTMENT: Final = PhaseKind.ADJUSTMENT


_SEASON_WORDS: Final[dict[str, Season]] = {
    "s": Season.SPRING,
    "spring": Season.SPRING,
    "printemps": Season.SPRING,
    "summer": Season.SPRING,
    "ete": Season.SPRING,
    "f": Season.FALL,
    "fall": Season.FALL,
    "autumn": Season.FALL,
    "automne": Season.FALL,
    "w": Season.WINTER,
    "winter": Season.WINTER,
    "hiver": Season.WINTER,
}
_KIND_WORDS: Final[dict[str, PhaseKind]] = {
    "m": PhaseKind.MOVEMENT,
    "movement": PhaseKind.MOVEMENT,
    "moves": PhaseKind.MOVEMENT,
    "mouvement": PhaseKind.MOVEMENT,
    "mouvements": PhaseKind.MOVEMENT,
    "r": PhaseKind.RETREAT,
    "retreat": PhaseKind.RETREAT,
    "retreats": PhaseKind.RETREAT,
    "retraite": PhaseKind.RETREAT,
    "retraites": PhaseKind.RETREAT,
    "a": PhaseKind.ADJUSTMENT,
    "adjustment": PhaseKind.ADJUSTMENT,
    "adjustments": PhaseKind.ADJUSTMENT,
    "build": PhaseKind.ADJUSTMENT,
    "builds": PhaseKind.ADJUSTMENT,
    "ajustement": PhaseKind.ADJUSTMENT,
    "ajustements": PhaseKind.ADJUSTMENT,
}
# The phase kinds each season has (a constant: Phase.__post_init__ runs for every phase made).
_KINDS_IN_SEASON: Final[Mapping[Season, tuple[PhaseKind, ...]]] = MappingProxyType(
    {
        Season.SPRING: (PhaseKind.MOVEMENT, PhaseKind.RETREAT),
        Season.FALL: (PhaseKind.MOVEMENT, PhaseKind.RETREAT),
        Season.WINTER: (PhaseKind.ADJUSTMENT,),
    }
)


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True, order=True, init=False)
class Phase:
    year: int
    season: Season
    kind: PhaseKind

    def __init__(self, year: int, season: Season, kind: PhaseKind) -> None:
        object.__setattr__(self, "year", year)
        object.__setattr__(self, "season", season)
        object.__setattr__(self, "kind", kind)
        if kind not in _KINDS_IN_SEASON[season]:
            raise ModelError(f"no {self.kind.name.lower()} phase in {self.season.name.lower()}")

    @property
    def sort_key(self) -> tuple[int, int]:
        order = {
            (Season.SPRING, PhaseKind.MOVEMENT): 0,
            (Season.SPRING, PhaseKind.RETREAT): 1,
            (Season.FALL, PhaseKind.MOVEMENT): 2,
            (Season.FALL, PhaseKind.RETREAT): 3,
            (Season.WINTER, PhaseKind.ADJUSTMENT): 4,
        }
        return (self.year, order[(self.season, self.kind)])

    @classmethod
    def parse(cls, text: str) -> Phase:
        """`S1901M`, `F1903R`, `W1905A`, `Spring 1901 Movement`, `Printemps 1901`, `Winter 1901`."""
        t = _fold(text)
        m = re.fullmatch(r"([sfw])(\d{4})([mra])", t)
        if m:
            return cls(int(m.group(2)), _SEASON_WORDS[m.group(1)], _KIND_WORDS[m.group(3)])
        words = t.replace(",", " ").split()
        if len(words) in (2, 3) and words[0] in _SEASON_WORDS and words[1].isdigit():
            season = _SEASON_WORDS[words[0]]
            if len(words) == 3:
                if words[2] not in _KIND_WORDS:
                    raise ModelError(f"unknown phase kind in {text!r}")
                kind = _KIND_WORDS[words[2]]
            else:
                kind = PhaseKind.ADJUSTMENT if season is Season.WINTER else PhaseKind.MOVEMENT
            # "Summer"/"Été" is the retreat turn after spring in tournament talk (EDC).
            if words[0] in ("summer", "ete") and len(words) == 2:
                kind = PhaseKind.RETREAT
            return cls(int(words[1]), season, kind)
        raise ModelError(f"not a phase: {text!r} (write e.g. S1901M or 'Spring 1901 Movement')")

    def __str__(self) -> str:
        return f"{self.season.value}{self.year}{self.kind.value}"

    def describe(self, lang: str = "en") -> str:
        """ "Spring 1901 Movement" / "Printemps 1901 Mouvements"."""
        from bot.core.catalogue import text  # noqa: PLC0415 - the model is imported first

        season = text("core", f"phase.{self.season.name.lower()}", lang)
        return f"{season} {self.year} {text('core', f'phase.{self.kind.name.lower()}', lang)}"

    def next_steps(self) -> tuple[Phase, ...]:
        """The phases that may follow, in order, before skips (R after M, A after F-R)."""
        y = self.year
        if self.season is Season.SPRING and self.kind is PhaseKind.MOVEMENT:
            return (Phase(y, Season.SPRING, PhaseKind.RETREAT),)
        if self.season is Season.SPRING:
            return (Phase(y, Season.FALL, PhaseKind.MOVEMENT),)
        if self.kind is PhaseKind.MOVEMENT:
            return (Phase(y, Season.FALL, PhaseKind.RETREAT),)
        if self.season is Season.FALL:
            return (Phase(y, Season.WINTER, PhaseKind.ADJUSTMENT),)
        return (Phase(y + 1, Season.SPRING, PhaseKind.MOVEMENT),)

    @property
    def next(self) -> Phase:
        return self.next_steps()[0]


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True, init=False)
class DislodgedUnit:
    """A unit awaiting retreat, with what the movement phase left it (4.A.5, standoffs)."""

    unit: Unit
    attacker_from: str
    retreats: frozenset[str]

    def __init__(self, unit: Unit, attacker_from: str, retreats: frozenset[str]) -> None:
        object.__setattr__(self, "unit", unit)
        object.__setattr__(self, "attacker_from", attacker_from)
        object.__setattr__(self, "retreats", retreats)


_DislodgedUnitTwin: Final[Any] = None if NATIVE else twin(DislodgedUnit)


def dislodged_unit(unit: Unit, attacker_from: str, retreats: frozenset[str]) -> DislodgedUnit:
    """`DislodgedUnit(...)` through its twin (bot.core.compiled.twin), for the batch path's
    dislodged units (made per phase by the adjudicator, read per retreat record): issue 18."""
    if NATIVE:
        return DislodgedUnit(unit, attacker_from, retreats)
    d = object.__new__(_DislodgedUnitTwin)
    d.unit = unit
    d.attacker_from = attacker_from
    d.retreats = retreats
    d.__class__ = DislodgedUnit
    return d  # type: ignore[no-any-return]


def _frozen_map(m: Mapping[str, object] | None) -> Mapping[str, object]:
    return MappingProxyType(dict(m or {}))


_NO_UNITS: Final[Mapping[str, Unit]] = MappingProxyType({})
_NO_CENTERS: Final[Mapping[str, Power]] = MappingProxyType({})


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True, init=False)
class Position:
    """A board at the start of a phase.

    `units` maps province id -> unit (one unit per province); `dislodged` holds the units
    awaiting retreat (retreat phases only); `centers` maps supply-centre province -> owner.
    """

    phase: Phase
    units: Mapping[str, Unit] = field(default_factory=lambda: MappingProxyType({}))
    centers: Mapping[str, Power] = field(default_factory=lambda: MappingProxyType({}))
    dislodged: tuple[DislodgedUnit, ...] = ()

    def __init__(
        self,
        phase: Phase,
        units: Mapping[str, Unit] = _NO_UNITS,
        centers: Mapping[str, Power] = _NO_CENTERS,
        dislodged: tuple[DislodgedUnit, ...] = (),
    ) -> None:
        object.__setattr__(self, "phase", phase)
        object.__setattr__(self, "units", _frozen_map(units))
        object.__setattr__(self, "centers", _frozen_map(centers))
        object.__setattr__(self, "dislodged", tuple(dislodged))

    @classmethod
    def build(
        cls,
        phase: Phase,
        units: Iterable[Unit],
        centers: Mapping[str, Power] | None = None,
        dislodged: Iterable[DislodgedUnit] = (),
    ) -> Position:
        by_prov: dict[str, Unit] = {}
        for u in units:
            if u.province in by_prov:
                raise ModelError(f"two units in {u.province}")
            by_prov[u.province] = u
        return cls(phase, by_prov, dict(centers or {}), tuple(dislodged))

    @classmethod
    def adopt(
        cls,
        phase: Phase,
        units: dict[str, Unit] | MappingProxyType[str, Unit],
        centers: dict[str, Power] | MappingProxyType[str, Power],
        dislodged: tuple[DislodgedUnit, ...] = (),
    ) -> Position:
        """A position over mappings the caller hands over: fresh dicts that nobody changes
        afterwards, or another position's read-only views. Unlike the constructor it makes no
        defensive copies (the adjudicator builds one position per phase, in its hot path)."""
        if not NATIVE:
            # Filled through its twin, then made a Position (the same object as through
            # object.__setattr__, at about half the cost; see bot.core.compiled.twin).
            twin_pos = object.__new__(_PositionTwin)
            twin_pos.phase = phase
            twin_pos.units = units if type(units) is MappingProxyType else MappingProxyType(units)
            twin_pos.centers = (
                centers if type(centers) is MappingProxyType else MappingProxyType(centers)
            )
            twin_pos.dislodged = dislodged
            twin_pos.__class__ = cls
            return twin_pos  # type: ignore[no-any-return]
        pos = cls(phase)  # its fields then set (mypyc: no object.__new__ of a native class)
        object.__setattr__(
            pos, "units", units if type(units) is MappingProxyType else MappingProxyType(units)
        )
        object.__setattr__(
            pos,
            "centers",
            centers if type(centers) is MappingProxyType else MappingProxyType(centers),
        )
        object.__setattr__(pos, "dislodged", dislodged)
        return pos

    def unit_in(self, province: str) -> Unit | None:
        return self.units.get(province)

    def units_of(self, power: Power) -> list[Unit]:
        return [u for u in self.units.values() if u.power is power]

    def centers_of(self, power: Power) -> list[str]:
        return sorted(p for p, o in self.centers.items() if o is power)

    def dislodged_in(self, province: str) -> DislodgedUnit | None:
        for d in self.dislodged:
            if d.unit.province == province:
                return d
        return None

    def powers(self) -> list[Power]:
        """Powers with a unit, a centre or a dislodged unit, by id (the classical seven's ids
        sort in their usual order)."""
        present = {u.power for u in self.units.values()} | set(self.centers.values())
        present |= {d.unit.power for d in self.dislodged}
        return sorted(present)


_PositionTwin: Final[Any] = None if NATIVE else twin(Position)
