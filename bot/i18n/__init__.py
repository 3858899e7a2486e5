"""Parley's words in English and French, from the catalogues in `data/i18n/<lang>.toml`.

`t(key, lang, **fields)` gives a reply or game message; `[commands]` in a catalogue maps the
English text of a slash command (name, description, option) to that language, for
`ParleyTranslator` (bot/i18n/translator.py). Missing French falls back to English, never to a key.
"""

from __future__ import annotations

import functools
import tomllib
from dataclasses import dataclass
from typing import Any

from bot.paths import data_dir

LANGS = ("en", "fr")
DEFAULT_LANG = "en"


@dataclass(frozen=True)
class Catalogue:
    lang: str
    messages: dict[str, str]
    commands: dict[str, str]


def _flatten(table: dict[str, Any], prefix: str = "") -> dict[str, str]:
    out: dict[str, str] = {}
    for key, value in table.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            out.update(_flatten(value, name + "."))
        else:
            out[name] = str(value)
    return out


@functools.cache
def catalogue(lang: str) -> Catalogue:
    lang = lang if lang in LANGS else DEFAULT_LANG
    with (data_dir() / "i18n" / f"{lang}.toml").open("rb") as fh:
        doc = tomllib.load(fh)
    commands = {str(k): str(v) for k, v in doc.pop("commands", {}).items()}
    return Catalogue(lang, _flatten(doc), commands)


def normalise_lang(value: object) -> str:
    """'fr', 'fr-FR', Locale.french -> 'fr'; anything else -> 'en'."""
    text = str(getattr(value, "value", value) or "").lower()
    return "fr" if text.startswith("fr") else DEFAULT_LANG


def t(key: str, lang: str = DEFAULT_LANG, /, **fields: object) -> str:
    text = catalogue(lang).messages.get(key)
    if text is None:
        text = catalogue(DEFAULT_LANG).messages[key]  # KeyError: a key missing in English is a bug
    return text.format(**fields) if fields else text
