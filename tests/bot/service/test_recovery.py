"""Kill the service at every step of a phase and restart it on the same file: no acknowledged
submission lost, exactly one adjudication, every event delivered (once, except the single
event whose delivery was in flight when the process died, which notifiers dedupe by key)."""

from __future__ import annotations

import asyncio
from collections import Counter

import pytest

from bot.core.model import Power
from bot.service import EventKind, MemoryNotifier
from tests.bot.service.conftest import Crash, Faults, SimpleEngine, seven_player_game
from tests.bot.service.faults import crash


async def _deadline(svc, gid):
    return (await svc.status(gid)).deadline


async def _count(svc, sql, params=()):
    row = await svc.storage.store.fetchone(sql, params)
    return row[0]


@pytest.mark.parametrize(
    "point",
    [
        "adjudicate.after_close",
        "adjudicate.after_compute",
        "adjudicate.before_commit",
        "adjudicate.after_commit",
        "deliver.after_notify",
    ],
)
async def test_crash_at_each_step_of_adjudication(opener, clock, point):
    faults = Faults()
    first = MemoryNotifier()
    svc = await opener(notifier=first, faults=faults)
    gid = await seven_player_game(svc)
    await svc.submit(gid, "user-france", "A PAR - BUR")
    await svc.submit(gid, "user-germany", "A MUN - RUH")
    clock.set(await _deadline(svc, gid))
    delivered_before = len(first.events)
    faults.arm(point)
    with pytest.raises(Crash):
        await svc.run_due()
    crash(svc)

    second = MemoryNotifier()
    svc2 = await opener(notifier=second)
    await svc2.run_due()

    assert await _count(svc2, "SELECT COUNT(*) FROM results") == 1
    assert await _count(svc2, "SELECT COUNT(*) FROM audit WHERE action='adjudicated'") == 1
    res = await svc2.results(gid)
    assert res.orders[Power.FRANCE] == ["A PAR - BUR"]
    assert res.orders[Power.GERMANY] == ["A MUN - RUH"]
    keys = Counter(e.key for e in first.events[delivered_before:] + second.events)
    kinds = Counter(e.kind for e in first.events[delivered_before:] + second.events)
    repeats = {k: n for k, n in keys.items() if n > 1}
    if point == "deliver.after_notify":
        # Delivered, then killed before the mark: that one event comes again, same key,
        # flagged as a possible repeat (and with the same nonces, which Discord dedupes).
        assert list(repeats.values()) == [2]
        assert kinds[EventKind.RESULTS_READY] == 2
        again = [e for e in second.events if e.key in repeats]
        assert [e.attempt for e in again] == [1]
        assert again[0].nonce("chan") == first.events[delivered_before].nonce("chan")
        assert len(again[0].nonce("chan")) == 25
        assert all(e.attempt == 0 for e in second.events if e.key not in repeats)
    else:
        assert repeats == {}
        assert kinds[EventKind.RESULTS_READY] == 1
    assert kinds[EventKind.PRESS_LOCKED] == 1
    assert await _count(svc2, "SELECT COUNT(*) FROM outbox WHERE delivered_at IS NULL") == 0
    st = await svc2.status(gid)
    assert (st.phase, st.phase_status) == ("F1901M", "pending")


async def test_crash_before_commit_of_a_submission_keeps_the_previous_one(opener):
    faults = Faults()
    svc = await opener(faults=faults)
    gid = await seven_player_game(svc)
    await svc.submit(gid, "user-france", "A PAR - BUR")
    faults.arm("submit.before_commit")
    with pytest.raises(Crash):
        await svc.submit(gid, "user-france", "A PAR - PIC")
    crash(svc)
    svc2 = await opener()
    mine = await svc2.my_orders(gid, "user-france")
    assert mine.orders == ["A PAR - BUR"]


async def test_crash_after_commit_of_a_submission_keeps_it(opener):
    faults = Faults()
    svc = await opener(faults=faults)
    gid = await seven_player_game(svc)
    await svc.submit(gid, "user-france", "A PAR - BUR")
    faults.arm("submit.after_commit")
    with pytest.raises(Crash):
        await svc.submit(gid, "user-france", "A PAR - PIC")
    crash(svc)
    svc2 = await opener()
    assert (await svc2.my_orders(gid, "user-france")).orders == ["A PAR - PIC"]
    hist = await svc2.history(gid, "user-france")
    assert [h.text for h in hist] == ["A PAR - BUR", "A PAR - PIC"]
    assert hist[0].submitted_at <= hist[1].submitted_at


