"""The POSITION JSON format of `docs/formats.md`, read and written.

`{"phase": "S1901M", "units": {"FRANCE": ["A PAR", "F STP/SC"]}, "centers": {"FRANCE": ["PAR"]},
  "dislodged": [{"power": "FRANCE", "unit": "A PAR", "attacker_from": "BUR", "retreats": ["PIC"]}]}`
Power names are case-insensitive on input and upper case on output.
"""

from __future__ import annotations

import difflib
import functools
from collections.abc import Iterable, Mapping
from typing import Any

from bot.core.map import GameMap
from bot.core.model import (
    DislodgedUnit,
    ModelError,
    Phase,
    PhaseKind,
    Position,
    Power,
    Unit,
    UnitType,
)
from bot.core.outcome import Outcome


class FormatError(ValueError):
    """A JSON document that does not follow docs/formats.md; the message says where."""


def _power(name: object, where: str, game_map: GameMap | None) -> Power:
    """A power of the map (any of its names), or without a map any power id in any case."""
    if not isinstance(name, str):
        raise FormatError(f"{where}: power must be a string, not {name!r}")
    try:
        return game_map.parse_power(name) if game_map is not None else Power.of(name)
    except ModelError:
        raise FormatError(f"{where}: unknown power {name!r}") from None


POSITION_KEYS = ("phase", "units", "centers", "dislodged")


def unknown_key(doc: Mapping[str, Any], known: Iterable[str], where: str) -> str | None:
    """The error for the first key of `doc` not in `known` (a typo, or a translated key such
    as `"ordres"`, would otherwise be silently ignored: all units holding), else None."""
    allowed = list(known)
    for key in doc:
        if key not in allowed:
            close = difflib.get_close_matches(str(key).casefold(), allowed, n=1, cutoff=0.6)
            if close:
                return f"{where}: unknown key {key!r} (did you mean {close[0]!r}?)"
            return f"{where}: unknown key {key!r} (known keys: {', '.join(allowed)})"
    return None


# Units are immutable and the same few hundred recur in every position of a bulk run (issue 18).
_unit = functools.lru_cache(maxsize=4096)(Unit.parse)


def position_from_json(doc: object, game_map: GameMap | None = None) -> Position:
    """Parse and check a POSITION document; every problem is a FormatError naming its place."""
    if not isinstance(doc, Mapping):
        raise FormatError("position: expected a JSON object")
    if (bad := unknown_key(doc, POSITION_KEYS, "position")) is not None:
        raise FormatError(bad)
    if "phase" not in doc:
        raise FormatError('position: missing "phase" (e.g. "S1901M")')
    try:
        phase = Phase.parse(str(doc.get("phase", "")))
    except ModelError as exc:
        raise FormatError(f"position.phase: {exc}") from None
    units: list[Unit] = []
    raw_units = doc.get("units", {})
    if not isinstance(raw_units, Mapping):
        raise FormatError("position.units: expected an object of power -> list of units")
    for pname, texts in raw_units.items():
        power = _power(pname, "position.units", game_map)
        if not isinstance(texts, list):
            raise FormatError(f"position.units.{pname}: expected a list")
        for text in texts:
            try:
                units.append(_unit(power, str(text)))
            except ModelError as exc:
                raise FormatError(f"position.units.{pname}: {exc}") from None
    centers: dict[str, Power] = {}
    raw_centers = doc.get("centers", {})
    if not isinstance(raw_centers, Mapping):
        raise FormatError("position.centers: expected an object of power -> list of provinces")
    for pname, provs in raw_centers.items():
        power = _power(pname, "position.centers", game_map)
        if not isinstance(provs, list):
            raise FormatError(f"position.centers.{pname}: expected a list")
        for p in provs:
            pid = str(p).upper()
            if pid in centers:
                raise FormatError(f"position.centers: {pid} is owned twice")
            centers[pid] = power
    dislodged: list[DislodgedUnit] = []
    raw_dis = doc.get("dislodged", [])
    if not isinstance(raw_dis, list):
        raise FormatError("position.dislodged: expected a list")
    for i, d in enumerate(raw_dis):
        where = f"position.dislodged[{i}]"
        if not isinstance(d, Mapping):
            raise FormatError(f"{where}: expected an object")
        power = _power(d.get("power"), where, game_map)
        try:
            unit = Unit.parse(power, str(d.get("unit", "")))
        except ModelError as exc:
            raise FormatError(f"{where}: {exc}") from None
        retreats = d.get("retreats", [])
        if not isinstance(retreats, list):
            raise FormatError(f"{where}.retreats: expected a list")
        dislodged.append(
            DislodgedUnit(
                unit,
                str(d.get("attacker_from", "")).upper(),
                frozenset(str(r).upper().split("/")[0] for r in retreats),
            )
        )
    if dislodged and phase.kind is not PhaseKind.RETREAT:
        # Issue 3: units await retreat only in a retreat phase; dropping them would be a guess.
        raise FormatError(
            f"position.dislodged: units await retreat only in a retreat phase, not in {phase}"
        )
    try:
        position = Position.build(phase, units, centers, dislodged)
    except ModelError as exc:
        raise FormatError(f"position.units: {exc}") from None
    if game_map is not None:
        _check_against_map(position, game_map)
    return position


