"""The service's own player-facing sentences, in the game's language: the catalogue
`data/messages/service.<lang>.toml` (bot/core/catalogue.py)."""

from __future__ import annotations

from typing import Any

from bot.core import catalogue
from bot.core.messages import Items, OneOf, render_param
from bot.core.model import Power


def _local(value: Any, lang: str) -> Any:
    """A typed parameter in the game's language: a power by its name (`Angleterre`; English
    texts keep the power's id, as they always showed it), alternatives and lists with the
    language's words (`en or fr` / `en ou fr`)."""
    if isinstance(value, Power) and not catalogue.is_default(lang):
        # A power of another variant than the classical seven keeps its id's spelling.
        known = catalogue.texts("core", catalogue.normalise(lang))
        return known.get(f"power.{value.value}", value.value.title())
    if isinstance(value, OneOf | Items):
        return render_param(value, lang)
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
