"""Player-facing messages of the game core, in the game's language.

The adjudicator and the interpretation step say why an order failed with a `Message`: a key of
the catalogue `data/messages/core.<lang>.toml` and typed parameters (orders, units, locations,
provinces, powers), rendered only when shown, in the game's nomenclature (`A KIE - PAY` for a
French game, not `A KIE - HOL`). `str(message)` is the English text, which is what
`OrderResult.detail` keeps (the `parley adjudicate` output and the DATC tests read it).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from operator import attrgetter
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, TypeAlias

from bot.core.catalogue import (
    DEFAULT_LANG,
    fields,  # noqa: F401 - the tests of the catalogues read it here
    normalise,
    texts,
)
from bot.core.model import Coast, Location, Power, Unit, UnitType
from bot.core.order_text import render_order
from bot.core.orders import Order

if TYPE_CHECKING:
    from bot.core.map import GameMap


@dataclass(frozen=True, slots=True)
class Prov:
    """A province shown by its abbreviation in the game's nomenclature (`HOL` / `PAY`)."""

    pid: str


@dataclass(frozen=True, slots=True)
class Name:
    """A province shown by its full name (`Holland` / `Pays-Bas`), from the game's map; `shown`
    is its name in the default language, for a text rendered without the map (an
    OrderResult's `detail`)."""

    pid: str
    shown: str = ""


@dataclass(frozen=True, slots=True)
class OneOf:
    """Alternatives: `STP/NC or STP/SC` / `STP/CN ou STP/CS`."""

    items: tuple[Param, ...]


@dataclass(frozen=True, slots=True)
class Items:
    """A list: `BUR, PIC`; `none` / `aucune` when empty."""

    items: tuple[Param, ...]
    sep: str = ", "


@dataclass(frozen=True, slots=True)
class Message:
    key: str
    params: tuple[tuple[str, Param], ...] = ()

    def __str__(self) -> str:
        return render(self, DEFAULT_LANG)


# What a message's parameter may be: each is shown in the game's language and nomenclature.
Param: TypeAlias = (
    str
    | int
    | Prov
    | Name
    | OneOf
    | Items
    | Location
    | Unit
    | UnitType
    | Coast
    | Power
    | Order
    | Message
)


_set_key = Message.__dict__["key"].__set__
_set_params = Message.__dict__["params"].__set__


def msg(key: str, **params: Param) -> Message:
    """`Message(key, tuple(params.items()))`, filling the slots directly: the adjudicator
    makes one per failed order, and a frozen dataclass's __init__ costs twice as much."""
    m: Message = object.__new__(Message)
    _set_key(m, key)
    _set_params(m, tuple(params.items()))
    return m


def catalogue(lang: str) -> Mapping[str, str]:
    """`data/messages/core.<lang>.toml` flattened to dotted keys (bot/core/catalogue.py)."""
    return texts("core", lang)


def render(message: Message, lang: str = DEFAULT_LANG, game_map: GameMap | None = None) -> str:
    """The message in `lang`, places and powers named by `game_map` (the game's variant).
    Without a map: the canonical forms, which need no table (ids, English names carried)."""
    if lang == DEFAULT_LANG:  # the adjudicator's `detail`, once per failed order: the short way
        en = catalogue(DEFAULT_LANG)[message.key]
        fast = _EN_FAST
        return en.format(
            **{
                k: f(v) if (f := fast.get(type(v))) else _param(v, DEFAULT_LANG, game_map)
                for k, v in message.params
            }
        )
    lang = normalise(lang)
    template = catalogue(lang).get(message.key) or catalogue(DEFAULT_LANG)[message.key]
    return template.format(**{k: _param(v, lang, game_map) for k, v in message.params})


def _loc(loc: Location, lang: str, game_map: GameMap | None) -> str:
    if lang == DEFAULT_LANG or game_map is None:  # the canonical nomenclature: the ids
        return str(loc)
    names = game_map.names()
    abbr = names.abbreviation(loc.province, lang)
    return abbr if loc.coast is None else f"{abbr}/{names.coast_abbreviation(loc.coast, lang)}"


def render_param(value: Param, lang: str, game_map: GameMap | None = None) -> str:
    """One parameter as a text of `lang` shows it (for the other catalogues' typed values)."""
    return _param(value, normalise(lang), game_map)


def _param(value: Param, lang: str, game_map: GameMap | None) -> str:
    if isinstance(value, Message):
        return render(value, lang, game_map)
    if isinstance(value, str | int) and not isinstance(value, Power | UnitType | Coast):
        return str(value)
    if isinstance(value, Prov):
        return _loc(Location(value.pid), lang, game_map)
    if isinstance(value, Name):
        prov = game_map.provinces.get(value.pid) if game_map is not None else None
        if prov is not None:
            return prov.name(lang)
        return value.shown if lang == DEFAULT_LANG and value.shown else value.pid
    if isinstance(value, Location):
        return _loc(value, lang, game_map)
    if isinstance(value, Unit):
        return f"{value.type.value} {_loc(value.location, lang, game_map)}"
    if isinstance(value, Power):
        # Power names are the variant's; without it, the id's spelling ("France", "North").
        return game_map.power_name(value, lang) if game_map is not None else value.name.title()
    if isinstance(value, UnitType):
        return value.value
    if isinstance(value, Coast):
        if lang == DEFAULT_LANG or game_map is None:
            return value.value
        return game_map.names().coast_abbreviation(value, lang)
    if isinstance(value, OneOf):
        return catalogue(lang)["list.or"].join(_param(i, lang, game_map) for i in value.items)
    if isinstance(value, Items):
        if not value.items:
            return catalogue(lang)["list.none"]
        return value.sep.join(_param(i, lang, game_map) for i in value.items)
    return render_order(value, lang, game_map)


# English forms that need no table (the others go through _param).
_EN_FAST: Mapping[type, Callable[[Any], str]] = MappingProxyType(
    {
        str: str,
        int: str,
        Unit: str,
        Location: str,
        Prov: attrgetter("pid"),
    }
)
