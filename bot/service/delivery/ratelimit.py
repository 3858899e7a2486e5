"""The bot's global rate limit shared by every process on one database (issue 17).

Discord allows a bot 50 requests per second across all its processes. Each process paces
its own requests (`bot/discord_app/pacing.py`); with several processes they also take turns
through the database: time is cut into slots of `width` seconds, each slot admits
`rate * width` requests in all (table `rate_slots`, migration 0007), a process takes the
first slot with room and waits for its start. Slots of 0.1 s at 40/s admit 4 each: any one
second of Discord's sliding window holds at most 11 slots, 44 requests, under 50.

Priorities hold across processes too (migration 0010, `rate_demand`): with each turn a
process says how urgent its most urgent waiting request is (a table's results first, DMs
last); a process whose demand is outranked by another live one waits a slot and asks again,
so one process's DMs never take the turns another process's results are waiting for. A
demand lapses `DEMAND` seconds after the start of the turn it asked for (a process with
nothing left to send stops outranking the others that much later).

Chosen over a shared REST proxy (discord.py can send through one): the database is already
shared and highly available for these processes, a proxy would be one more service to run
and a single point of failure, and a turn costs one small transaction (~1 ms).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from bot.service.storage import Storage
from bot.service.storage.claims import OUTRANKED, TAKEN

RATE = 40  # requests per second for the whole bot (of Discord's 50: a margin for jitter)
WIDTH = 0.1  # seconds per slot
LOOKAHEAD = 100  # slots searched before starting over from now (10 s)
DEMAND = 0.3  # seconds a process's waiting level outranks others after its last ask
URGENT = 1  # the level asked for when none is given (a table channel's ordinary post)


class SharedRate:
    """Turns under one global rate, taken through the database, most urgent process first."""

    def __init__(
        self,
        storage: Storage,
        *,
        owner: str = "",
        rate: int = RATE,
        width: float = WIDTH,
        clock: Callable[[], float] = time.time,  # wall time: the same on every process
    ) -> None:
        self.storage = storage
        self.owner = owner or f"rate-{id(self):x}"
        self.width = width
        self.per_slot = max(1, round(rate * width))
        self.clock = clock
        self._hint = 0  # the last slot this process found full or took (search from there)
        self._taken = 0
        self.outranked = 0  # times this process let a more urgent one go first

    async def turn(self, level: int = URGENT) -> None:
        """Wait until this process may start one request waiting at `level`."""
        while True:
            now = self.clock()
            first = max(int(now // self.width), self._hint)
            for slot in range(first, first + LOOKAHEAD):
                async with self.storage.tx(durable=False) as tx:
                    now = self.clock()  # (after waiting for the connection)
                    got = await tx.take_rate_turn(
                        slot,
                        self.per_slot,
                        owner=self.owner,
                        level=level,
                        now=now,
                        # (until after the turn's start: a process sleeping till its turn
                        # keeps its rank, it will ask again then)
                        until=max(now, slot * self.width) + DEMAND,
                    )
                    if got == TAKEN:
                        self._taken += 1
                        if self._taken % 500 == 0:  # forget slots long past
                            await tx.drop_rate_slots(slot - LOOKAHEAD)
                if got == OUTRANKED:
                    break
                if got != TAKEN:
                    self._hint = max(self._hint, slot + 1)
                    continue
                self._hint = slot
                wait = slot * self.width - self.clock()
                if wait > 0:
                    await asyncio.sleep(wait)
                return
            else:
                self._hint = 0
                continue
            self.outranked += 1
            await asyncio.sleep(self.width)  # (the other process's turns meanwhile)
