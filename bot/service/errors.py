"""Service errors. Every one carries a message fit to show a user or an operator as is."""

from __future__ import annotations


class ServiceError(Exception):
    """Base of every error the table service raises on purpose."""

    @property
    def message(self) -> str:
        return str(self)


class StoreError(ServiceError):
    """The database file is corrupt, foreign, or newer than this Parley (start-up)."""


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
