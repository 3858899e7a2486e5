"""Every player-facing text, from the TOML catalogues in `data/`: the one loader and lookup.

A catalogue is a *domain* kept as one TOML file per language:

    core      data/messages/core.<lang>.toml     the game core: failed orders, votes, standings,
                                                 phase names, notation words, parser errors;
                                                 and `[meta]`, the language itself
    service   data/messages/service.<lang>.toml  the table service's replies and errors
    bot       data/i18n/<lang>.toml              the Discord bot's replies; `[commands]` holds
                                                 the slash commands' names and help
    render    data/messages/render.<lang>.toml   the map legend and the centre chart
    cli       data/messages/cli.<lang>.toml      `parley demo`'s report
    tournament data/messages/tournament.<lang>.toml tournaments: the service's refusals, the
                                                 /tournament replies, the standings picture
    casual    data/messages/casual.<lang>.toml   casual servers: game channels, private press,
                                                 schedules, absences

The languages are the `<lang>` of the `core.<lang>.toml` files present: adding a language is
adding files (docs/translating.md). This module is the only place that knows a language code;
everywhere else a language is a value passed along (tests/bot/core/test_catalogue.py checks it).

A text is a `str.format` template. Plural forms are keys `<key>.<category>` (`saved.one`,
`saved.other`); `text()` picks one by the parameter `n` under the language's rule, named in
`[meta] plural` (the table `PLURAL_RULES` below). Tables of words that are not sentences
(province names in `data/maps/standard_names.json`, parser keywords) stay data, looked up by
language the same way.
"""

from __future__ import annotations

import functools
import re
import string
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from bot.paths import data_dir

DEFAULT_LANG = "en"  # the canonical nomenclature (province ids), and the fallback of every text

# domain -> the file of a language, relative to data/
_FILES: Mapping[str, str] = MappingProxyType(
    {
        "core": "messages/core.{lang}.toml",
        "service": "messages/service.{lang}.toml",
        "bot": "i18n/{lang}.toml",
        "render": "messages/render.{lang}.toml",
        "cli": "messages/cli.{lang}.toml",
        "tournament": "messages/tournament.{lang}.toml",
        "builder": "messages/builder.{lang}.toml",
        "embeds": "messages/embeds.{lang}.toml",
        "casual": "messages/casual.{lang}.toml",
    }
)
DOMAINS = tuple(_FILES)

# [meta] plural -> (the categories it uses, the category of a count). Add a rule for a
# language whose plurals these do not describe (e.g. one/few/many).
PLURAL_RULES: Mapping[str, tuple[tuple[str, ...], Callable[[int], str]]] = MappingProxyType(
    {
        "one_if_1": (("one", "other"), lambda n: "one" if n == 1 else "other"),
        "one_if_0_or_1": (("one", "other"), lambda n: "one" if n in (0, 1) else "other"),
        "other_only": (("other",), lambda n: "other"),  # noqa: ARG005 - one form for every n
    }
)
PLURAL_CATEGORIES = ("zero", "one", "two", "few", "many", "other")

# Sections of a file that are not texts looked up by key.
_NOT_TEXTS = frozenset({"meta", "commands"})


@dataclass(frozen=True, slots=True)
class Meta:
    """A language as its `[meta]` says: English name (for menus), plural rule, typography."""

    code: str
    name: str
    plural: str
    colon: str  # before a colon: "" in English, a (narrow) space in French
    decimal: str  # decimal separator of scores


@functools.cache
def languages() -> tuple[str, ...]:
    """The languages whose core catalogue is present, the default first."""
    found = sorted(p.name.split(".")[1] for p in (data_dir() / "messages").glob("core.*.toml"))
    return tuple(sorted(found, key=lambda code: code != DEFAULT_LANG))


def normalise(value: object) -> str:
    """'fr', 'fr-FR', 'FR', discord's Locale.french -> 'fr'; an unknown language -> default."""
    text = str(getattr(value, "value", value) or "").lower()
    code = re.split(r"[-_]", text, maxsplit=1)[0]
    return code if code in languages() else DEFAULT_LANG


def is_default(lang: str) -> bool:
    """Does `lang` write places by their canonical ids (`PAR`, `BUR`), as English does?"""
    return normalise(lang) == DEFAULT_LANG


@functools.cache
def raw(domain: str, lang: str) -> Mapping[str, Any]:
    """A catalogue file as TOML reads it; empty if that language lacks the file."""
    path = data_dir() / _FILES[domain].format(lang=lang)
    if not path.is_file():
        return {}
    with path.open("rb") as fh:
        return tomllib.load(fh)


@functools.cache
def texts(domain: str, lang: str) -> Mapping[str, str]:
    """A catalogue flattened to dotted keys (`illegal.no_unit`), without `[meta]`/`[commands]`."""
    out: dict[str, str] = {}

    def walk(table: Mapping[str, Any], prefix: str) -> None:
        for k, v in table.items():
            if not prefix and k in _NOT_TEXTS:
                continue
            if isinstance(v, Mapping):
                walk(v, f"{prefix}{k}.")
            else:
                out[f"{prefix}{k}"] = str(v)

    walk(raw(domain, lang), "")
    return MappingProxyType(out)


@functools.cache
def meta(lang: str) -> Meta:
    m = raw("core", normalise(lang)).get("meta", {})
    code = normalise(lang)
    return Meta(
        code=code,
        name=str(m.get("name", code)),
        plural=str(m.get("plural", "other_only")),
        colon=str(m.get("colon", "")),
        decimal=str(m.get("decimal", ".")),
    )


def plural_category(lang: str, n: int) -> str:
    return PLURAL_RULES[meta(lang).plural][1](n)


def template(domain: str, key: str, lang: str, n: int | None = None) -> str:
    """The text of `key` in `lang` (the default language's if missing), its plural form for `n`.

    KeyError if the default language lacks it too: a key missing in English is a bug."""
    lang = normalise(lang)
    for look in (lang, DEFAULT_LANG):
        table = texts(domain, look)
        found = table.get(key)
        if found is None and n is not None:
            found = table.get(f"{key}.{plural_category(look, n)}")
        if found is not None:
            return found
    raise KeyError(f"{domain}:{key}")


def text(domain: str, key: str, lang: str, /, **params: Any) -> str:
    """`key` of `domain` in `lang`, filled with `params`; a plural form is chosen by `n`."""
    n = params.get("n")
    found = template(domain, key, lang, n if isinstance(n, int) else None)
    return found.format(**params) if params else found


def fields(template_text: str) -> frozenset[str]:
    """The parameter names a text uses."""
    return frozenset(f for _, f, _, _ in string.Formatter().parse(template_text) if f)


def words(domain: str, key: str, lang: str) -> tuple[str, ...]:
    """A space-separated list of words (data, not a sentence): `notation.words`."""
    return tuple(template(domain, key, lang).split())


def files_of(lang: str) -> dict[str, Path]:
    """The catalogue file of every domain for `lang` (present or not): what a translation adds."""
    return {d: data_dir() / f.format(lang=lang) for d, f in _FILES.items()}
