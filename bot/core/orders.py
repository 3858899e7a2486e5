"""Typed orders. The parser produces them once, at the edge; nothing downstream splits strings.

Every order keeps the text it came from (`source`), which does not take part in equality.
`canonical()` renders the order in Parley's canonical English notation, the one of
`../shared/datc/` and `docs/formats.md`: `A PAR - BUR`, `A LON - BEL VIA`, `A PAR S A MAR - BUR`,
`A PAR S F BRE`, `F NTH C A LON - BEL`, `A PAR R BUR`, `A PAR D`, `F STP/NC B`, `WAIVE`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.core.model import Location, Power, Unit, UnitType


@dataclass(frozen=True, slots=True)
class UnitRef:
    """A unit as an order names it: the type may be missing, the nationality is optional."""

    type: UnitType | None
    location: Location
    power: Power | None = None

    @classmethod
    def of(cls, unit: Unit) -> UnitRef:
        return cls(unit.type, unit.location, unit.power)

    @property
    def province(self) -> str:
        return self.location.province

    def canonical(self) -> str:
        return f"{self.type.value} {self.location}" if self.type else str(self.location)


@dataclass(frozen=True, slots=True)
class Order:
    """Base of all orders. `power` is the power giving the order (None if not known yet)."""

    power: Power | None
    source: str = field(default="", compare=False, kw_only=True)
    # DATC 4.B.6: provinces written with a coast they do not have (`A PAR - BUR/NC`). The
    # reading drops such a coast; it is kept here until the rule set has ruled (stabbeurfou
    # 4.B.6 refuses the set at entry). Like `source`, not part of equality.
    irrelevant_coasts: tuple[str, ...] = field(default=(), compare=False, kw_only=True)

    def canonical(self) -> str:
        raise NotImplementedError

    def __str__(self) -> str:
        return self.canonical()


@dataclass(frozen=True, slots=True)
class UnitOrder(Order):
    unit: UnitRef

    def _head(self) -> str:
        return self.unit.canonical()


@dataclass(frozen=True, slots=True)
class Hold(UnitOrder):
    def canonical(self) -> str:
        return f"{self._head()} H"


@dataclass(frozen=True, slots=True)
class Move(UnitOrder):
    dest: Location
    via_convoy: bool = False

    def canonical(self) -> str:
        via = " VIA" if self.via_convoy else ""
        return f"{self._head()} - {self.dest}{via}"


@dataclass(frozen=True, slots=True)
class SupportHold(UnitOrder):
    target: UnitRef

    def canonical(self) -> str:
        return f"{self._head()} S {self.target.canonical()}"


@dataclass(frozen=True, slots=True)
class SupportMove(UnitOrder):
    target: UnitRef
    dest: Location

    def canonical(self) -> str:
        return f"{self._head()} S {self.target.canonical()} - {self.dest}"


@dataclass(frozen=True, slots=True)
class Convoy(UnitOrder):
    target: UnitRef
    dest: Location

    def canonical(self) -> str:
        return f"{self._head()} C {self.target.canonical()} - {self.dest}"


@dataclass(frozen=True, slots=True)
class Retreat(UnitOrder):
    dest: Location

    def canonical(self) -> str:
        return f"{self._head()} R {self.dest}"


@dataclass(frozen=True, slots=True)
class Disband(UnitOrder):
    """A retreat-phase disband or an adjustment-phase removal."""

    def canonical(self) -> str:
        return f"{self._head()} D"


@dataclass(frozen=True, slots=True)
class Build(UnitOrder):
    def canonical(self) -> str:
        return f"{self._head()} B"


@dataclass(frozen=True, slots=True)
class Waive(Order):
    def canonical(self) -> str:
        return "WAIVE"


AnyOrder = Hold | Move | SupportHold | SupportMove | Convoy | Retreat | Disband | Build | Waive
