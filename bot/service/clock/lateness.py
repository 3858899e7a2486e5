"""When an order set is in time (issue 19): by the time its Discord message was created.

At a tournament deadline hundreds of orders arrive together and some, sent before the
deadline, are read after it. So lateness is judged by when the player sent the set (the
message's own time, never later than its reading: a time from the future is not trusted;
bot.core.writing.submission.accepts_orders), and a phase closes `grace` seconds after its deadline
so that what was sent in time and is still being read gets in. The public deadline (what
players are told, reminders, the next phase's times) is unchanged. A set that arrived within
the grace and is still being read when it ends holds the phase a little longer (`Intake`), and
is taken: its arrival, not the end of its reading, is what the grace measures.

A busy bot reads its gateway late: a DM Discord delivered in time may wait in the socket
while the bot adjudicates other tables, and its arrival, as the bot sees it, comes after the
grace. So with a Discord gateway (`Intake.fence`, set by the bot) the grace is only a floor
(Discord's own delay and clock skew): at its end the bot sends a heartbeat and reads its
gateway up to the answer, and a set whose event came before that answer has arrived in time,
however late the bot got to it. The grace so adapts to the bot's lag, up to HOLD. Without a
gateway (the service alone, `parley demo`) or with no grace (`--grace 0`) it is fixed.

After a restart (issue 36) a phase whose grace ended before this process started, or before its
first gateway session, closes at once: a new process's gateway session only carries what
Discord sends from its start on, so nothing sent in time is left to read (`NoSessionError`).
One whose grace ends while the gateway is not connected yet (or is reconnecting) catches up as
soon as it is, tried again every FENCE_GAP; however the gateway behaves, a phase waits at most
HOLD after its grace (`Table.held`). A gateway that cannot be followed (a discord.py whose
private keep-alive state changed) leaves the grace fixed, and the phases waiting for it close
at once.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import math
import time
from collections.abc import Awaitable, Callable, Collection, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from bot.service.clock.clocks import Clock

# Seconds a phase waits after its deadline for sets sent before it (`parley run --grace`):
# a floor for Discord's own delay and the clocks' difference; the bot's lag is waited for
# on top (the catch-up with its gateway, below). 2 s before it, when the bot's lag counted.
GRACE = 1.0
# Seconds after the grace a phase may wait for sets that arrived in it and are still being
# read; then it closes whatever is still being read (a stuck reading never stops a game).
HOLD = 10.0
POLL = 0.05  # seconds between looks while a phase waits for such a set
# Real seconds between two catch-ups with the gateway: each is a heartbeat, and Discord takes
# at most 120 sends a minute on a connection (discord.py's own heartbeats among them).
FENCE_GAP = 0.6

log = logging.getLogger("parley.service")


class NoSessionError(ConnectionError):
    """The fence's answer when this process has never been connected to the gateway: no
    session was open when it was asked, so none holds anything sent before (issue 36)."""


def sent_time(created_at: float | None, received: float) -> float:
    """When a set was sent: its message's creation time, clamped to its reading."""
    return received if created_at is None else min(created_at, received)


@dataclass(frozen=True, slots=True)
class Receipt:
    """A set as the bot got it: who sent it, when they sent it, when it arrived, and how
    many sets had arrived before it (`seq`: the order of arrival, exact where times tie)."""

    user: str
    sent: float  # the message's own time, clamped to `received`
    received: float
    seq: int = -1


