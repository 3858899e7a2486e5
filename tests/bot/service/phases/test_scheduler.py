"""The scheduler (bot/service/phases/scheduler.py): due times, run_due, a failing step retried."""

from __future__ import annotations

from bot.service.phases.scheduler import RETRY
from tests.bot.service.conftest import SimpleEngine, seven_player_game


class FailingEngine(SimpleEngine):
    fail = True

    def adjudicate(self, *args, **kw):
        if self.fail:
            raise RuntimeError("engine bug")
        return super().adjudicate(*args, **kw)


async def test_what_is_due_next(opener, clock) -> None:
    svc = await opener()
    gid = await seven_player_game(svc, clock="casual")
    st = await svc.status(gid)
    due = await svc.next_due(gid)
    assert st.deadline is not None
    assert due is not None
    assert st.opens_at < due <= st.deadline
    assert await svc.run_due() == 0  # nothing due yet
    clock.set(st.deadline)
    assert await svc.run_due() == 1
    after = await svc.status(gid)
    assert (after.phase, after.phase_status) == ("F1901M", "pending")
    assert await svc.next_due(gid) == after.opens_at


async def test_a_failing_step_is_shown_and_retried_later(opener, clock) -> None:
    engine = FailingEngine()
    svc = await opener(engine=engine)
    gid = await seven_player_game(svc)
    clock.set((await svc.status(gid)).deadline)
    await svc.run_due()
    st = await svc.status(gid)
    assert st.error == "RuntimeError: engine bug"
    assert st.phase_status == "adjudicating"  # the orders are frozen, nothing lost
    assert await svc.next_due(gid) == clock.now()
    assert svc.table.due[gid] == clock.now() + RETRY
    engine.fail = False
    clock.advance(RETRY)
    await svc.run_due()
    st = await svc.status(gid)
    assert (st.phase, st.error) == ("F1901M", None)
