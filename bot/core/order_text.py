"""An order in words: the English canonical notation, or the French one with Descartes
abbreviations (stabbeurfou section 4), places in the game map's nomenclature. Below the
parser, the results notation and the core's messages, which all write orders this way."""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass

from bot.core.catalogue import is_default, normalise, text
from bot.core.map import GameMap
from bot.core.model import Coast, Location
from bot.core.names import NameTable
from bot.core.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Retreat,
    SupportHold,
    SupportMove,
    UnitOrder,
    UnitRef,
    Waive,
)


@dataclass(frozen=True, slots=True)
class _Words:
    hold: str
    support: str
    convoy: str
    retreat: str
    disband: str
    build: str
    waive: str
    via: str
    cut: str
    dislodged: str
    destroyed: str
    invalid: str
    failed: str
    paradox: str


@functools.cache
def words(lang: str) -> _Words:
    """The notation's words in `lang`: `[notation]` of the core catalogue."""
    return _Words(*(text("core", f"notation.{f.name}", lang) for f in dataclasses.fields(_Words)))


def _place(loc: Location, lang: str, names: NameTable | None) -> str:
    # Without the game's map (or for a place not on it): the ids, the canonical nomenclature.
    if names is None or loc.province not in names.province_ids:
        return str(loc)
    text = names.abbreviation(loc.province, lang)
    if loc.coast is not None:
        text += "/" + names.coast_abbreviation(Coast(loc.coast), lang)
    return text


def _unit(ref: UnitRef, lang: str, names: NameTable | None) -> str:
    where = _place(ref.location, lang, names)
    return f"{ref.type.value} {where}" if ref.type else where


def render(
    order: Order, lang: str = "en", *, lower: bool = False, game_map: GameMap | None = None
) -> str:
    """The order in the notation's words, places in the nomenclature of `game_map` (the
    game's map; without it, the ids); `lower` writes its word in lower case (failed)."""
    w = words(normalise(lang))
    names = game_map.names() if game_map is not None else None

    def kw(word: str) -> str:
        return word.lower() if lower else word

    if isinstance(order, Waive):
        return w.waive.lower() if lower else w.waive
    if not isinstance(order, UnitOrder):
        return order.canonical()
    head = _unit(order.unit, lang, names)
    if isinstance(order, Hold):
        return f"{head} {kw(w.hold)}"
    if isinstance(order, Move):
        via = f" {w.via}" if order.via_convoy else ""
        return f"{head} - {_place(order.dest, lang, names)}{via}"
    if isinstance(order, SupportHold):
        return f"{head} {kw(w.support)} {_unit(order.target, lang, names)}"
    if isinstance(order, SupportMove):
        dest = _place(order.dest, lang, names)
        return f"{head} {kw(w.support)} {_unit(order.target, lang, names)} - {dest}"
    if isinstance(order, Convoy):
        dest = _place(order.dest, lang, names)
        return f"{head} {kw(w.convoy)} {_unit(order.target, lang, names)} - {dest}"
    if isinstance(order, Retreat):
        return f"{head} {kw(w.retreat)} {_place(order.dest, lang, names)}"
    if isinstance(order, Disband):
        return f"{head} {kw(w.disband)}"
    if isinstance(order, Build):
        return f"{head} {kw(w.build)}"
    return order.canonical()


def render_order(order: Order, lang: str = "en", game_map: GameMap | None = None) -> str:
    """English canonical notation, or French notation with Descartes abbreviations.

    French: `A PAR - BOU`, `A PAR T` (tient), `A PAR S A TOU - BOU`, `F NRD C A LON - BEL`,
    `A LON - BEL PAR CONVOI`, `A PAR R PIC`, `A PAR D`, `F STP/CN B`, `RENONCE`; every one
    of them parses back to the same order with lang="fr". The places are in the nomenclature
    of `game_map`, the game's map (without it, the ids).
    """
    if is_default(lang):
        return order.canonical()
    return render(order, normalise(lang), game_map=game_map)
