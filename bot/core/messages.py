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
from typing import Any, TypeAlias

from bot.core.catalogue import (
    DEFAULT_LANG,
    fields,  # noqa: F401 - the tests of the catalogues read it here
    normalise,
    texts,
)
from bot.core.model import Coast, Location, Power, Unit, UnitType
from bot.core.orders import Order


@dataclass(frozen=True, slots=True)
class Prov:
    """A province shown by its abbreviation in the game's nomenclature (`HOL` / `PAY`)."""

    pid: str


@dataclass(frozen=True, slots=True)
class Name:
    """A province shown by its full name (`Holland` / `Pays-Bas`)."""

    pid: str


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


def render(message: Message, lang: str = DEFAULT_LANG) -> str:
    if lang == DEFAULT_LANG:  # the adjudicator's `detail`, once per failed order: the short way
        en = catalogue(DEFAULT_LANG)[message.key]
        fast = _EN_FAST
        return en.format(
            **{
                k: f(v) if (f := fast.get(type(v))) else _param(v, DEFAULT_LANG)
                for k, v in message.params
            }
        )
    lang = normalise(lang)
    template = catalogue(lang).get(message.key) or catalogue(DEFAULT_LANG)[message.key]
    return template.format(**{k: _param(v, lang) for k, v in message.params})


def _loc(loc: Location, lang: str) -> str:
    if lang == DEFAULT_LANG:  # the canonical nomenclature: the ids themselves
        return str(loc)
    from bot.core.names import load_names  # noqa: PLC0415 - the parser's tables, lazily

    names = load_names("standard")
    abbr = names.abbreviation(loc.province, lang)
    return abbr if loc.coast is None else f"{abbr}/{names.coast_abbreviation(loc.coast, lang)}"


def render_param(value: Param, lang: str) -> str:
    """One parameter as a text of `lang` shows it (for the other catalogues' typed values)."""
    return _param(value, normalise(lang))


def _param(value: Param, lang: str) -> str:
    if isinstance(value, Message):
        return render(value, lang)
    if isinstance(value, str | int) and not isinstance(value, Power | UnitType | Coast):
        return str(value)
    if isinstance(value, Prov):
        return value.pid if lang == DEFAULT_LANG else _loc(Location(value.pid), lang)
    if isinstance(value, Name):
        from bot.core.map import MapError, load_map  # noqa: PLC0415 - the standard map, cached

        try:
            return load_map("standard").province(value.pid).name(lang)
        except (KeyError, MapError):
            return value.pid
    if isinstance(value, Location):
        return _loc(value, lang)
    if isinstance(value, Unit):
        return f"{value.type.value} {_loc(value.location, lang)}"
    if isinstance(value, Power):
        if lang == DEFAULT_LANG:
            return value.name.title()
        # The classical seven's names are in the catalogue; another variant's powers show
        # their id ("North").
        return catalogue(lang).get(f"power.{value.value}", value.name.title())
    if isinstance(value, UnitType):
        return value.value
    if isinstance(value, Coast):
        if lang == DEFAULT_LANG:
            return value.value
        from bot.core.names import load_names  # noqa: PLC0415

        return load_names("standard").coast_abbreviation(value, lang)
    if isinstance(value, OneOf):
        return catalogue(lang)["list.or"].join(_param(i, lang) for i in value.items)
    if isinstance(value, Items):
        if not value.items:
            return catalogue(lang)["list.none"]
        return value.sep.join(_param(i, lang) for i in value.items)
    from bot.core.parser import render_order  # noqa: PLC0415 - the parser imports the core

    return render_order(value, lang)


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