async def test_deadline_passed_while_down_fires_once_at_start_up(opener, clock):
    notes = MemoryNotifier()
    svc = await opener(notifier=notes)
    gid = await seven_player_game(svc)
    await svc.submit(gid, "user-italy", "A VEN - PIE")
    deadline = await _deadline(svc, gid)
    crash(svc)
    clock.set(deadline + 3600)  # down for an hour past the deadline

    notes2 = MemoryNotifier()
    svc2 = await opener(notifier=notes2)
    await svc2.run_due()
    await svc2.run_due()
    assert notes2.kinds().count("results_ready") == 1
    st = await svc2.status(gid)
    # The reading window runs from the actual adjudication, not from the old deadline.
    assert (st.phase, st.phase_status) == ("F1901M", "pending")
    assert st.opens_at == clock.now() + 240
    res = await svc2.results(gid)
    assert res.orders[Power.ITALY] == ["A VEN - PIE"]
    # No reminder is sent for a deadline already gone.
    assert "reminder_due" not in notes2.kinds()


async def test_a_failing_notifier_gets_each_event_again_until_it_succeeds(opener, clock):
    class Flaky(MemoryNotifier):
        def __init__(self):
            super().__init__()
            self.fail = 2

        async def notify(self, event):
            if event.kind is EventKind.RESULTS_READY and self.fail:
                self.fail -= 1
                raise ConnectionError("discord is down")
            await super().notify(event)

    notes = Flaky()
    svc = await opener(notifier=notes)
    gid = await seven_player_game(svc)
    clock.set(await _deadline(svc, gid))
    await svc.run_due()
    assert "results_ready" not in notes.kinds()
    await svc.deliver()
    await svc.deliver()
    assert notes.kinds().count("results_ready") == 1
    # Order within a game is kept: press_locked (after results) came after the results.
    kinds = notes.kinds()
    assert kinds.index("results_ready") < kinds.index("press_locked")


async def test_scheduler_task_fires_the_deadline_by_itself(opener, clock):
    notes = MemoryNotifier()
    svc = await opener(notifier=notes, run=True)
    gid = await seven_player_game(svc)
    clock.set(await _deadline(svc, gid))
    for _ in range(200):
        if "results_ready" in notes.kinds():
            break
        await asyncio.sleep(0.01)
    assert notes.kinds().count("results_ready") == 1
    await svc.close()


async def test_a_failing_adjudication_is_retried_later_without_blocking_others(opener, clock):
    class Buggy(SimpleEngine):
        fail = 1

        def adjudicate(self, position, orders, rules, game_map):
            if Buggy.fail:
                Buggy.fail -= 1
                raise RuntimeError("adjudicator bug")
            return super().adjudicate(position, orders, rules, game_map)

    notes = MemoryNotifier()
    svc = await opener(engine=Buggy(), notifier=notes)
    gid = await seven_player_game(svc)
    clock.set(await _deadline(svc, gid))
    await svc.run_due()
    st = await svc.status(gid)
    assert st.phase_status == "adjudicating"
    assert "adjudicator bug" in st.error
    assert await svc.run_due() == 0  # not retried in a tight loop
    clock.advance(30)
    await svc.run_due()
    st = await svc.status(gid)
    assert (st.phase, st.error) == ("F1901M", None)
    assert notes.kinds().count("results_ready") == 1


async def test_a_map_that_cannot_be_drawn_does_not_hold_back_results(opener, clock):
    class NoMap(SimpleEngine):
        def render(self, *args, **kw):
            raise OSError("geometry file missing")

    notes = MemoryNotifier()
    svc = await opener(engine=NoMap(), notifier=notes)
    gid = await seven_player_game(svc)
    clock.set(await _deadline(svc, gid))
    await svc.run_due()
    [res] = [e for e in notes.events if e.kind is EventKind.RESULTS_READY]
    assert res.png is None
    assert "geometry file missing" in res.payload["map_error"]


async def test_a_notifier_may_call_the_service_while_it_is_notified(opener, clock):
    class Chatty(MemoryNotifier):
        svc = None

        async def notify(self, event):
            await super().notify(event)
            if event.kind is EventKind.RESULTS_READY:
                # e.g. the bot pausing the table when the results are posted
                await self.svc.pause(event.game_id, "gm")

    notes = Chatty()
    svc = await opener(notifier=notes)
    notes.svc = svc
    gid = await seven_player_game(svc)
    clock.set(await _deadline(svc, gid))
    await svc.run_due()
    assert notes.kinds().count("results_ready") == 1
    assert notes.kinds().count("game_paused") == 1
    assert (await svc.status(gid)).status == "paused"
