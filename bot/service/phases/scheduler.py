"""The scheduler: recovery at start-up, due times, and the loop that runs them."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import zlib
from collections.abc import Coroutine
from typing import Any

from bot.service import observe
from bot.service.delivery.outbox import Outbox
from bot.service.errors import (
    CorruptGameError,
    ServiceError,
)
from bot.service.events import EventKind
from bot.service.games.queries import Queries
from bot.service.games.unreadable import broken_key, unreadable_reason
from bot.service.phases.phase_machine import PhaseMachine
from bot.service.storage.claims import CLOCK
from bot.service.table import (
    Table,
)

log = logging.getLogger(__name__)


RETRY = 30.0  # seconds before a failed clock step of a game is tried again
STEPS_AT_ONCE = 16  # due games this process steps at once
CLAIM_RETRY = 0.05  # seconds: another process was claiming the same step this instant
# Leases after a step or an event was due before a process takes over a game that falls to
# another live process (one alive but wedged; a dead one drops out of the live ones after
# a lease and its games fall to the others). Not shorter: a process merely behind (a
# crowded deadline, a loaded machine) is no reason to race for its work.
WEDGED = 10
HELLO = 0  # the game id of a process's "I am here" notice (no game has it)


class Scheduler:
    """Runs each game's clock: at every due time one step of the phase machine, then delivery."""

    def __init__(
        self, table: Table, machine: PhaseMachine, outbox: Outbox, queries: Queries
    ) -> None:
        self.table = table
        self.machine = machine
        self.outbox = outbox
        self.queries = queries
        self._task: asyncio.Task[None] | None = None
        self._deliveries: set[asyncio.Task[None]] = set()  # delivery passes running
        self._pass_done = asyncio.Event()  # a background delivery pass ended
        self._helpers: set[asyncio.Task[None]] = set()  # lease renewal, notices heard
        self._full_pass: asyncio.Task[None] | None = None  # the pass over every game
        self._pass_again = False  # kicked while it ran: run once more
        # The other processes on the database, by their hellos: each game falls to one live
        # process (the highest hash of process and game), which steps and delivers it; the
        # others only if it is still not done WEDGED leases after it was due. Without it
        # every process raced for every step and lane, and all but one lost: a wasted claim
        # each; a takeover after one lease did the same whenever the processes were behind
        # (10,000 games: 3.4 lost clock claims a game).
        self._peers: dict[str, float] = {}
        self._live: tuple[str, ...] = ()
        self._falls: dict[int, bool] = {}  # game -> falls to this process (for `_live`)
        self._regrouped = False  # the live processes changed: a delivery pass for the games
        self.closed = False

    def start(self) -> None:
        """Start the scheduler task (deadlines, reminders, delivery); on a shared database
        also the renewal of this process's leases and the notices of the others."""
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._loop())
            if self.table.storage.shared:
                self._spawn(self._renew_leases())
                self._spawn(self.table.storage.listen(self.heard))

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._helpers.add(task)
        task.add_done_callback(self._helpers.discard)

    def heard(self, game_id: int, sender: str, due: float | None) -> None:
        """Another process changed a game (a new phase, a deadline moved, an early
        adjudication, a start): its next due time is as it says. A hello says a process
        runs a scheduler (every lease/3); a newcomer's is answered with ours."""
        if sender == self.table.owner or self.closed:
            return
        if game_id == HELLO:  # (only processes running a scheduler say hello)
            if sender not in self._peers and self.table.storage.shared:
                self._spawn(self._hello())
            self._peers[sender] = self.table.clock.now()
            return
        if game_id in self.table.broken:
            return
        woke = self.table.wake.is_set()
        self.table.changed_elsewhere(game_id, due)
        if not woke:  # the loop looks at the new time; no delivery pass for it (its
            self.table.wake.clear()  # events are the sender's, or the one they fall to)

    async def _hello(self) -> None:
        with contextlib.suppress(ServiceError):
            await self.table.storage.announce(HELLO, self.table.owner, None)

    def _refresh_live(self) -> None:
        """The live processes (heard from within a lease), this one included."""
        since = self.table.clock.now() - self.table.lease
        live = tuple(sorted([self.table.owner, *(p for p, t in self._peers.items() if t > since)]))
        if live != self._live:
            self._live = live
            self._falls.clear()
            self._regrouped = True

    @property
    def live_processes(self) -> int:
        """Processes running a scheduler on this database, this one included (by hellos)."""
        since = self.table.clock.now() - self.table.lease
        return 1 + sum(1 for t in self._peers.values() if t > since)

    def falls_here(self, game_id: int) -> bool:
        """Whether this game's work falls to this process among the live ones."""
        if len(self._live) <= 1:
            return True
        found = self._falls.get(game_id)
        if found is None:
            best = max(self._live, key=lambda p: zlib.crc32(f"{p}:{game_id}".encode()))
            found = self._falls[game_id] = best == self.table.owner
        return found

    def _starts_at(self, game_id: int, due: float) -> float:
        """When this process takes a step due at `due`."""
        return due if self.falls_here(game_id) else due + WEDGED * self.table.lease

    async def _renew_leases(self) -> None:
        """A live process keeps its claims (a long delivery, a slow adjudication); a dead
        one's run out after `lease` and the others take the work over."""
        await self._hello()
        while not self.closed:
            await asyncio.sleep(self.table.lease / 3)
            await self._hello()
            try:
                until = self.table.clock.now() + self.table.lease
                async with self.table.storage.tx(durable=False) as tx:
                    await tx.renew_claims(self.table.owner, until)
            except ServiceError as exc:
                log.warning("cannot renew this process's claims: %s", exc.message)

    async def stop(self) -> None:
        """Stop the scheduler task (at close)."""
        self.closed = True
        for task in (self._task, *self._deliveries, *self._helpers):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        self._task = None
        self._deliveries.clear()

    async def recover(self) -> None:
        """At start-up: every running game is read once (an unreadable one is stopped) and
        its clock scheduled."""
        # Forming games too: their variant must load for them to start.
        statuses = ("forming", "active", "paused")
        for gid in await self.table.storage.game_ids(statuses=statuses):
            try:
                # status reads the settings and the game's own variant, players, current phase
                # and position, and turns an unreadable one into `broken`.
                st = await self.queries.status(gid)
                if st.broken:
                    await self.mark_broken(gid, st.broken)
                    continue
                await self.table.reschedule(gid, announce=False)
            except Exception as exc:  # noqa: BLE001 - one damaged game must not stop the others
                await self.mark_broken(gid, unreadable_reason(gid, exc))

    async def mark_broken(self, game_id: int, why: str) -> None:
        """Stop this game (its commands raise CorruptGameError), tell the operator (log) and
        its GM (a game_broken event, once per reason); the other games run on."""
        self.table.broken[game_id] = why
        self.table.due.pop(game_id, None)
        log.error("game %s is stopped, its data cannot be read: %s", game_id, why)
        try:
            async with self.table.storage.tx() as tx:
                kind = EventKind.GAME_BROKEN
                key = broken_key(game_id, why)
                await self.table.emit(tx, key, game_id, kind, self.table.clock.now(), {"why": why})
        except Exception as exc:  # noqa: BLE001 - best effort: the game is stopped anyway
            log.error("game %s: cannot record the notice to its GM: %s", game_id, exc)
        if await self.table.storage.has_pending_events():
            self.outbox.retry_at = self.table.clock.now()

    async def next_due(self, game_id: int) -> float | None:
        """When this game's clock next has something to do (UTC seconds), if ever."""
        return await self.table.next_due(game_id)

    async def run_due(self) -> int:
        """Do everything due now (windows, reminders, adjudications), then deliver events.
        The scheduler calls this; tests and the demo call it after moving a fake clock."""
        n = await self._run_clock()
        await self.outbox.deliver()
        return n

    async def _run_clock(self) -> int:
        now = self.table.clock.now()
        self._refresh_live()
        due = [
            g
            for g, when in self.table.due.items()
            if when <= now and self._starts_at(g, when) <= now
        ]
        if due:
            # A few at a time: the games this process has not claimed yet stay free for the
            # other processes, and one whose step another process did meanwhile (its notice
            # moved the due time) is left alone.
            gate = asyncio.Semaphore(STEPS_AT_ONCE)

            async def step(game_id: int) -> None:
                async with gate:
                    if self.table.due.get(game_id, now + 1) <= now:
                        await self.advance(game_id, deliver=False)

            await asyncio.gather(*(step(g) for g in due))
        return len(due)

    def _kick_delivery(self) -> None:
        """Deliver in a task of its own: a slow or absent Discord never holds the clock.
        Each pass starts the lanes of games not being delivered (see `Outbox`). One pass
        at a time: a kick while one runs asks its lanes to look again and makes it run
        once more after (thousands of kicks in a burst must not each read every pending
        event)."""
        self.outbox.retry_at = None  # (set again by a pass that fails)
        if self._full_pass is not None and not self._full_pass.done():
            self.outbox.look_again()
            self._pass_again = True
            return
        self._pass_again = False
        self._full_pass = asyncio.get_running_loop().create_task(self._passes())
        self._deliveries.add(self._full_pass)
        self._full_pass.add_done_callback(self._deliveries.discard)

    async def _passes(self) -> None:
        while True:
            await self._deliver_task()
            if not self._pass_again or self.closed:
                return
            self._pass_again = False

    async def _deliver_task(self, game_id: int | None = None) -> None:
        try:
            if game_id is None and self.table.storage.shared:
                await self._deliver_shared()
            elif game_id is None:
                await self.outbox.deliver()
            else:
                await self.outbox.deliver_game(game_id)
        except Exception:
            log.exception("delivery pass failed")
            self.outbox.retry_at = self.table.clock.now() + 5.0
        finally:
            self._pass_done.set()  # the scheduler's timer takes in a retry time

    def _next_times(self, now: float) -> list[float]:
        """The candidates for the next wake-up: the soonest due time to come, when this
        process takes each step already due (a scan of 10,000 games per pass: kept cheap),
        and when each other process drops out of the live ones unless it says hello."""
        due = self.table.due
        # When a peer drops out if it says nothing more (its games then fall to the others).
        expiry = [t + self.table.lease for t in self._peers.values() if t + self.table.lease > now]
        if len(self._live) <= 1:
            return [*due.values(), *expiry]
        future = min((w for w in due.values() if w > now), default=None)
        times = [self._starts_at(g, w) for g, w in due.items() if w <= now]
        return [*times, *expiry, *([] if future is None else [future])]

    async def _deliver_shared(self) -> None:
        """A delivery pass on a shared database: the lanes of the games that fall to this
        process, and of any other game whose events waited WEDGED leases; lanes another
        process holds are left to it until its lease ends."""
        now = self.table.clock.now()
        self._refresh_live()
        mine = []
        later: list[float] = []
        for pending in await self.table.storage.pending_games(self.table.owner, now):
            if pending.held_until is not None:  # (looked at again if its holder dies)
                if self.falls_here(pending.game_id):
                    later.append(pending.held_until)
                continue
            start = self._starts_at(pending.game_id, pending.oldest)
            if start <= now:
                mine.append(pending.game_id)
            else:
                later.append(start)
        if later:
            soonest = min(later)
            retry = self.outbox.retry_at
            self.outbox.retry_at = soonest if retry is None else min(retry, soonest)
        await asyncio.gather(*(self.outbox.deliver_game(g) for g in mine))

    async def _loop(self) -> None:
        poked = True  # at start, and whenever an operation woke the scheduler (new events)
        while not self.closed:
            poked = poked or self.table.wake.is_set()
            self.table.wake.clear()
            self._pass_done.clear()
            try:
                stepped = await self._run_clock()
                retry = self.outbox.retry_at
                due_retry = retry is not None and retry <= self.table.clock.now()
                if poked or stepped or self._regrouped or due_retry:
                    self._regrouped = False
                    self._kick_delivery()
                poked = False
            except ServiceError as exc:
                log.error("scheduler: %s", exc.message)
            except Exception:
                log.exception("scheduler step failed")
            now = self.table.clock.now()
            times = self._next_times(now)
            if self.outbox.retry_at is not None:
                times.append(self.outbox.retry_at)
            nxt = min(times, default=None)
            if nxt is not None and nxt <= now:
                await asyncio.sleep(0)
                continue
            waiters: list[asyncio.Future[Any]] = [
                asyncio.ensure_future(self.table.wake.wait()),
                asyncio.ensure_future(self._pass_done.wait()),
            ]
            if nxt is not None:
                waiters.append(asyncio.ensure_future(self.table.clock.sleep_until(nxt)))
            try:
                await asyncio.wait(waiters, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for w in waiters:
                    w.cancel()

    async def advance(self, game_id: int, *, deliver: bool = True) -> None:
        """One step of a game's clock: open a window, send a reminder, or adjudicate. On a
        shared database the step is claimed first: one process takes it, the others look
        again when its lease runs out (it announces the game's new times when done)."""
        later = await self.table.claim(game_id, CLOCK)
        if later is not None:
            self.table.due[game_id] = max(later, self.table.clock.now() + CLAIM_RETRY)
            return
        try:
            await self._step(game_id)
        finally:
            await self.table.release(game_id, CLOCK)
        # Deliver this game's events now rather than after every due game is done.
        if deliver:
            await self.outbox.deliver()
        elif self._task is not None:
            self._kick_lane(game_id)

    def _kick_lane(self, game_id: int) -> None:
        """This game's lane in a task of its own (due games stepped together do not each
        scan every game's pending events)."""
        task = asyncio.get_running_loop().create_task(self._deliver_task(game_id))
        self._deliveries.add(task)
        task.add_done_callback(self._deliveries.discard)

    async def _step(self, game_id: int) -> None:
        with observe.about(game_id):
            await self._step_locked(game_id)

    async def _step_locked(self, game_id: int) -> None:
        async with self.table.lock(game_id):
            try:
                await self.machine.advance_locked(game_id)
            except CorruptGameError as exc:
                await self.mark_broken(game_id, exc.message)
                return
            except Exception as exc:
                # A bug or a missing file must not spin the scheduler: retry this game
                # later; the other games go on.
                log.exception("game %s: clock step failed; retrying in %ss", game_id, RETRY)
                self.table.errors[game_id] = f"{type(exc).__name__}: {exc}"
                self.table.due[game_id] = self.table.clock.now() + RETRY
                self.table.wake.set()
                return
            self.table.errors.pop(game_id, None)
            await self.table.reschedule(game_id)
