"""What was posted where, per event and destination: the record that makes posting exactly once
independent of Discord's nonce memory (which lasts only minutes).

A notifier posting an event somewhere calls `begin(event, dest, after)` before the first post
to that destination, `posted(...)` right after each message, with `last=True` on the last
(which marks the destination delivered in the same transaction). A retry finds what was already
posted and goes on from there; a destination begun but without every part recorded is where a
post may have gone through before the process died: the notifier looks there (from `after`, or
from the last recorded message) before posting again. Destinations and message ids are opaque
strings: no Discord here.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.service.clock.clocks import Clock
from bot.service.storage import Storage


@dataclass(frozen=True, slots=True)
class Delivery:
    event_id: int
    dest: str
    after: str | None  # where to look for an unrecorded post (the notifier's own token)
    message_ids: tuple[str, ...]  # recorded posts, by part
    delivered: bool
    resumed: bool  # begun by an earlier attempt: a post may have gone through unrecorded


class Deliveries:
    """The delivery record (migration 0004), through the storage."""

    def __init__(self, storage: Storage, clock: Clock) -> None:
        self.storage = storage
        self.clock = clock

    async def begin(self, event_id: int, game_id: int, dest: str, after: str | None) -> Delivery:
        """The delivery of `event_id` to `dest`, created if new (durably: a post may follow)."""
        async with self.storage.tx() as tx:
            created = await tx.begin_delivery(event_id, dest, game_id, after, self.clock.now())
        found = await self.storage.delivery(event_id, dest)
        assert found is not None
        return Delivery(
            event_id, dest, found.after, found.message_ids, found.delivered, not created
        )

    async def get(self, event_id: int, dest: str) -> Delivery | None:
        row = await self.storage.delivery(event_id, dest)
        if row is None:
            return None
        return Delivery(event_id, dest, row.after, row.message_ids, row.delivered, True)

    async def posted(
        self, event_id: int, dest: str, part: int, message_id: str, *, last: bool
    ) -> None:
        """Record one posted message; `last` also marks the destination delivered."""
        async with self.storage.tx() as tx:
            await tx.record_post(event_id, dest, part, message_id, self.clock.now(), last)

    async def claimed(self, message_ids: list[str]) -> set[str]:
        """Those of `message_ids` recorded for some delivery (not a candidate for another)."""
        return await self.storage.claimed_messages(message_ids)

    async def of_event(self, event_id: int) -> list[Delivery]:
        found = [await self.get(event_id, d) for d in await self.storage.delivery_dests(event_id)]
        return [d for d in found if d is not None]
