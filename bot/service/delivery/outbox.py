"""The outbox: events written in the same transaction as the change they announce, then
delivered to the notifier after the commit, in order within each game."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable

from bot.service import observe
from bot.service.errors import (
    CorruptGameError,
)
from bot.service.events import Event, EventKind, Notifier, TransientDeliveryError
from bot.service.storage import codec
from bot.service.storage.claims import LANE
from bot.service.storage.rows import OutboxRow
from bot.service.table import (
    Table,
)

log = logging.getLogger(__name__)


NOTIFY_TIMEOUT = 120.0  # seconds a notifier may take on one event before it is retried


class Outbox:
    """Delivers the events the other parts wrote to the outbox, in order per game, at
    least once (see `deliver`). Each game has its own lane: a game whose notifier is slow
    (a busy channel, a hanging Discord) delays only its own later events, and a game's
    results go out as soon as that game is adjudicated, not after the others."""

    def __init__(self, table: Table, notifier: Notifier) -> None:
        self.table = table
        self.notifier = notifier
        self._running: set[int] = set()  # games whose lane is delivering
        self._again: set[int] = set()  # lanes to make one more round (new events)
        self.retry_at: float | None = None  # when a failed delivery is tried again
        # Called with each event before the notifier (e.g. a tournament records a table's
        # end); a hook that fails holds the event back like a failing notifier: idempotent.
        self.hooks: list[Callable[[Event], Awaitable[None]]] = []
        # Called with each event the notifier has delivered (e.g. a tournament posts the
        # standings once every table's end is posted); a failure retries it like a hook's.
        self.delivered_hooks: list[Callable[[Event], Awaitable[None]]] = []

    def look_again(self) -> None:
        """Lanes running make one more round when they end (new events)."""
        self._again.update(self._running)

    async def deliver(self) -> int:
        """Deliver undelivered events, in order per game, the games side by side; returns
        how many were delivered. A failing notifier holds back that game's later events
        until the next try.

        A game's lane runs once at a time; a call made while it runs (from another game's
        step, or from the notifier itself calling the service) only asks it to look again,
        so a notifier may call any service method without deadlock."""
        self.retry_at = None
        rows = await self.table.storage.pending_events()
        games = list(dict.fromkeys(r.game_id for r in rows))
        if self.table.storage.shared and games:
            # Lanes other processes are delivering: left to them in one read, not one claim
            # each (a holder looks for new events after it lets its lane go).
            held = await self.table.storage.held_elsewhere(
                LANE, self.table.owner, self.table.clock.now()
            )
            for until in (held[g] for g in games if g in held):
                self._retry_later(until)
            games = [g for g in games if g not in held]
        return sum(await asyncio.gather(*(self._lane(g) for g in games)))

    async def deliver_game(self, game_id: int) -> int:
        """Deliver this game's pending events (its lane; see `deliver`)."""
        return await self._lane(game_id)

    async def _lane(self, game_id: int) -> int:
        if game_id in self._running:
            self._again.add(game_id)
            return 0
        self._running.add(game_id)
        total = 0
        try:
            while True:
                # On a shared database one process delivers a game's events at a time (a
                # lane claim, issue 17); the others leave the lane to it.
                later = await self.table.claim(game_id, LANE)
                if later is not None:
                    self._retry_later(later)  # (the holder's lease: if it died)
                    return total
                try:
                    done, complete = await self._round(game_id)
                    total += done
                finally:
                    await self.table.release(game_id, LANE)
                # An event another process wrote while this one held the lane: it found the
                # lane taken and left the event to this one.
                if not (complete and self.table.storage.shared):
                    return total
                if not await self.table.storage.pending_events_of(game_id):
                    return total
        finally:
            self._running.discard(game_id)

    async def _round(self, game_id: int) -> tuple[int, bool]:
        """This game's pending events, again while new ones come; (delivered, none failed)."""
        total = 0
        while True:
            self._again.discard(game_id)
            done, complete = await self._deliver_game(game_id)
            total += done
            if not complete or game_id not in self._again:
                return total, complete

    def _retry_later(self, when: float | None = None) -> None:
        when = self.table.clock.now() + 5.0 if when is None else when
        self.retry_at = when if self.retry_at is None else min(self.retry_at, when)

    async def _deliver_game(self, game_id: int) -> tuple[int, bool]:
        """One pass over this game's events pending now; stops at the first failure:
        (delivered, none failed)."""
        delivered = 0
        done: int | None = None  # delivered: marked with the next event's attempt, or at the end
        names: dict[int, str | None] = {}  # phase names, read once per pass
        for r in await self.table.storage.pending_events_of(game_id):
            try:
                event = await self._event(r, names)
            except (CorruptGameError, ValueError, KeyError) as exc:
                log.error("event %s unreadable: %s", r.key, exc)
                await self._mark(done)
                return delivered, False
            # One transaction: the last event's delivery and this one's attempt.
            async with self.table.storage.tx(durable=False) as tx:
                if done is not None:
                    await tx.mark_delivered(done, self.table.clock.now())
                done = None
                await tx.count_attempt(r.id)
            with observe.about(event.game_id, event.phase):  # (its log lines name the game)
                try:
                    # A notifier that hangs must not hold this game's events forever.
                    for hook in self.hooks:
                        await hook(event)
                    await asyncio.wait_for(self.notifier.notify(event), NOTIFY_TIMEOUT)
                    for hook in self.delivered_hooks:
                        await hook(event)
                except (TransientDeliveryError, TimeoutError) as exc:
                    # An outage: one line, no traceback (it is retried, nothing is lost).
                    why = str(exc) or type(exc).__name__
                    log.warning("delivery of %s deferred (%s); retrying in 5 s", event.key, why)
                    observe.report("delivery_retry")
                    self._retry_later()
                    return delivered, False
                except Exception:
                    log.exception("notifier failed on %s; will retry", event.key)
                    observe.report("delivery_retry")
                    self._retry_later()
                    return delivered, False
            deadline = event.payload.get("deadline")
            if event.kind is EventKind.RESULTS_READY and deadline is not None:
                observe.report("results_posted", self.table.clock.now() - float(deadline))
            done = r.id
            delivered += 1
        await self._mark(done)
        return delivered, True

    async def _mark(self, event_id: int | None) -> None:
        if event_id is not None:
            async with self.table.storage.tx(durable=False) as tx:
                await tx.mark_delivered(event_id, self.table.clock.now())

    async def _event(self, r: OutboxRow, names: dict[int, str | None] | None = None) -> Event:
        png = None
        outcome = None
        phase_name = None
        names = {} if names is None else names
        if r.phase_id is not None:
            if r.phase_id not in names:
                prow = await self.table.storage.phase(r.phase_id)
                names[r.phase_id] = prow.phase if prow else None
            phase_name = names[r.phase_id]
        kind = EventKind(r.kind)
        if kind is EventKind.RESULTS_READY and r.phase_id is not None:
            # Just adjudicated in this process: the map and outcome as committed, not read
            # back (a 150 kB map per game at a deadline); else from the results row.
            fresh = self.table.fresh_results.pop(r.phase_id, None)
            if fresh is None:
                res = await self.table.storage.result(r.game_id, r.phase_id)
                fresh = (res.png, res.outcome_json) if res is not None else None
            if fresh is not None:
                png = fresh[0]
                outcome = codec.outcome_from_json(json.loads(fresh[1]))
        return Event(
            r.id,
            r.key,
            r.game_id,
            kind,
            phase_name,
            json.loads(r.payload_json),
            r.created_at,
            png,
            outcome,
            r.attempts,
        )
