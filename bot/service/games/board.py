"""A GM's board edit (house VIII(2)/(3)): remove or place a unit, set a centre's owner, on the
current phase's position before it is adjudicated; audited and announced to the table.

The edit is one line: `remove A PAR`, `place F BRE France`, `centre BEL Germany` (or `none`),
French words too (`retirer`, `placer`, `centre ... neutre`). Bad input changes nothing.
"""

from __future__ import annotations

from bot.core.map import GameMap
from bot.core.model import Location, ModelError, Position, Power, Unit
from bot.service.errors import InvalidStateError
from bot.service.table import parse_power

_REMOVE = {"remove", "retirer", "supprimer"}
_PLACE = {"place", "placer", "add", "ajouter"}
_CENTRE = {"centre", "center", "sc"}
_NOBODY = {"none", "neutral", "neutre", "aucun", "personne"}


def apply_edit(text: str, position: Position, game_map: GameMap, lang: str) -> Position:
    """The position after the edit `text`; InvalidStateError (in `lang`) if it cannot be done."""
    words = text.split()
    verb = words[0].lower() if words else ""
    try:
        if verb in _REMOVE and len(words) == 3:
            return _remove(Location.parse(words[2]).province, words[1], position, lang)
        if verb in _PLACE and len(words) == 4:
            power = parse_power(words[3], game_map)
            return _place(Unit.parse(power, " ".join(words[1:3])), position, game_map, lang)
        if verb in _CENTRE and len(words) == 3:
            owner = None if words[2].lower() in _NOBODY else parse_power(words[2], game_map)
            return _centre(Location.parse(words[1]).province, owner, position, game_map, lang)
    except ModelError:
        pass
    raise InvalidStateError.of("edit_unreadable", lang, text=text)


def _remove(province: str, kind: str, position: Position, lang: str) -> Position:
    unit = position.units.get(province)
    if unit is None or unit.type.value != kind.upper():
        raise InvalidStateError.of("edit_no_unit", lang, unit=f"{kind.upper()} {province}")
    units = {p: u for p, u in position.units.items() if p != province}
    return Position(position.phase, units, position.centers, position.dislodged)


def _place(unit: Unit, position: Position, game_map: GameMap, lang: str) -> Position:
    if unit.province not in game_map.provinces or not game_map.can_occupy(unit.type, unit.location):
        raise InvalidStateError.of("edit_cannot_stand", lang, unit=str(unit))
    if unit.province in position.units:
        raise InvalidStateError.of("edit_occupied", lang, province=unit.province)
    units = {**position.units, unit.province: unit}
    return Position(position.phase, units, position.centers, position.dislodged)


def _centre(
    province: str, owner: Power | None, position: Position, game_map: GameMap, lang: str
) -> Position:
    if province not in game_map.supply_centers:
        raise InvalidStateError.of("edit_not_centre", lang, province=province)
    centers = {p: o for p, o in position.centers.items() if p != province}
    if owner is not None:
        centers[province] = owner
    return Position(position.phase, position.units, centers, position.dislodged)
