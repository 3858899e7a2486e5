"""Typed orders. The parser produces them once, at the edge; nothing downstream splits strings.

Every order keeps the text it came from (`source`), which does not take part in equality.
`canonical()` renders the order in Parley's canonical English notation, the one of
`../shared/datc/` and `docs/formats.md`: `A PAR - BUR`, `A LON - BEL VIA`, `A PAR S A MAR - BUR`,
`A PAR S F BRE`, `F NTH C A LON - BEL`, `A PAR R BUR`, `A PAR D`, `F STP/NC B`, `WAIVE`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.core.compiled.native import mypyc_attr
from bot.core.model import Location, Power, Unit, UnitType


@mypyc_attr(acyclic=True)  # frozen values: never in a cycle, so not tracked by the collector
@dataclass(frozen=True, slots=True, init=False)
class UnitRef:
    """A unit as an order names it: the type may be missing, the nationality is optional."""

    type: UnitType | None
    location: Location
    power: Power | None = None

    def __init__(
        self,
        type: UnitType | None,
        location: Location,
        power: Power | None = None,
    ) -> None:
        object.__setattr__(self, "type", type)
        object.__setattr__(self, "location", location)
        object.__setattr__(self, "power", power)

    @classmethod
    def of(cls, unit: Unit) -> UnitRef:
        return cls(unit.type, unit.location, unit.power)

    @property
    def province(self) -> str:
        return self.location.province

    def canonical(self) -> str:
        return f"{self.type.value} {self.location}" if self.type else str(self.location)


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True, init=False)
class Order:
    """Base of all orders. `power` is the power giving the order (None if not known yet)."""

    power: Power | None
    source: str = field(default="", compare=False, kw_only=True)
    # DATC 4.B.6: provinces written with a coast they do not have (`A PAR - BUR/NC`). The
    # reading drops such a coast; it is kept here until the rule set has ruled (stabbeurfou
    # 4.B.6 refuses the set at entry). Like `source`, not part of equality.
    irrelevant_coasts: tuple[str, ...] = field(default=(), compare=False, kw_only=True)

    def __init__(
        self, power: Power | None, *, source: str = "", irrelevant_coasts: tuple[str, ...] = ()
    ) -> None:
        object.__setattr__(self, "power", power)
        object.__setattr__(self, "source", source)
        object.__setattr__(self, "irrelevant_coasts", irrelevant_coasts)

    def canonical(self) -> str:
        raise NotImplementedError

    def __str__(self) -> str:
        return self.canonical()


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True, init=False)
class UnitOrder(Order):
    unit: UnitRef

    def __init__(
        self,
        power: Power | None,
        unit: UnitRef,
        *,
        source: str = "",
        irrelevant_coasts: tuple[str, ...] = (),
    ) -> None:
        Order.__init__(self, power, source=source, irrelevant_coasts=irrelevant_coasts)
        object.__setattr__(self, "unit", unit)

    def _head(self) -> str:
        return self.unit.canonical()


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True, init=False)
class Hold(UnitOrder):
    def canonical(self) -> str:
        return f"{self._head()} H"


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True, init=False)
class Move(UnitOrder):
    dest: Location
    via_convoy: bool = False

    def __init__(
        self,
        power: Power | None,
        unit: UnitRef,
        dest: Location,
        via_convoy: bool = False,
        *,
        source: str = "",
        irrelevant_coasts: tuple[str, ...] = (),
    ) -> None:
        UnitOrder.__init__(self, power, unit, source=source, irrelevant_coasts=irrelevant_coasts)
        object.__setattr__(self, "dest", dest)
        object.__setattr__(self, "via_convoy", via_convoy)

    def canonical(self) -> str:
        via = " VIA" if self.via_convoy else ""
        return f"{self._head()} - {self.dest}{via}"


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True, init=False)
class SupportHold(UnitOrder):
    target: UnitRef

    def __init__(
        self,
        power: Power | None,
        unit: UnitRef,
        target: UnitRef,
        *,
        source: str = "",
        irrelevant_coasts: tuple[str, ...] = (),
    ) -> None:
        UnitOrder.__init__(self, power, unit, source=source, irrelevant_coasts=irrelevant_coasts)
        object.__setattr__(self, "target", target)

    def canonical(self) -> str:
        return f"{self._head()} S {self.target.canonical()}"


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True, init=False)
class SupportMove(UnitOrder):
    target: UnitRef
    dest: Location

    def __init__(
        self,
        power: Power | None,
        unit: UnitRef,
        target: UnitRef,
        dest: Location,
        *,
        source: str = "",
        irrelevant_coasts: tuple[str, ...] = (),
    ) -> None:
        UnitOrder.__init__(self, power, unit, source=source, irrelevant_coasts=irrelevant_coasts)
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "dest", dest)

    def canonical(self) -> str:
        return f"{self._head()} S {self.target.canonical()} - {self.dest}"


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True, init=False)
class Convoy(UnitOrder):
    target: UnitRef
    dest: Location

    def __init__(
        self,
        power: Power | None,
        unit: UnitRef,
        target: UnitRef,
        dest: Location,
        *,
        source: str = "",
        irrelevant_coasts: tuple[str, ...] = (),
    ) -> None:
        UnitOrder.__init__(self, power, unit, source=source, irrelevant_coasts=irrelevant_coasts)
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "dest", dest)

    def canonical(self) -> str:
        return f"{self._head()} C {self.target.canonical()} - {self.dest}"


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True, init=False)
class Retreat(UnitOrder):
    dest: Location

    def __init__(
        self,
        power: Power | None,
        unit: UnitRef,
        dest: Location,
        *,
        source: str = "",
        irrelevant_coasts: tuple[str, ...] = (),
    ) -> None:
        UnitOrder.__init__(self, power, unit, source=source, irrelevant_coasts=irrelevant_coasts)
        object.__setattr__(self, "dest", dest)

    def canonical(self) -> str:
        return f"{self._head()} R {self.dest}"


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True, init=False)
class Disband(UnitOrder):
    """A retreat-phase disband or an adjustment-phase removal."""

    def canonical(self) -> str:
        return f"{self._head()} D"


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True, init=False)
class Build(UnitOrder):
    def canonical(self) -> str:
        return f"{self._head()} B"


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True, init=False)
class Waive(Order):
    def canonical(self) -> str:
        return "WAIVE"


AnyOrder = Hold | Move | SupportHold | SupportMove | Convoy | Retreat | Disband | Build | Waive
