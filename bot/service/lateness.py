"""When an order set is in time (issue 19): by the time its Discord message was created.

At a tournament deadline hundreds of orders arrive together and some, sent before the
deadline, are read after it. So lateness is judged by when the player sent the set (the
message's own time, never later than its reading: a time from the future is not trusted;
bot.core.submission.accepts_orders), and a phase closes `grace` seconds after its deadline
so that what was sent in time and is still being read gets in. The public deadline (what
players are told, reminders, the next phase's times) is unchanged. A set that arrived within
the grace and is still being read when it ends holds the phase a little longer (`Intake`), and
is taken: its arrival, not the end of its reading, is what the grace measures.
"""

from __future__ import annotations

import itertools
from collections.abc import Collection, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from bot.service.clock import Clock

# Seconds a phase waits after its deadline for sets sent before it (`parley run --grace`).
# bench/round.py, 60 tables: the latest set sent in time was read ~1 s after the deadline.
GRACE = 2.0
# Seconds after the grace a phase may wait for sets that arrived in it and are still being
# read; then it closes whatever is still being read (a stuck reading never stops a game).
HOLD = 10.0
POLL = 0.05  # seconds between looks while a phase waits for such a set


def sent_time(created_at: float | None, received: float) -> float:
    """When a set was sent: its message's creation time, clamped to its reading."""
    return received if created_at is None else min(created_at, received)


@dataclass(frozen=True, slots=True)
class Receipt:
    """A set as the bot got it: who sent it, when they sent it, when it arrived."""

    user: str
    sent: float  # the message's own time, clamped to `received`
    received: float


class Intake:
    """The sets being read now. At a crowded deadline reading a set takes a while (the bench's
    latest: seconds): a phase does not close while a set that arrived before it closes, sent
    before its deadline, is still being read, for at most HOLD seconds after the grace."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self._reading: dict[int, Receipt] = {}
        self._ids = itertools.count()

    @contextmanager
    def receiving(self, user: str, created_at: float | None) -> Iterator[Receipt]:
        """While a set of `user`'s, made at `created_at`, is read (from its arrival on)."""
        now = self.clock.now()
        receipt = Receipt(user, sent_time(created_at, now), now)
        key = next(self._ids)
        self._reading[key] = receipt
        try:
            yield receipt
        finally:
            del self._reading[key]

    def holds(self, users: Collection[str], deadline: float, closes: float) -> bool:
        """Whether one of `users` has a set sent before `deadline`, arrived before `closes`,
        still being read."""
        return any(
            r.user in users and r.sent < deadline and r.received < closes
            for r in self._reading.values()
        )

    def __bool__(self) -> bool:
        return bool(self._reading)
