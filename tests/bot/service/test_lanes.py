"""A round on one clock (issue 19): each game's events go out in a lane of their own, each
table's results as soon as that table is adjudicated, and the clock never waits for delivery."""

from __future__ import annotations

import asyncio
import time

from bot.service import EventKind
from bot.service.events import Event
from bot.service.phases import phase_machine
from tests.bot.service.conftest import SEVEN, seven_player_game
from tests.bot.service.test_delivery_clock import until
from tests.standard import STANDARD


class Recorder:
    """Records events; a game listed in `hold` hangs on its results until released."""

    def __init__(self) -> None:
        self.events: list[Event] = []
        self.hold: dict[int, asyncio.Event] = {}
        self.slow_start = 0.0  # seconds each game_started takes (seven welcome DMs)

    async def notify(self, event: Event) -> None:
        if event.kind is EventKind.GAME_STARTED:
            await asyncio.sleep(self.slow_start)
        gate = self.hold.get(event.game_id)
        if event.kind is EventKind.RESULTS_READY and gate is not None:
            await gate.wait()
        self.events.append(event)

    def results(self, game_id: int) -> int:
        return sum(
            1 for e in self.events if e.game_id == game_id and e.kind is EventKind.RESULTS_READY
        )


async def test_a_game_stuck_in_delivery_does_not_hold_another_games_results(opener, clock) -> None:
    notifier = Recorder()
    svc = await opener(notifier=notifier)
    stuck = await seven_player_game(svc)
    free = await seven_player_game(svc)
    notifier.hold[stuck] = asyncio.Event()
    svc.start()
    clock.set((await svc.status(stuck)).deadline)

    async def free_posted() -> bool:
        return notifier.results(free) == 1

    await until(free_posted, "the free game's results while the other game's hang")
    assert notifier.results(stuck) == 0
    notifier.hold[stuck].set()

    async def stuck_posted() -> bool:
        return notifier.results(stuck) == 1

    await until(stuck_posted, "the stuck game's results once released")


async def test_each_tables_results_go_out_before_the_last_table_is_adjudicated(
    opener, clock
) -> None:
    notifier = Recorder()
    svc = await opener(notifier=notifier)
    first = await seven_player_game(svc)
    last = await seven_player_game(svc)
    machine = svc.scheduler.machine
    plain = machine.advance_locked
    seen_first = asyncio.Event()

    async def slow_last(game_id: int) -> None:
        if game_id == last:  # the last table waits until the first one's results are out
            await asyncio.wait_for(seen_first.wait(), 5)
        await plain(game_id)

    machine.advance_locked = slow_last  # a test wrapper around the step
    svc.start()
    clock.set((await svc.status(first)).deadline)

    async def first_posted() -> bool:
        if notifier.results(first):
            seen_first.set()
        return notifier.results(first) == 1 and notifier.results(last) == 1

    await until(first_posted, "both tables' results, the first before the last is done")


async def test_games_started_together_keep_identical_deadlines(opener, clock) -> None:
    notifier = Recorder()
    notifier.slow_start = 0.2  # the welcome DMs of each table take a while to go out
    svc = await opener(notifier=notifier)
    svc.start()
    ids = []
    for n in range(4):
        st = await svc.create_game("gm", name=f"table {n}", clock="edc2023")
        for user, power in zip(SEVEN, STANDARD.powers, strict=True):
            await svc.join(st.id, f"{user}-{n}", power)
        ids.append(st.id)
    for gid in ids:  # the director starts the round: the same instant for every table
        await svc.start_game(gid, "gm")

    async def all_open() -> bool:
        states = [(await svc.status(g)).phase_status for g in ids]
        return states == ["open"] * len(ids)

    await until(all_open, "every table's first phase")
    deadlines = {(await svc.status(g)).deadline for g in ids}
    assert len(deadlines) == 1
    # the phases opened without waiting for the announcements, which go out side by side
    # (one after another they would take 4 x 0.2 s)
    t0 = asyncio.get_running_loop().time()

    async def announced() -> bool:
        return sum(e.kind is EventKind.GAME_STARTED for e in notifier.events) == len(ids)

    await until(announced, "the four start announcements")
    assert asyncio.get_running_loop().time() - t0 < 0.5


async def test_tables_due_together_are_computed_in_turn(opener, clock, monkeypatch) -> None:
    """All interleaved (threads under the GIL), every table would finish with the last."""
    svc = await opener(notifier=Recorder())
    ids = [await seven_player_game(svc) for _ in range(3)]
    plain = phase_machine.compute_phase
    spans: list[tuple[float, float]] = []

    def timed(*args, **kwargs):
        start = time.perf_counter()
        time.sleep(0.05)  # a slow table
        result = plain(*args, **kwargs)
        spans.append((start, time.perf_counter()))
        return result

    monkeypatch.setattr(phase_machine, "compute_phase", timed)
    clock.set((await svc.status(ids[0])).deadline)
    await svc.run_due()
    assert len(spans) == 3
    # THREADS at a time (two: one's PNG compression runs beside the other's drawing), the
    # third after one of them: never all three at once.
    assert phase_machine.THREADS == 2
    for start, _ in spans:
        running = sum(1 for s, e in spans if s <= start < e)
        assert running <= phase_machine.THREADS
    phases = [(await svc.status(g)).phase for g in ids]
    assert phases == ["F1901M"] * 3
