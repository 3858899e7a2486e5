"""The outbox (bot/service/delivery/outbox.py): in order per game, a failing game held back
alone."""

from __future__ import annotations

import logging

from bot.service import EventKind, MemoryNotifier
from bot.service.events import TransientDeliveryError
from tests.bot.service.conftest import seven_player_game


class Flaky(MemoryNotifier):
    """Fails every event of the games in `down` (a regular failure or an outage)."""

    def __init__(self, error: type[Exception]) -> None:
        super().__init__()
        self.down: set[int] = set()
        self.error = error

    async def notify(self, event) -> None:
        if event.game_id in self.down:
            raise self.error("down")
        await super().notify(event)


async def test_a_failing_game_holds_back_only_its_own_events(opener, clock) -> None:
    notes = Flaky(RuntimeError)
    svc = await opener(notifier=notes)
    first = await seven_player_game(svc)
    notes.down.add(first)
    second = await seven_player_game(svc)
    clock.set((await svc.status(first)).deadline)
    await svc.run_due()
    assert EventKind.RESULTS_READY.value in notes.kinds(second)
    assert notes.kinds(first) == ["game_started", "window_opened"]  # before it went down
    assert svc.outbox.retry_at == clock.now() + 5.0
    notes.down.clear()
    clock.advance(5)
    await svc.run_due()
    kinds = notes.kinds(first)
    assert kinds.count(EventKind.RESULTS_READY.value) == 1
    assert kinds.index(EventKind.PRESS_LOCKED.value) > kinds.index("window_opened")
    again = [e for e in notes.events if e.game_id == first and e.kind is EventKind.RESULTS_READY]
    assert again[0].attempt >= 1  # an earlier try may have gone through


async def test_an_outage_is_one_warning_line_without_a_traceback(opener, caplog) -> None:
    notes = Flaky(TransientDeliveryError)
    notes.down.add(1)  # the first game of a new file
    svc = await opener(notifier=notes)
    with caplog.at_level(logging.WARNING):
        gid = await seven_player_game(svc)
    assert gid == 1
    assert notes.kinds(gid) == []
    deferred = [r for r in caplog.records if "deferred" in r.getMessage()]
    assert deferred
    assert all(r.levelno == logging.WARNING and r.exc_info is None for r in deferred)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
