"""The clock runs from the adjudication: an outage at Discord (or a late clock step) does not
push the next phase back; delivery catches up on its own, exactly once."""

from __future__ import annotations

import asyncio
import logging

from bot.core.model import Phase
from bot.service import EventKind, TransientDeliveryError, load_clock
from bot.service.events import Event
from tests.bot.service.conftest import seven_player_game
from tests.bot.service.faults import crash


class Outage:
    """A notifier whose Discord is down: results hang (discord.py retrying) until `up`."""

    def __init__(self) -> None:
        self.up = asyncio.Event()
        self.events: list[Event] = []

    async def notify(self, event: Event) -> None:
        if event.kind is EventKind.RESULTS_READY and not self.up.is_set():
            await self.up.wait()
        self.events.append(event)


class Failing:
    """Raises `failures` times (a transient outage), then delivers."""

    def __init__(self, failures: int) -> None:
        self.failures = failures
        self.events: list[Event] = []

    async def notify(self, event: Event) -> None:
        if self.failures > 0:
            self.failures -= 1
            raise TransientDeliveryError("503 Service Unavailable")
        self.events.append(event)


def window(phase: str) -> float:
    times = load_clock("edc2023").times(Phase.parse(phase))
    return float(times.negotiation + times.writing)


async def until(predicate, what: str) -> None:
    for _ in range(500):
        if await predicate():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"timed out waiting for {what}")


async def test_a_hanging_delivery_does_not_hold_the_next_phase(opener, clock) -> None:
    outage = Outage()
    svc = await opener(notifier=outage)
    gid = await seven_player_game(svc)
    svc.start()
    clock.set((await svc.status(gid)).deadline)

    async def reading() -> bool:
        return (await svc.status(gid)).phase == "F1901M"

    await until(reading, "the adjudication")
    pending = await svc.status(gid)
    clock.set(pending.opens_at)

    async def opened() -> bool:
        return (await svc.status(gid)).phase_status == "open"

    await until(opened, "the next phase to open while Discord is down")
    st = await svc.status(gid)
    assert st.deadline == pending.opens_at + window("F1901M")
    assert EventKind.RESULTS_READY not in [e.kind for e in outage.events]
    outage.up.set()

    async def delivered() -> bool:
        return EventKind.RESULTS_READY in [e.kind for e in outage.events]

    await until(delivered, "the results once Discord is back")
    await asyncio.sleep(0.05)
    kinds = [e.kind for e in outage.events]
    assert kinds.count(EventKind.RESULTS_READY) == 1
    assert len({e.key for e in outage.events}) == len(outage.events)


async def test_a_late_clock_step_opens_the_phase_from_the_adjudication(opener, clock) -> None:
    svc = await opener(notifier=Failing(failures=1000))
    gid = await seven_player_game(svc)
    clock.set((await svc.status(gid)).deadline)
    await svc.run_due()
    [*_, adjudicated] = [p for p in await svc.phases(gid) if p.adjudicated_at is not None]
    pending = await svc.status(gid)
    assert pending.opens_at is not None
    clock.set(pending.opens_at + 90)  # the step runs 90 s late
    await svc.run_due()
    st = await svc.status(gid)
    assert st.phase_status == "open"
    assert st.deadline == pending.opens_at + window("F1901M")
    assert adjudicated.adjudicated_at is not None
    assert st.deadline > adjudicated.adjudicated_at + window("F1901M")


async def test_an_opening_missed_while_down_starts_from_the_restart(opener, clock) -> None:
    svc = await opener()
    gid = await seven_player_game(svc)
    clock.set((await svc.status(gid)).deadline)
    await svc.run_due()
    pending = await svc.status(gid)
    crash(svc)
    await svc.storage.close()
    clock.set(pending.opens_at + 3600)  # down for an hour across the opening
    svc2 = await opener()
    await svc2.run_due()
    st = await svc2.status(gid)
    assert st.deadline == clock.now() + window("F1901M")


async def test_a_transient_failure_is_one_warning_line_and_retried(opener, clock, caplog) -> None:
    notifier = Failing(failures=1)
    svc = await opener(notifier=notifier)
    caplog.set_level(logging.INFO, logger="bot")
    gid = await seven_player_game(svc)
    warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert [r.levelno for r in warnings] == [logging.WARNING]
    assert warnings[0].exc_info is None
    assert "503" in warnings[0].getMessage()
    clock.advance(6)
    await svc.run_due()
    assert notifier.events[0].kind is EventKind.GAME_STARTED
    assert gid


async def test_a_notifier_bug_is_an_error_with_its_traceback(opener, caplog) -> None:
    class Buggy:
        async def notify(self, event: Event) -> None:
            raise KeyError("a bug")

    svc = await opener(notifier=Buggy())
    await seven_player_game(svc)
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors
    assert errors[0].exc_info is not None
