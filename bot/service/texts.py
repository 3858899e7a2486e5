"""The service's own player-facing sentences, in the game's language: the catalogue
`data/messages/service.<lang>.toml` (bot/core/catalogue.py)."""

from __future__ import annotations

from typing import Any

from bot.core import catalogue
from bot.core.map import GameMap, PowerInfo
from bot.core.messages import Items, OneOf, render_param
from bot.core.model import Power


def _local(value: Any, lang: str) -> Any:
    """A typed parameter in the game's language: a power given as its variant's `PowerInfo`
    by its name there (`Angleterre`, `Nord`; English texts keep the power's id, as they always
    showed it), alternatives and lists with the language's words (`en or fr` / `en ou fr`)."""
    if isinstance(value, PowerInfo):
        return value.id if catalogue.is_default(lang) else value.name(lang)
    if isinstance(value, Power) and not catalogue.is_default(lang):
        return value.title()  # no variant to name it: a power the game does not have
    if isinstance(value, OneOf | Items):
        return render_param(value, lang)
    return value


def named(game_map: GameMap, power: Power) -> PowerInfo | Power:
    """A power as a text parameter: its variant's entry, which names it in every language."""
    return game_map.power_info.get(power, power)


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
