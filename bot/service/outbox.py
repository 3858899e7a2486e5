"""The outbox: events written in the same transaction as the change they announce, then
delivered to the notifier after the commit, in order within each game."""

from __future__ import annotations

import asyncio
import json
import logging

from bot.service import codec
from bot.service.errors import (
    CorruptGameError,
)
from bot.service.events import Event, EventKind, Notifier, TransientDeliveryError
from bot.service.storage.rows import OutboxRow
from bot.service.table import (
    Table,
)

log = logging.getLogger(__name__)


NOTIFY_TIMEOUT = 120.0  # seconds a notifier may take on one event before it is retried


class Outbox:
    """Delivers the events the other parts wrote to the outbox, in order per game, at
    least once (see `deliver`)."""

    def __init__(self, table: Table, notifier: Notifier) -> None:
        self.table = table
        self.notifier = notifier
        self._delivering = False
        self._deliver_again = False
        self.retry_at: float | None = None  # when a failed delivery is tried again

    def look_again(self) -> None:
        """A pass is running: it makes one more round when it ends (new events)."""
        self._deliver_again = True

    async def deliver(self) -> int:
        """Deliver undelivered events in order; returns how many were delivered. A failing
        notifier holds back that game's later events until the next try.

        One delivery runs at a time; a call made while one runs (from another game's step,
        or from the notifier itself calling the service) only asks it to look again, so a
        notifier may call any service method without deadlock."""
        if self._delivering:
            self._deliver_again = True
            return 0
        self._delivering = True
        total = 0
        try:
            while True:
                self._deliver_again = False
                total += await self._deliver_pending()
                if not self._deliver_again:
                    return total
        finally:
            self._delivering = False

    async def _deliver_pending(self) -> int:
        """One pass over the events pending now."""
        delivered = 0
        self.retry_at = None
        rows = await self.table.storage.pending_events()
        blocked: set[int] = set()
        for r in rows:
            gid = r.game_id
            if gid in blocked:
                continue
            try:
                event = await self._event(r)
            except (CorruptGameError, ValueError, KeyError) as exc:
                log.error("event %s unreadable: %s", r.key, exc)
                blocked.add(gid)
                continue
            async with self.table.storage.tx(durable=False) as tx:
                await tx.count_attempt(r.id)
            try:
                # A notifier that hangs must not hold every other game's events.
                await asyncio.wait_for(self.notifier.notify(event), NOTIFY_TIMEOUT)
            except (TransientDeliveryError, TimeoutError) as exc:
                # An outage: one line, no traceback (it is retried, nothing is lost).
                why = str(exc) or type(exc).__name__
                log.warning("delivery of %s deferred (%s); retrying in 5 s", event.key, why)
                blocked.add(gid)
                self.retry_at = self.table.clock.now() + 5.0
                continue
            except Exception:
                log.exception("notifier failed on %s; will retry", event.key)
                blocked.add(gid)
                self.retry_at = self.table.clock.now() + 5.0
                continue
            async with self.table.storage.tx(durable=False) as tx:
                await tx.mark_delivered(r.id, self.table.clock.now())
            delivered += 1
        return delivered

    async def _event(self, r: OutboxRow) -> Event:
        png = None
        outcome = None
        phase_name = None
        if r.phase_id is not None:
            prow = await self.table.storage.phase(r.phase_id)
            phase_name = prow.phase if prow else None
        kind = EventKind(r.kind)
        if kind is EventKind.RESULTS_READY and r.phase_id is not None:
            res = await self.table.storage.result(r.game_id, r.phase_id)
            if res is not None:
                png = res.png
                outcome = codec.outcome_from_json(json.loads(res.outcome_json))
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