class Intake:
    """The sets being read now. At a crowded deadline reading a set takes a while (the bench's
    latest: seconds): a phase does not close while a set that arrived in time, sent before
    its deadline, is still being read, for at most HOLD seconds after the grace."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self._reading: dict[int, Receipt] = {}
        self._seq = itertools.count()
        # Resolves once the bot has read every gateway event Discord sent before the call
        # (the bot's, bot.discord_app.gateway); None: no gateway, the grace is fixed.
        self.fence: Callable[[], Awaitable[None]] | None = None
        # (when a catch-up began, how many sets had arrived when it ended), oldest first
        self._caught_up: list[tuple[float, int]] = []
        self._fencing: asyncio.Task[None] | None = None
        self._last_fence = -math.inf  # real time (the gateway's rate)
        self._arrived = 0
        self.then: Callable[[], None] | None = None  # told each time the bot has caught up
        self.catch_ups = 0  # how many times it has
        self.started = clock.now()  # (this process's gateway carries nothing sent before)

    @contextmanager
    def receiving(self, user: str, created_at: float | None) -> Iterator[Receipt]:
        """While a set of `user`'s, made at `created_at`, is read (from its arrival on)."""
        now = self.clock.now()
        seq = next(self._seq)
        self._arrived = seq + 1
        receipt = Receipt(user, sent_time(created_at, now), now, seq)
        self._reading[seq] = receipt
        try:
            yield receipt
        finally:
            del self._reading[seq]

    def holds(self, users: Collection[str], deadline: float, closes: float, mark: int) -> bool:
        """Whether one of `users` has a set sent before `deadline` still being read that
        arrived before `closes` or among the first `mark` sets (before the bot caught up)."""
        return any(
            r.user in users and r.sent < deadline and (r.received < closes or r.seq < mark)
            for r in self._reading.values()
        )

    def caught_up(self, closes: float) -> int | None:
        """With a gateway: how many sets had arrived when the bot had read its gateway up to
        a heartbeat sent at or after `closes` (those arrived in time, however late it read
        them); None until then (a catch-up begins at `closes`). Without one: 0."""
        if self.fence is None or closes <= self.started:
            return 0
        if self.clock.now() < closes:
            return None
        for asked, arrived in self._caught_up:
            if asked >= closes:
                return arrived
        if self._fencing is None or self._fencing.done():
            self._fencing = asyncio.create_task(self._catch_up(self.fence))
        return None

    def grace_for(self, deadline: float | None, grace: float, receipt: Receipt | None) -> float:
        """The grace of a set (`receipt`) for a phase with this deadline: `grace`, or none
        needed (infinite: the phase's status still rules) while the bot has not caught up
        with its gateway or if the set arrived before it had."""
        if grace <= 0 or deadline is None or self.fence is None:
            return grace
        mark = self.caught_up(deadline + grace)
        if mark is None or (receipt is not None and 0 <= receipt.seq < mark):
            return math.inf
        return grace

    async def _catch_up(self, fence: Callable[[], Awaitable[None]]) -> None:
        """Catch up, tried again every FENCE_GAP while the gateway is not connected or does
        not answer, for at most HOLD (the phases waiting for it close by then anyway)."""
        first = time.monotonic()
        failures = 0
        while True:
            await asyncio.sleep(max(0.0, self._last_fence + FENCE_GAP - time.monotonic()))
            self._last_fence = time.monotonic()
            asked = self.clock.now()
            try:
                await asyncio.wait_for(fence(), HOLD)
                break
            except NoSessionError:  # what comes on its first session was sent after `asked`
                break
            except NotImplementedError as exc:  # cannot be followed: the grace alone
                log.warning("the gateway cannot be followed (%s): the grace is fixed", exc)
                self.fence = None
                break  # (the phases waiting for a catch-up are due now)
            except Exception as exc:  # noqa: BLE001 - not caught up: try again shortly
                failures += 1
                if failures == 1:  # (one line per stretch, not one per try)
                    log.warning("could not catch up with the gateway: %s", exc)
                if self.fence is not fence or time.monotonic() - first >= HOLD:
                    return
        await asyncio.sleep(0)  # the handlers of the events read before it start first
        if self.fence is not None:
            # A few recent answers serve every phase that closed before them.
            self._caught_up = [*self._caught_up[-7:], (asked, self._arrived)]
            self.catch_ups += 1
        if self.then is not None:
            self.then()

    def stop(self) -> None:
        """No more catch-ups (the service closes)."""
        self.fence = None
        if self._fencing is not None:
            self._fencing.cancel()

    def __bool__(self) -> bool:
        return bool(self._reading)
