"""Words for a game whose stored rows cannot be read (the game stops; the others run)."""

from __future__ import annotations

import hashlib

from bot.service.errors import ServiceError


def unreadable_reason(game_id: int, exc: BaseException) -> str:
    """What went wrong, for the operator's log and the GM's notice (English)."""
    if isinstance(exc, ServiceError) and exc.__cause__ is not None:
        text = f"{exc.__cause__}"  # a storage failure: the SQLite message, not the player text
    elif isinstance(exc, ServiceError):
        text = str(exc)
    else:
        text = f"{type(exc).__name__}: {exc}"
    return text if f"#{game_id}" in text else f"game #{game_id}: {text}"


def broken_key(game_id: int, why: str) -> str:
    """The outbox key of a game_broken event: the GM hears of each distinct reason once,
    not at every restart."""
    digest = hashlib.sha256(why.encode()).hexdigest()[:16]
    return f"{game_id}:broken:{digest}"
