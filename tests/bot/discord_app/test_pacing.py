"""The pacer keeps the bot under the global limit, most urgent first (issue 19, cause 5)."""

from __future__ import annotations

import asyncio
import time

import aiohttp
import yarl
from multidict import CIMultiDict

from bot.discord_app.pacing import DM, FEED, RESULTS, Pacer, trace, urgency


async def test_at_most_rate_starts_per_window() -> None:
    pacer = Pacer(rate=5, per=0.2)
    starts: list[float] = []

    async def one() -> None:
        await pacer.slot()
        starts.append(time.monotonic())

    t0 = time.monotonic()
    await asyncio.gather(*(one() for _ in range(12)))
    starts.sort()
    for i in range(5, len(starts)):
        assert starts[i] - starts[i - 5] >= 0.19  # never 6 starts within one window
    assert starts[-1] - t0 >= 0.39


async def test_waiters_are_served_by_priority() -> None:
    pacer = Pacer(rate=1, per=0.05)
    await pacer.slot()  # the window is full: the next ones queue
    order: list[str] = []

    async def one(name: str, level: int) -> None:
        with urgency(level):
            await pacer.slot()
        order.append(name)

    await asyncio.gather(one("dm", DM), one("feed", FEED), one("results", RESULTS))
    assert order == ["results", "feed", "dm"]


async def test_interaction_responses_are_not_paced() -> None:
    pacer = Pacer(rate=1, per=10.0)
    on_start = trace(pacer).on_request_start[0]

    async def request(path: str) -> None:
        url = yarl.URL(f"http://127.0.0.1/api/v10{path}")
        await on_start(None, None, aiohttp.TraceRequestStartParams("POST", url, CIMultiDict()))

    await request("/channels/1/messages")
    await asyncio.wait_for(request("/interactions/1/token/callback"), 1)
    await asyncio.wait_for(request("/webhooks/1/token"), 1)
    blocked = asyncio.create_task(request("/channels/2/messages"))
    await asyncio.sleep(0.05)
    assert not blocked.done()  # a second channel post waits for the window
    blocked.cancel()


async def test_with_a_shared_rate_every_request_takes_a_turn_from_it_most_urgent_first() -> None:
    turns: list[str] = []
    gate = asyncio.Event()

    async def shared(level: int) -> None:  # another process's share: the first turn waits
        await gate.wait()
        turns.append(f"turn at {level}")

    pacer = Pacer(rate=100, per=1.0, shared=shared)
    order: list[str] = []

    async def one(name: str, level: int) -> None:
        with urgency(level):
            await pacer.slot()
        order.append(name)

    tasks = [asyncio.create_task(one(n, lvl)) for n, lvl in [("dm", DM), ("results", RESULTS)]]
    await asyncio.sleep(0.02)
    assert order == []  # none went without a shared turn
    gate.set()
    await asyncio.gather(*tasks)
    # Both waited for the turn, each asked at the level of the most urgent waiter then.
    assert turns == [f"turn at {RESULTS}", f"turn at {DM}"]
    assert order == ["results", "dm"]