def occupy_error(unit: Unit, game_map: GameMap) -> str:
    """Why `unit` cannot stand where it is, for a position file's author."""
    coasts = game_map.provinces[unit.province].coasts
    if unit.type is UnitType.FLEET and coasts and unit.location.coast is None:
        options = " or ".join(f"F {unit.province}/{c}" for c in sorted(coasts))
        return f"{unit}: a fleet there stands on a coast: write {options}"
    return f"{unit} cannot stand in {unit.location}"


def _check_against_map(position: Position, game_map: GameMap) -> None:
    for u in [*position.units.values(), *(d.unit for d in position.dislodged)]:
        if u.province not in game_map.provinces:
            raise FormatError(f"position: unknown province {u.province!r} in unit {u}")
        if not game_map.can_occupy(u.type, u.location):
            raise FormatError(f"position: {occupy_error(u, game_map)}")
    for pid in position.centers:
        if pid not in game_map.supply_centers:
            raise FormatError(f"position.centers: {pid} is not a supply centre")
    for d in position.dislodged:
        for r in (*d.retreats, *([d.attacker_from] if d.attacker_from else [])):
            if r not in game_map.provinces:
                raise FormatError(f"position.dislodged: unknown province {r!r}")


def position_to_json(position: Position) -> dict[str, Any]:
    """Write a POSITION: powers upper case and sorted, units sorted, no empty lists."""
    units: dict[str, list[str]] = {}
    for u in position.units.values():
        units.setdefault(u.power.value, []).append(str(u))
    centers: dict[str, list[str]] = {}
    for pid, owner in position.centers.items():
        centers.setdefault(owner.value, []).append(pid)
    doc: dict[str, Any] = {
        "phase": str(position.phase),
        "units": {p: sorted(v) for p, v in sorted(units.items())},
        "centers": {p: sorted(v) for p, v in sorted(centers.items())},
    }
    if position.dislodged:
        doc["dislodged"] = [
            {
                "power": d.unit.power.value,
                "unit": str(d.unit),
                "attacker_from": d.attacker_from,
                "retreats": sorted(d.retreats),
            }
            for d in position.dislodged
        ]
    return doc


def retreat_locations(unit: Unit, retreats: Iterable[str], game_map: GameMap) -> list[str]:
    """A fleet's retreat options with the coast it can reach (`SPA/NC`, `SPA/SC`), as the
    corpus records them; an army's, or a fleet's into a one-coast province, as provinces."""
    out: list[str] = []
    for pid in sorted(retreats):
        if unit.type is UnitType.FLEET and game_map.provinces[pid].coasts:
            out += [str(loc) for loc in game_map.reachable_coasts(unit.location, pid)] or [pid]
        else:
            out.append(pid)
    return out


def _dislodged_json(
    d: DislodgedUnit, game_map: GameMap, removed: tuple[Unit, ...] = ()
) -> dict[str, Any]:
    if d.retreats and d.unit in removed:
        # stabbeurfou 3(a): destroyed at once by the Fall moves, its options never used
        return {
            "power": d.unit.power.value,
            "unit": str(d.unit),
            "attacker_from": d.attacker_from,
            "retreats": [],
            "destroyed": True,
        }
    return {
        "power": d.unit.power.value,
        "unit": str(d.unit),
        "attacker_from": d.attacker_from,
        "retreats": retreat_locations(d.unit, d.retreats, game_map),
    }


def outcome_to_json(outcome: Outcome, game_map: GameMap) -> dict[str, Any]:
    """The output document of `parley adjudicate` (docs/formats.md): results, dislodged units
    and the next position, fleets' retreat options with their coasts."""
    results = []
    for r in outcome.results:
        item: dict[str, Any] = {
            "power": r.power.value if r.power else None,
            "order": r.order.canonical(),
            "outcome": r.verdict.value,
            "reason": r.reason.value,
        }
        detail = r.detail  # a property that renders a message: read it once
        if detail:
            item["detail"] = detail
        if r.implied:
            item["implied"] = True
        results.append(item)
    position = position_to_json(outcome.position)
    if outcome.position.dislodged:
        position["dislodged"] = [_dislodged_json(d, game_map) for d in outcome.position.dislodged]
    return {
        "results": results,
        "dislodged": [_dislodged_json(d, game_map, outcome.removed) for d in outcome.dislodged],
        "position": position,
    }
