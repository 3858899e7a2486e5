"""The tournament's words (catalogue `data/messages/tournament.<lang>.toml`) and its refusal:
a `ServiceError` whose message is in the tournament's language (or the asker's)."""

from __future__ import annotations

from typing import Any

from bot.core import catalogue
from bot.service.errors import ServiceError


def tt(key: str, lang: str, **fields: Any) -> str:
    return catalogue.text("tournament", key, catalogue.normalise(lang), **fields)


class TournamentRefusedError(ServiceError):
    """A tournament request refused; nothing was changed (the message says why)."""

    _text = staticmethod(tt)  # the tournament catalogue
