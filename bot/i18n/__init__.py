"""Parley's words for the Discord bot, from the catalogues `data/i18n/<lang>.toml`.

`t(key, lang, **fields)` gives a reply or game message; `[commands]` in a catalogue maps the
English text of a slash command (name, description, option) to that language, for
`ParleyTranslator` (bot/i18n/translator.py). A missing text falls back to English, never to a
key. Files, languages and plural forms: bot/core/catalogue.py (the one loader).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from bot.core import catalogue as _catalogue
from bot.core.catalogue import DEFAULT_LANG, languages

# Issue 33: what this package's modules may import besides each other (tests/test_rooms.py).
MAY_IMPORT = ("bot.core",)

__all__ = ["DEFAULT_LANG", "Catalogue", "catalogue", "languages", "normalise_lang", "t"]


@dataclass(frozen=True)
class Catalogue:
    lang: str
    messages: dict[str, str]
    commands: dict[str, str]


@functools.cache
def catalogue(lang: str) -> Catalogue:
    lang = _catalogue.normalise(lang)
    commands = _catalogue.raw("bot", lang).get("commands", {})
    return Catalogue(
        lang,
        dict(_catalogue.texts("bot", lang)),
        {str(k): str(v) for k, v in commands.items()},
    )


def normalise_lang(value: object) -> str:
    """'fr', 'fr-FR', Locale.french -> 'fr'; a language without catalogues -> 'en'."""
    return _catalogue.normalise(value)


def t(key: str, lang: str = DEFAULT_LANG, /, **fields: object) -> str:
    return _catalogue.text("bot", key, lang, **fields)
