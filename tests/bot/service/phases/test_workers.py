"""The worker processes (bot/service/phases/workers.py): warm at start, and a broken pool never
loses a phase."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.core.model import Power
from bot.service import EventKind, MemoryNotifier
from bot.service.phases.workers import ComputePool, warm
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


# A bot with its pool, as `parley run` starts it: prints its workers', its fork server's and
# its resource tracker's pids, starts a long job, then waits to be killed.
BOT_WITH_POOL = """
import multiprocessing.forkserver as fs, multiprocessing.resource_tracker as rt, os, time
from bot.service.phases.workers import ComputePool
if __name__ == "__main__":
    pool = ComputePool(1)
    pool.submit(os.getpid).result()
    helpers = [fs._forkserver._forkserver_pid, rt._resource_tracker._pid]
    pool.submit(time.sleep, 60)  # a worker busy when the bot dies
    print(*pool.pids(), *helpers, flush=True)
    time.sleep(60)
"""


def alive(pid: int) -> bool:
    """Running (a zombie waiting for init to reap it has ended)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")
def test_a_bot_killed_by_sigkill_leaves_no_process_behind(tmp_path: Path) -> None:
    script = tmp_path / "bot_with_pool.py"
    script.write_text(BOT_WITH_POOL)
    root = Path(__file__).resolve().parents[4]
    env = {**os.environ, "PYTHONPATH": str(root)}
    bot = subprocess.Popen(
        [sys.executable, str(script)], stdout=subprocess.PIPE, text=True, cwd=root, env=env
    )
    assert bot.stdout is not None
    left: list[int] = []
    try:
        pids = [int(p) for p in bot.stdout.readline().split()]
        assert len(pids) == 3, pids  # a worker, the fork server, the resource tracker
        assert all(alive(p) for p in pids)
        bot.send_signal(signal.SIGKILL)  # no clean-up: the workers must notice by themselves
        bot.wait(5)
        ends = time.monotonic() + 5  # issue 36: none alive 5 s after the kill
        while any(alive(p) for p in pids) and time.monotonic() < ends:
            time.sleep(0.05)
        left = [p for p in pids if alive(p)]
        assert not left, f"still running 5 s after the bot was killed: {left}"
    finally:
        for pid in left:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        if bot.poll() is None:
            bot.kill()
            bot.wait()
