"""A player's own abbreviations, agreed with the GM (gm-order-correction I(1)).

"a player may submit an individual list of preferred abbreviations with the GM provided that
he does it at the outset of the game (or if he is a replacement not later than he submits his
first set of orders) ... Once any additional abbreviations list is agreed between the player
and the GM it will be made public to all players at the outset of the game."

The GM enters the agreed list (`wmed = WES; lon = LON`); it is kept in the game's meta
(`abbreviations`: {power: {abbr: location}}), published to the table at once, and each of the
player's sets is read with the abbreviations expanded (whole words, any case) before parsing.
"""

from __future__ import annotations

import re

from bot.core.map import GameMap
from bot.core.model import Location, ModelError
from bot.service.errors import InvalidStateError

META_KEY = "abbreviations"
# Order words and unit types are never an abbreviation (they would change every order).
_RESERVED = {
    "A", "F", "S", "H", "C", "R", "B", "D", "T", "P", "M", "V", "X", "XXX", "VIA", "SUP",
    "HOLD", "HOLDS", "SUPPORT", "SUPPORTS", "CONVOY", "CONVOYS", "MOVE", "BUILD", "DISBAND",
    "REMOVE", "RETREAT", "WAIVE", "ARMY", "FLEET", "NC", "SC", "EC", "WC",
}  # fmt: skip
_ABBR = re.compile(r"[A-Za-z][A-Za-z.]+")


def parse_list(text: str, game_map: GameMap, lang: str) -> dict[str, str]:
    """{ABBR: location} from `abbr = LOC` lines (or `;`-separated); refused whole if one entry
    is unreadable, reserved, a province's own abbreviation, or names no province."""
    found: dict[str, str] = {}
    for raw in text.replace(";", "\n").splitlines():
        entry = raw.strip()
        if not entry:
            continue
        abbr, sep, target = entry.replace(":", "=").partition("=")
        abbr, target = abbr.strip(), target.strip()
        if not sep or not _ABBR.fullmatch(abbr):
            raise InvalidStateError.of("abbr_unreadable", lang, entry=entry)
        key = abbr.upper()
        if key in _RESERVED or key in game_map.provinces:
            raise InvalidStateError.of("abbr_reserved", lang, abbr=abbr)
        try:
            loc = Location.parse(target)
        except ModelError:
            loc = None
        if loc is None or loc.province not in game_map.provinces:
            raise InvalidStateError.of("abbr_no_province", lang, entry=entry)
        found[key] = str(loc)
    return found


def expand(text: str, abbreviations: dict[str, str]) -> str:
    """The set with the player's abbreviations replaced by their locations."""
    for abbr, loc in sorted(abbreviations.items(), key=lambda kv: -len(kv[0])):
        text = re.sub(rf"(?<![\w./]){re.escape(abbr)}(?![\w/])", loc, text, flags=re.IGNORECASE)
    return text
