"""Service errors. Every one carries a message fit to show a user or an operator as is.

`XError.of(key, lang, **fields)` makes one from a sentence of `bot.service.texts`: `str(exc)` is
the English text (logs, operators), `.message` the text in the game's language `lang`, and
`.localized(lang)` any other language (e.g. the user's locale when no game is known: then
`.lang` is None).
"""

from __future__ import annotations

from typing import Any, Self

from bot.service.texts import t


class ServiceError(Exception):
    """Base of every error the table service raises on purpose."""

    key: str | None = None
    lang: str | None = None  # the game's language; None: no game known (e.g. no such game)
    fields: dict[str, Any] | None = None

    @staticmethod
    def _text(key: str, lang: str, **fields: Any) -> str:
        """A sentence of this error's catalogue: the service's; a subclass may name another."""
        return t(key, lang, **fields)

    @classmethod
    def of(cls, key: str, lang: str | None = None, /, **fields: Any) -> Self:
        exc = cls(cls._text(key, "en", **fields))
        exc.key, exc.lang, exc.fields = key, lang, fields
        return exc

    @classmethod
    def rendered(cls, english: str, text: str, lang: str) -> Self:
        """From a text already in the game's language `lang` (e.g. a core vote message)."""
        exc = cls(english)
        exc.lang, exc.fields = lang, {lang: text}
        return exc

    def localized(self, lang: str) -> str:
        if self.key is None:
            return str((self.fields or {}).get(lang, self))
        return self._text(self.key, lang, **(self.fields or {}))

    @property
    def message(self) -> str:
        return self.localized(self.lang or "en")


class StoreError(ServiceError):
    """The database file is corrupt, foreign, or newer than this Parley (start-up)."""


class StoreUnavailableError(StoreError):
    """The database cannot be written or read now (disk full, read-only file, I/O error):
    the request changed nothing; the operator has the details in the log."""


class ConfigError(ServiceError):
    """A map, rule set or clock preset is missing or broken."""


class NotFoundError(ServiceError):
    """No such game (or phase, or player)."""


class PermissionDeniedError(ServiceError):
    """The caller may not do this (not the GM, not a player of the game)."""


class InvalidStateError(ServiceError):
    """The game is not in a state that allows this (not started, over, paused...)."""


class LateSubmissionError(InvalidStateError):
    """Orders sent after the writing deadline (or outside an order window); nothing stored."""


class CorruptGameError(ServiceError):
    """A stored row of this game cannot be read; the other games are unaffected."""


class VoteRefusedError(InvalidStateError):
    """A proposal or ballot the game's vote rules do not allow (the message says which)."""
