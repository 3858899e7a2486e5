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

from dataclasses import dataclass, replace
from typing import Any

from bot.service.store import Store


@dataclass(frozen=True, slots=True)
class Delivery:
    event_id: int
    dest: str
    after: str | None  # where to look for an unrecorded post (the notifier's own token)
    message_ids: tuple[str, ...]  # recorded posts, by part
    delivered: bool
    resumed: bool  # begun by an earlier attempt: a post may have gone through unrecorded


class Deliveries:
    """The `deliveries` and `delivered_messages` tables (migration 0004)."""

    def __init__(self, store: Store, clock: Any) -> None:
        self.store = store
        self.clock = clock

    async def begin(self, event_id: int, game_id: int, dest: str, after: str | None) -> Delivery:
        """The delivery of `event_id` to `dest`, created if new (durably: a post may follow)."""
        async with self.store.tx() as tx:
            created = await tx.execute(
                "INSERT OR IGNORE INTO deliveries (event_id, dest, game_id, after, started_at)"
                " VALUES (?,?,?,?,?)",
                (event_id, dest, game_id, after, self.clock.now()),
            )
        found = await self.get(event_id, dest)
        assert found is not None
        return replace(found, resumed=False) if created else found

    async def get(self, event_id: int, dest: str) -> Delivery | None:
        row = await self.store.fetchone(
            "SELECT after, delivered_at FROM deliveries WHERE event_id=? AND dest=?",
            (event_id, dest),
        )
        if row is None:
            return None
        parts = await self.store.fetchall(
            "SELECT message_id FROM delivered_messages WHERE event_id=? AND dest=? ORDER BY part",
            (event_id, dest),
        )
        return Delivery(
            event_id,
            dest,
            row["after"],
            tuple(str(p["message_id"]) for p in parts),
            row["delivered_at"] is not None,
            True,
        )

    async def posted(
        self, event_id: int, dest: str, part: int, message_id: str, *, last: bool
    ) -> None:
        """Record one posted message; `last` also marks the destination delivered."""
        now = self.clock.now()
        async with self.store.tx() as tx:
            await tx.execute(
                "INSERT OR REPLACE INTO delivered_messages (event_id, dest, part, message_id,"
                " posted_at) VALUES (?,?,?,?,?)",
                (event_id, dest, part, message_id, now),
            )
            if last:
                await tx.execute(
                    "UPDATE deliveries SET delivered_at=? WHERE event_id=? AND dest=?",
                    (now, event_id, dest),
                )

    async def claimed(self, message_ids: list[str]) -> set[str]:
        """Those of `message_ids` recorded for some delivery (not a candidate for another)."""
        if not message_ids:
            return set()
        marks = ",".join("?" * len(message_ids))
        rows = await self.store.fetchall(
            f"SELECT message_id FROM delivered_messages WHERE message_id IN ({marks})",  # noqa: S608
            message_ids,
        )
        return {str(r["message_id"]) for r in rows}

    async def of_event(self, event_id: int) -> list[Delivery]:
        rows = await self.store.fetchall(
            "SELECT dest FROM deliveries WHERE event_id=? ORDER BY started_at, rowid", (event_id,)
        )
        found = [await self.get(event_id, r["dest"]) for r in rows]
        return [d for d in found if d is not None]
