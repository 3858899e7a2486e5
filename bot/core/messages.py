"""Player-facing messages of the game core, in the game's language.

The adjudicator and the interpretation step say why an order failed with a `Message`: a key of
the catalogue `data/messages/core.<lang>.toml` and typed parameters (orders, units, locations,
provinces, powers), rendered only when shown, in the game's nomenclature (`A KIE - PAY` for a
French game, not `A KIE - HOL`). `str(message)` is the English text, which is what
`OrderResult.detail` keeps (the `parley adjudicate` output and the DATC tests read it).
"""

from __future__ import annotations

import functools
import string
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from operator import attrgetter
from types import MappingProxyType
from typing import Any, TypeAlias

from bot.core.model import Coast, Location, Power, Unit, UnitType
from bot.core.orders import Order
from bot.paths import data_dir


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
        return render(self, "en")


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


@functools.cache
def catalogue(lang: str) -> Mapping[str, str]:
    """`data/messages/core.<lang>.toml` flattened to dotted keys."""
    path = data_dir() / "messages" / f"core.{lang}.toml"
    with path.open("rb") as fh:
        doc = tomllib.load(fh)
    out: dict[str, str] = {}

    def walk(table: Mapping[str, Any], prefix: str) -> None:
        for k, v in table.items():
            if isinstance(v, Mapping):
                walk(v, f"{prefix}{k}.")
            else:
                out[f"{prefix}{k}"] = str(v)

    walk(doc, "")
    return out


def fields(template: str) -> frozenset[str]:
    """The parameter names a catalogue text uses."""
    return frozenset(f for _, f, _, _ in string.Formatter().parse(template) if f)


def _lang(lang: str) -> str:
    return "fr" if lang.lower().startswith("fr") else "en"


def render(message: Message, lang: str = "en") -> str:
    if lang == "en":  # the adjudicator's `detail`, once per failed order: the short way
        en = catalogue("en")[message.key]
        fast = _EN_FAST
        return en.format(
            **{k: f(v) if (f := fast.get(type(v))) else _param(v, "en") for k, v in message.params}
        )
    lang = _lang(lang)
    texts = catalogue(lang)
    template = texts.get(message.key) or catalogue("en")[message.key]
    return template.format(**{k: _param(v, lang) for k, v in message.params})


def _loc(loc: Location, lang: str) -> str:
    if lang == "en":
        return str(loc)
    from bot.core.names import load_names  # noqa: PLC0415 - the parser's tables, lazily

    names = load_names("standard")
    abbr = names.abbreviation(loc.province, "fr")
    return abbr if loc.coast is None else f"{abbr}/{names.coast_abbreviation(loc.coast, 'fr')}"


def _param(value: Param, lang: str) -> str:
    if isinstance(value, Message):
        return render(value, lang)
    if isinstance(value, str | int) and not isinstance(value, Power | UnitType | Coast):
        return str(value)
    if isinstance(value, Prov):
        return value.pid if lang == "en" else _loc(Location(value.pid), lang)
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
        # The classical seven's French names are in the catalogue; other variants' powers
        # show their id ("North").
        if lang == "en":
            return value.name.title()
        return catalogue(lang).get(f"power.{value.value}", value.name.title())
    if isinstance(value, UnitType):
        return value.value
    if isinstance(value, Coast):
        if lang == "en":
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
