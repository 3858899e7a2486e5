"""The position the next phase starts from: centre ownership after Fall, and the skips."""

from __future__ import annotations

from collections import _count_elements  # type: ignore[attr-defined]
from collections.abc import Hashable, Iterable, Mapping
from functools import lru_cache
from operator import attrgetter
from types import MappingProxyType
from typing import Final, TypeVar

from bot.core.adjudicator.mapindex import MapIndex
from bot.core.model import (
    ADJUSTMENT,
    FALL,
    MOVEMENT,
    RETREAT,
    SPRING,
    WINTER,
    DislodgedUnit,
    Phase,
    Position,
    Power,
    Unit,
)

power_of: Final = attrgetter("power")  # a unit's power, for counts(map(...)) in C
_V = TypeVar("_V")
_K = TypeVar("_K", bound=Hashable)


def counts(items: Iterable[_K]) -> dict[_K, int]:
    """`Counter(items)` as a dict (the same counts, in the order met): counted by Counter's
    own C helper, without its two Python calls and its ABC check (~5k instructions a call;
    issue 18). A key not met is missing, not 0."""
    found: dict[_K, int] = {}
    _count_elements(found, items)
    return found


def copied(m: Mapping[str, _V]) -> dict[str, _V]:
    """`dict(m)`; of a Position's read-only view, its dict's copy: dict() reads a view item by
    item (~2.3 us for a position's 34 centres, ~10x the copy: issue 18)."""
    return m.copy() if type(m) is MappingProxyType else dict(m)


def update_centers(
    units: Mapping[str, Unit], centers: Mapping[str, Power], idx: MapIndex
) -> dict[str, Power]:
    """After the Fall turn (and its retreats) an occupied centre belongs to the occupier."""
    out = copied(centers)
    sc = idx.supply_centers
    out.update({pid: unit.power for pid, unit in units.items() if pid in sc})
    return out


def adjustment_needed(
    units: Mapping[str, Unit], centers: Mapping[str, Power], idx: MapIndex
) -> bool:
    """Does any power have to remove, or have a build it can make? (else the phase is skipped)"""
    # counted in C (over a map), not item by item: once per Fall phase
    n_units = counts(map(power_of, units.values()))
    n_centers = counts(centers.values())
    for power, have in n_units.items():
        if have > n_centers.get(power, 0):
            return True
    homes = idx.homes
    for power, own in n_centers.items():
        if own > n_units.get(power, 0) and any(
            centers.get(h) is power and h not in units for h in homes.get(power, ())
        ):
            return True
    return False


@lru_cache(maxsize=256)
def _phases(year: int) -> tuple[Phase, Phase, Phase, Phase, Phase]:
    """The phases that follow one of `year`'s (a Phase is immutable: made once, shared, not
    ~9,000 instructions per phase adjudicated): Spring retreats, Fall moves and retreats,
    Winter, and the next year's Spring moves."""
    return (
        Phase(year, SPRING, RETREAT),
        Phase(year, FALL, MOVEMENT),
        Phase(year, FALL, RETREAT),
        Phase(year, WINTER, ADJUSTMENT),
        Phase(year + 1, SPRING, MOVEMENT),
    )


def next_position(
    done: Phase,
    units: dict[str, Unit],
    centers: Mapping[str, Power],
    idx: MapIndex,
    waiting: Iterable[DislodgedUnit] = (),
) -> Position:
    """The position after phase `done`, skipping a retreat phase with nobody to retreat and an
    adjustment phase where nobody builds or removes.

    `units` is a dict the caller built for the new position and hands over (it is not copied);
    `centers` is not changed (a new dict is made when ownership changes)."""
    year, season, kind = done.year, done.season, done.kind
    waiting = tuple(waiting)
    # Position.adopt: `units` is fresh and `centers` is the old position's read-only view or a
    # dict made here, so the constructor's defensive copies are not needed.
    kept = centers if isinstance(centers, MappingProxyType) else dict(centers)
    if kind is MOVEMENT and waiting:
        retreats = _phases(year)[0 if season is SPRING else 2]
        return Position.adopt(retreats, units, kept, waiting)
    if kind is not ADJUSTMENT:
        if season is SPRING:
            return Position.adopt(_phases(year)[1], units, kept)
        new_centers = update_centers(units, centers, idx)
        if adjustment_needed(units, new_centers, idx):
            return Position.adopt(_phases(year)[3], units, new_centers)
        return Position.adopt(_phases(year)[4], units, new_centers)
    return Position.adopt(_phases(year)[4], units, kept)
