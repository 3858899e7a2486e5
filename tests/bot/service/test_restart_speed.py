"""Restart speed kept (issue 36, point 1): after a crash and a restart, a phase whose grace is
over closes at once, not after HOLD; one whose grace ends while the gateway is not back yet
closes once it is; whatever the gateway does, a phase waits at most HOLD after its grace; a
gateway that cannot be followed fixes the grace and lets the waiting phases close at once.
The clock stands still in each test: only the scheduler's own work closes the phase."""

from __future__ import annotations

import asyncio
import time

from bot.service import MemoryNotifier
from bot.service.clock.lateness import FENCE_GAP, GRACE, HOLD, NoSessionError
from tests.bot.service.conftest import seven_player_game
from tests.bot.service.faults import crash


async def closed_within(svc, game_id: int, seconds: float) -> float:
    """Real seconds until the scheduler (started) has adjudicated the game's first phase."""
    t0 = time.monotonic()
    while time.monotonic() - t0 < seconds:
        if await svc.results(game_id) is not None:
            return time.monotonic() - t0
        await asyncio.sleep(0.02)
    raise AssertionError(f"still open {seconds} s later: {(await svc.status(game_id)).phase}")


def never_answers() -> asyncio.Future[None]:
    return asyncio.get_running_loop().create_future()  # a gateway silent for ever


async def test_restarted_after_the_grace_a_phase_closes_at_once(opener, clock):
    svc = await opener(grace=GRACE)
    gid = await seven_player_game(svc)
    deadline = (await svc.status(gid)).deadline
    crash(svc)
    clock.set(deadline + GRACE + 1.0)  # back 1 s after the grace: HOLD has 9 s to run
    svc2 = await opener(grace=GRACE, notifier=MemoryNotifier())
    # Its gateway is not even connected: nothing sent in time can reach this new process.
    svc2.follow_gateway(never_answers)
    svc2.start()
    await closed_within(svc2, gid, 2.0)


async def test_a_grace_ending_before_the_gateway_is_back_closes_once_it_is(opener, clock):
    svc = await opener(grace=GRACE)
    gid = await seven_player_game(svc)
    deadline = (await svc.status(gid)).deadline
    clock.set(deadline + GRACE)  # the process started before; its gateway still connecting
    tries: list[float] = []

    async def connecting() -> None:
        tries.append(time.monotonic())
        if len(tries) < 3:
            raise ConnectionError("the gateway is not connected")

    svc.follow_gateway(connecting)
    svc.start()
    took = await closed_within(svc, gid, 2 * FENCE_GAP + 2.0)
    assert len(tries) == 3, tries  # tried again until connected, not left until HOLD
    assert took < 2 * FENCE_GAP + 1.0


async def test_a_gateway_that_never_connects_holds_a_phase_hold_seconds_at_most(opener, clock):
    svc = await opener(grace=GRACE)
    gid = await seven_player_game(svc)
    deadline = (await svc.status(gid)).deadline

    async def down() -> None:
        raise ConnectionError("the gateway is not connected")

    svc.follow_gateway(down)
    clock.set(deadline + GRACE)
    svc.start()
    await asyncio.sleep(3 * FENCE_GAP)
    assert (await svc.status(gid)).phase_status == "open"  # (waiting for the gateway)
    clock.set(deadline + GRACE + HOLD)
    svc.table.wake.set()  # (the scheduler's timer on a fake clock)
    await closed_within(svc, gid, 2.0)


async def test_a_gateway_that_cannot_be_followed_lets_the_waiting_phase_close_at_once(
    opener, clock
):
    svc = await opener(grace=GRACE)
    gid = await seven_player_game(svc)
    deadline = (await svc.status(gid)).deadline

    async def changed() -> None:  # bot.discord_app.gateway.follow on a changed discord.py
        raise NotImplementedError("this discord.py's heartbeats cannot be followed")

    svc.follow_gateway(changed)
    clock.set(deadline + GRACE)
    svc.start()
    await closed_within(svc, gid, 2.0)
    assert svc.table.intake.fence is None  # the grace is fixed from now on


async def test_restarted_within_the_grace_a_phase_closes_at_its_end_if_never_connected(
    opener, clock
):
    svc = await opener(grace=GRACE)
    gid = await seven_player_game(svc)
    deadline = (await svc.status(gid)).deadline
    crash(svc)
    clock.set(deadline + GRACE / 2)  # back inside the grace
    svc2 = await opener(grace=GRACE, notifier=MemoryNotifier())

    async def first_session_not_open() -> None:  # bot.discord_app.gateway before connecting
        raise NoSessionError("the gateway was never connected")

    svc2.follow_gateway(first_session_not_open)
    svc2.start()
    await asyncio.sleep(0.1)
    assert (await svc2.status(gid)).phase_status == "open"  # (the grace runs)
    clock.set(deadline + GRACE)
    svc2.table.wake.set()
    await closed_within(svc2, gid, 2.0)  # no session was open then: nothing to wait for
