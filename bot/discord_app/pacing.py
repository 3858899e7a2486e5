"""Pacing under Discord's global limit (50 requests/s per bot), by priority.

discord.py waits on per-route buckets (a slow channel delays only the posts to it) but meets
the global limit only by 429s, retried five times at most. The pacer lets at most `rate`
requests start per second, the most urgent first: results in a table channel, then the rest of
the table channel and order acknowledgements, then spectators and feeds, then DMs. Interaction
responses do not count against the global limit and are not paced. The order is global
across every game this process serves: all the tables due together post their results before
any of them posts to a spectator channel or a DM. With several processes on one database
each turn is also taken from the shared rate (`shared`, see `bot/service/delivery/ratelimit.py`) at
the level of the most urgent waiter: the order holds across processes too.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterator
from contextvars import ContextVar
from types import SimpleNamespace

import aiohttp

from bot.service import observe

RESULTS, TABLE, FEED, DM = 0, 1, 2, 3
RATE = 40  # of Discord's 50/s: a margin for jitter between here and Discord
priority: ContextVar[int] = ContextVar("priority", default=TABLE)


@contextlib.contextmanager
def urgency(level: int) -> Iterator[None]:
    """Requests made inside this block (and tasks it starts) wait at this priority."""
    token = priority.set(level)
    try:
        yield
    finally:
        priority.reset(token)


class Pacer:
    """At most `rate` starts in any `per` seconds; waiters served by priority, then FIFO."""

    def __init__(
        self,
        rate: int = RATE,
        per: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
        shared: Callable[[int], Awaitable[None]] | None = None,
    ) -> None:
        self.shared = shared  # the turn under the rate shared with other processes
        self.rate = rate
        self.per = per
        self.clock = clock
        self._starts: deque[float] = deque()
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self._seq = 0
        self._runner: asyncio.Task[None] | None = None

    def _room(self, now: float) -> bool:
        while self._starts and self._starts[0] <= now - self.per:
            self._starts.popleft()
        return len(self._starts) < self.rate

    async def slot(self, level: int | None = None) -> None:
        """Wait for a turn to start one request."""
        now = self.clock()
        if self.shared is None and not self._waiting and self._room(now):
            self._starts.append(now)
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._seq += 1
        heapq.heappush(
            self._waiting, (priority.get() if level is None else level, self._seq, future)
        )
        if self._runner is None or self._runner.done():
            self._runner = asyncio.get_running_loop().create_task(self._serve())
        await future

    async def _serve(self) -> None:
        while self._waiting:
            now = self.clock()
            if not self._room(now):
                await asyncio.sleep(self._starts[0] + self.per - now)
                continue
            if self.shared is not None:
                # The level of the most urgent waiter now; the turn goes to whoever is most
                # urgent when it comes.
                await self.shared(self._waiting[0][0])
                now = self.clock()
            _, _, future = heapq.heappop(self._waiting)
            if not future.done():  # (a cancelled waiter gives its turn away)
                self._starts.append(now)
                future.set_result(None)


def trace(pacer: Pacer) -> aiohttp.TraceConfig:
    """An aiohttp trace that holds every request to Discord's API until the pacer gives it
    a turn: at the wire, after discord.py's own per-route waits, retries included (paced
    before those waits, requests released together by a bucket would arrive in a burst)."""

    async def on_start(
        _session: aiohttp.ClientSession,
        _context: SimpleNamespace,
        params: aiohttp.TraceRequestStartParams,
    ) -> None:
        path = params.url.path
        if "/api/" in path and "/interactions/" not in path and "/webhooks/" not in path:
            await pacer.slot()

    async def on_end(
        _session: aiohttp.ClientSession,
        _context: SimpleNamespace,
        params: aiohttp.TraceRequestEndParams,
    ) -> None:
        status = params.response.status
        if status == 429 or status >= 500:  # discord.py sends these again (the host's metrics)
            observe.report("discord_response", status="429" if status == 429 else "5xx")

    config = aiohttp.TraceConfig()
    config.on_request_start.append(on_start)
    config.on_request_end.append(on_end)
    return config
