"""The worker processes (bot/service/workers.py): warm at start, and a broken pool never
loses a phase."""

from __future__ import annotations

import asyncio
import os
import signal

from bot.core.model import Power
from bot.service import EventKind, MemoryNotifier
from bot.service.workers import ComputePool, warm
from tests.bot.service.conftest import PNG, seven_player_game
from tests.bot.service.test_delivery_clock import until


def test_a_worker_starts_with_the_standard_map_drawn_once() -> None:
    from renderer import default_renderer  # noqa: PLC0415
    from renderer.render import _RENDERERS  # noqa: PLC0415

    assert warm(("standard", "no-such-variant")) == os.getpid()  # a bad name only logs
    assert any(r.game_map.name == "standard" for r in _RENDERERS.values())
    renderer = next(r for r in _RENDERERS.values() if r.game_map.name == "standard")
    assert renderer is default_renderer(renderer.game_map)
    assert ("en", renderer.width) in renderer._static


async def test_a_killed_worker_never_loses_a_phase(opener, clock) -> None:
    notes = MemoryNotifier()
    pool = ComputePool(1)
    try:
        svc = await opener(notifier=notes, executor=pool)
        first, second = await seven_player_game(svc), await seven_player_game(svc)
        await svc.submit(first, "user-france", "A PAR - BUR")
        assert pool.submit(os.getpid).result() in pool.pids()  # started
        for pid in pool.pids():
            os.kill(pid, signal.SIGKILL)
        clock.set((await svc.status(first)).deadline)
        await svc.run_due()  # the first in a thread, the pool started again
        res = await svc.results(first)
        assert res is not None
        assert res.png == PNG
        assert res.outcome.position.unit_in("BUR").power is Power.FRANCE
        assert (await svc.status(second)).phase == "F1901M"
        assert notes.kinds().count(EventKind.RESULTS_READY.value) == 2
        # One restart: the second table's job (after the first) ran in the new pool.
        assert pool.restarts == 1
        assert pool.pids()
    finally:
        pool.shutdown()


async def test_with_workers_each_tables_results_go_out_before_the_last_is_done(
    opener, clock
) -> None:
    """Issue 19's lanes hold with the pool: the first table's results are out while the
    last table has not even been stepped."""
    notes = MemoryNotifier()
    pool = ComputePool(1)
    try:
        svc = await opener(notifier=notes, executor=pool)
        first, last = await seven_player_game(svc), await seven_player_game(svc)
        machine = svc.scheduler.machine
        plain = machine.advance_locked
        seen_first = asyncio.Event()

        def results(game_id: int) -> int:
            return sum(
                1 for e in notes.events if e.game_id == game_id and e.kind.value == "results_ready"
            )

        async def slow_last(game_id: int) -> None:
            if game_id == last:  # waits until the first table's results are out
                await asyncio.wait_for(seen_first.wait(), 30)
            await plain(game_id)

        machine.advance_locked = slow_last  # a test wrapper around the step
        assert pool.submit(os.getpid).result() in pool.pids()  # started and warm
        svc.start()
        clock.set((await svc.status(first)).deadline)

        async def first_posted() -> bool:
            if results(first):
                seen_first.set()
            return results(first) == 1 and results(last) == 1

        await until(first_posted, "both tables' results, the first before the last is done")
    finally:
        pool.shutdown()
