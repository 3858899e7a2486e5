"""The tournament's words (catalogue `data/messages/tournament.<lang>.toml`) and its refusal:
a `ServiceError` whose message is in the tournament's language (or the asker's)."""

from __future__ import annotations

from typing import Any, Self

from bot.core import catalogue
from bot.service.errors import ServiceError


def tt(key: str, lang: str, **fields: Any) -> str:
    return catalogue.text("tournament", key, catalogue.normalise(lang), **fields)


class TournamentRefusedError(ServiceError):
    """A tournament request refused; nothing was changed (the message says why)."""

    @classmethod
    def of(cls, key: str, lang: str | None = None, /, **fields: Any) -> Self:
        exc = cls(tt(key, "en", **fields))
        exc.key, exc.lang, exc.fields = key, lang, fields
        return exc

    def localized(self, lang: str) -> str:
        if self.key is None:
            return str(self)
        return tt(self.key, lang, **(self.fields or {}))
