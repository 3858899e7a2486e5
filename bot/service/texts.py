"""The service's own player-facing sentences, in the game's language: the catalogue
`data/messages/service.<lang>.toml` (bot/core/catalogue.py)."""

from __future__ import annotations

from typing import Any

from bot.core import catalogue
from bot.core.model import Power


def _local(value: Any, lang: str) -> Any:
    """A power by its name in the game's language (`Angleterre`); English texts keep what they
    showed (the power's id)."""
    if isinstance(value, Power) and not catalogue.is_default(lang):
        return catalogue.text("core", f"power.{value.value}", lang)
    return value


def t(key: str, lang: str, **kw: Any) -> str:
    lang = catalogue.normalise(lang)
    return catalogue.text("service", key, lang, **{k: _local(v, lang) for k, v in kw.items()})


def keys() -> tuple[str, ...]:
    return tuple(catalogue.texts("service", catalogue.DEFAULT_LANG))


def forms(key: str) -> dict[str, str]:
    """`key` in every language that has it."""
    return {
        lang: found
        for lang in catalogue.languages()
        if (found := catalogue.texts("service", lang).get(key)) is not None
    }
