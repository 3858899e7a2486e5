"""Posts whose fate is unknown (issue 36): raised to the poster, never sent again blindly.

A post answered by a 5xx, or whose connection broke or timed out, may have been created by
Discord all the same (its reply lost on the way back). discord.py sends a post again after a
500/502/504 on its own (1 s later): on a Discord that has forgotten the nonce, that is a second
message, seen (and pinged) by the whole channel. So inside `uncertain()` an aiohttp trace
(`surface`, on the bot's HTTP session) turns any such outcome into `UncertainSend` before
discord.py can retry, and the poster (bot.discord_app.notifier, replies) looks at the
channel's history before posting again. A 429 is not uncertain (Discord created nothing:
discord.py waits and retries it, under the rate limits); requests outside `uncertain()`
(reads, edits, permission overwrites: idempotent) keep discord.py's retries.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from contextvars import ContextVar

import aiohttp

# Seconds before each new try of an uncertain post, after a look at the history: the first
# well under issue 36's 3 s; then the outbox's own retry (5 s) takes over.
RETRY_AFTER = (0.5, 1.0, 2.0)

_watched: ContextVar[bool] = ContextVar("uncertain", default=False)


class UncertainSend(aiohttp.ClientError):
    """The post may or may not have been created: look before posting again."""


@contextlib.contextmanager
def uncertain() -> Iterator[None]:
    """Posts made inside this block raise `UncertainSend` instead of being sent again."""
    token = _watched.set(True)
    try:
        yield
    finally:
        _watched.reset(token)


def surface(config: aiohttp.TraceConfig) -> aiohttp.TraceConfig:
    """Add to the bot's trace: inside `uncertain()`, a 5xx or a failed exchange raises
    `UncertainSend` out of the request (aiohttp re-raises what a trace raises)."""

    async def on_end(
        _session: aiohttp.ClientSession,
        _context: object,
        params: aiohttp.TraceRequestEndParams,
    ) -> None:
        if _watched.get() and params.response.status >= 500:
            raise UncertainSend(f"{params.response.status} {params.response.reason}")

    async def on_exception(
        _session: aiohttp.ClientSession,
        _context: object,
        params: aiohttp.TraceRequestExceptionParams,
    ) -> None:
        exc = params.exception
        if _watched.get() and not isinstance(exc, UncertainSend | asyncio.CancelledError):
            # (discord.py sends again after some connection resets: not this one)
            raise UncertainSend(f"{type(exc).__name__}: {exc}") from exc

    config.on_request_end.append(on_end)
    config.on_request_exception.append(on_exception)
    return config
