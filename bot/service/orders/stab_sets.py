"""A Stab! player's set (issue 14; seeds/stab-hidden-movement-variant.txt), read against what
that player knows: their own units only, so that a warning or a refusal never tells them of
another power's unit; the Spring 1901 placement (rule 1) and conditional retreats (rule 4)
read from the set's own lines. Pure; what each viewer may know is `bot.service.hidden.stab`."""

from __future__ import annotations

import re

from bot.core.map import GameMap
from bot.core.model import Location, PhaseKind, Position, Power, UnitType
from bot.core.names import NameTable
from bot.core.orders import Build, Order, Retreat, UnitRef
from bot.core.rules import RuleSet
from bot.core.stab.placement import PlacementError, place, split_placement
from bot.core.stab.retreats import split_retreats
from bot.service.engine import Engine
from bot.service.hidden.stab import CONDITIONAL, LINES, REVEAL, own_view, placing, reveal_order
from bot.service.orders.intake import ReadSet, read_set
from bot.service.texts import t

_RETREAT = re.compile(
    r"^\s*(?:([AF])\s+)?([A-Z]{3})(?:\s*/\s*([A-Z]{2}))?\s+R\s+([A-Z]{3})(?:\s*/\s*([A-Z]{2}))?\s*$",
    re.IGNORECASE,
)


def read_hidden_set(  # noqa: PLR0917 - the pure inputs of one reading, run in a thread
    engine: Engine,
    text: str,
    lang: str,
    power: Power,
    position: Position,
    game_map: GameMap,
    rules: RuleSet,
    mode: str,
) -> ReadSet:
    """A set read against what `power` knows: in Spring 1901 its leading placement lines
    (rule 1, checked by the core: count, home spaces, terrain, coasts), under conditional
    retreats its `F PIC R BEL` lines (rule 4), then its orders. An order for a place where it
    has no unit is a warning about its own units, never "that unit is French"."""
    lines = [s.strip() for s in LINES.split(text) if s.strip()]
    reveal = [line for line in lines if REVEAL.match(line)]
    lines = [line for line in lines if line not in reveal]
    view = own_view(position, power)
    placed: list[Order] = []
    if placing(position):
        head, lines = split_placement(lines)
        if not head:
            return ReadSet([], [t("stab_place_first", lang, year=position.phase.year)])
        try:
            units = place(power, head, game_map, lang).units
        except PlacementError as exc:
            return ReadSet([], [str(exc)])
        view = Position(view.phase, {u.province: u for u in units}, view.centers)
        placed = [Build(power, UnitRef(u.type, u.location, power), source=f"{u}") for u in units]
    written: list[Order] = []
    errors: list[str] = [
        t("stab_reveal_syntax", lang, line=line)
        for line in reveal
        if not all(p in game_map.provinces for p in reveal_order(line, game_map, lang))
    ]
    if mode == CONDITIONAL and position.phase.kind is PhaseKind.MOVEMENT:
        lines, retreat_lines = split_retreats(lines)
        for line in retreat_lines:
            found = _retreat(line, power, view, game_map, lang)
            if isinstance(found, str):
                errors.append(t(found, lang, line=line))
            else:
                written.append(found)
    read = read_set(engine, "\n".join(lines), lang, power, view, game_map, rules)
    return ReadSet(placed + written + read.orders, read.errors + errors, read.refused, read.voided)


def _at(pid: str, coast: str | None, names: NameTable) -> Location:
    """A province and a coast written in either nomenclature (`STP/CN`, `STP/NC`)."""
    found = names.coast([coast]) if coast else None
    return Location(pid, names.coast_for(pid, found) if found else None)


def _retreat(
    line: str, power: Power, view: Position, game_map: GameMap, lang: str
) -> Retreat | str:
    """`F PIC R BEL`: a conditional retreat of one of the player's units, or an error key."""
    m = _RETREAT.match(line)
    if m is None:
        return "stab_retreat_syntax"
    kind, at, coast, to_at, to_coast = (g.upper() if g else None for g in m.groups())
    assert at is not None
    assert to_at is not None
    # The game's nomenclature first, as every order (`A BOU R RHE` in French).
    names = game_map.names()
    pid = names.lookup(at, lang) or at
    dest = names.lookup(to_at, lang)
    unit = view.units.get(pid)
    if unit is None:
        return "stab_retreat_not_yours"
    if dest is None:
        return "stab_retreat_syntax"
    where = _at(pid, coast, names)
    to = _at(dest, to_coast, names)
    ref = UnitRef(UnitType(kind) if kind else unit.type, where, power)
    return Retreat(power, ref, to, source=line)
