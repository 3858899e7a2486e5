"""Several Parley processes on one PostgreSQL schema (issue 17): two services, each with its
own connection, claims and notifier, stand for two processes. Each (game, phase) is
adjudicated by exactly one of them, each event delivered by one, a dead one's claim is taken
over after its lease, and a change made by one wakes the other's scheduler."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.service import FakeClock, MemoryNotifier, TableService
from bot.service.phases.scheduler import HELLO
from bot.service.storage.claims import CLOCK, LANE
from bot.service.storage.postgres import PgStorage
from tests.bot.service.conftest import SimpleEngine, seven_player_game
from tests.bot.service.pg import dsn, fresh_schema, settings


@pytest.fixture
async def pair(clock: FakeClock) -> AsyncIterator[tuple[TableService, TableService]]:
    async with fresh_schema() as schema:
        opened = []
        for _ in range(2):
            storage = await PgStorage.open(dsn(), server_settings=settings(schema))
            opened.append(
                await TableService.open(
                    clock=clock,
                    engine=SimpleEngine(),
                    notifier=MemoryNotifier(),
                    storage=storage,
                    run=False,
                    grace=0.0,  # the tests step to the deadline (test_lateness.py: the grace)
                )
            )
        yield opened[0], opened[1]
        for svc in opened:
            await svc.close()


def delivered(svc: TableService) -> list[Any]:
    notifier = svc.notifier
    assert isinstance(notifier, MemoryNotifier)
    return notifier.events


async def results_rows(svc: TableService, game_id: int) -> int:
    phases = await svc.storage.phase_summaries(game_id)
    return sum(1 for p in phases if p.adjudicated_at is not None)


async def test_two_processes_racing_for_one_due_phase_adjudicate_it_once(pair, clock):
    a, b = pair
    gid = await seven_player_game(a)
    await b.scheduler.recover()  # b learns of the game as a restarted process would
    steps = 0
    while await results_rows(a, gid) < 5:  # every step raced for by both: opens,
        due = await a.next_due(gid)  # reminders, deadlines
        assert due is not None
        clock.set(due)
        await asyncio.gather(a.run_due(), b.run_due())
        steps += 1
        assert steps < 100
    assert await results_rows(a, gid) == 5
    phases = [p.phase for p in await a.storage.phase_summaries(gid)]
    assert len(phases) == len(set(phases))  # no phase twice
    audit = [e for e in await a.storage.audit(gid) if e.action == "adjudicated"]
    assert len(audit) == 5
    results = [e.key for svc in pair for e in delivered(svc) if e.kind.value == "results_ready"]
    assert len(results) == 5
    assert len(set(results)) == 5


async def test_a_dead_process_claim_is_taken_over_after_its_lease(pair, clock):
    a, b = pair
    gid = await seven_player_game(a)
    await b.scheduler.recover()
    deadline = (await a.status(gid)).deadline
    assert deadline is not None
    clock.set(deadline)
    # Process "a" claims the step, closes the phase (orders frozen) and dies before the
    # results: its claim stays with its lease.
    async with a.storage.tx() as tx:
        assert await tx.claim(gid, CLOCK, "dead", now=clock.now(), until=clock.now() + 30) is None
    phase = await a.storage.current_phase(gid)
    assert phase is not None
    async with a.storage.tx() as tx:
        await tx.close_phase(phase.id, clock.now())
    await b.run_due()
    assert await results_rows(b, gid) == 0  # the claim is alive: b leaves it
    assert b.table.due[gid] == pytest.approx(deadline + 30)  # and looks again at its end
    clock.set(deadline + 30.5)
    await b.run_due()
    assert await results_rows(b, gid) == 1
    claim = await b.storage.claim_of(gid, CLOCK)
    assert claim is not None
    assert claim.claimed_by is None  # released by b after its step
    assert [e.kind.value for e in delivered(b)].count("results_ready") == 1


async def test_each_event_is_delivered_by_one_process(pair, clock):
    a, b = pair
    games = [await seven_player_game(a) for _ in range(4)]
    await asyncio.gather(*(a.submit(g, "user-france", "A PAR - BUR") for g in games))
    for g in games:
        deadline = (await a.status(g)).deadline
        assert deadline is not None
        clock.set(max(clock.now(), deadline))
    await a.scheduler._run_clock()  # adjudicated, events left to deliver
    assert await a.storage.has_pending_events()
    await asyncio.gather(a.outbox.deliver(), b.outbox.deliver(), a.outbox.deliver())
    assert not await a.storage.has_pending_events()
    keys = [e.key for svc in pair for e in delivered(svc)]
    assert len(keys) == len(set(keys))
    assert sum(k.endswith(":results") for k in keys) == 4
    assert await a.storage.claim_of(games[0], LANE) is not None


async def test_a_lane_held_by_another_process_is_left_to_it_until_its_lease_ends(pair, clock):
    a, b = pair
    gid = await seven_player_game(a)
    async with a.storage.tx() as tx:
        await tx.claim(gid, LANE, "other", now=clock.now(), until=clock.now() + 30)
    await a.pause(gid, "gm")  # an event to deliver
    assert await b.outbox.deliver() == 0
    assert await a.outbox.deliver() == 0
    assert b.outbox.retry_at == pytest.approx(clock.now() + 30)
    assert "game_paused" not in [e.kind.value for svc in pair for e in delivered(svc)]
    clock.set(clock.now() + 31)  # "other" died: its lease ran out
    assert await b.outbox.deliver() == 1
    assert await a.outbox.deliver() == 0
    assert [e.kind.value for svc in pair for e in delivered(svc)].count("game_paused") == 1


async def test_a_change_in_one_process_wakes_the_other_scheduler(pair, clock):
    a, b = pair
    gid = await seven_player_game(a)
    await b.scheduler.recover()
    before = b.table.due[gid]
    b.scheduler.start()  # listens for the other processes' notices
    try:
        for _ in range(100):  # (the listening connection is opened by a task)
            if isinstance(b.storage, PgStorage) and b.storage._listener is not None:
                break
            await asyncio.sleep(0.02)
        deadline = (await a.status(gid)).deadline
        assert deadline is not None
        await a.set_deadline(gid, "gm", deadline + 3600)
        expected = await a.next_due(gid)
        assert expected is not None
        assert expected != before
        for _ in range(250):
            if b.table.due.get(gid) != before:
                break
            await asyncio.sleep(0.02)
        assert b.table.due[gid] == expected
    finally:
        await b.scheduler.stop()


async def test_each_game_falls_to_one_live_process_which_alone_steps_it_when_due(pair, clock):
    a, b = pair
    gids = [await seven_player_game(a) for _ in range(6)]
    await b.scheduler.recover()
    due = await a.next_due(gids[0])
    assert due is not None
    assert [await a.next_due(g) for g in gids] == [due] * len(gids)  # (made at one instant)
    clock.set(due)
    # Each hears the other's hello (as on NOTIFY): two live processes.
    a.scheduler.heard(HELLO, b.table.owner, None)
    b.scheduler.heard(HELLO, a.table.owner, None)
    for svc in pair:
        svc.scheduler._refresh_live()
    falls = {g: [svc for svc in pair if svc.scheduler.falls_here(g)] for g in gids}
    assert all(len(found) == 1 for found in falls.values())  # one process each
    claimed: dict[int, list[int]] = {id(a): [], id(b): []}
    for svc in pair:
        plain = svc.table.claim

        async def claim(game_id: int, kind: str, phase_id: int | None = None, **kw: Any) -> Any:
            if kind == CLOCK:
                claimed[kw.get("who", 0)].append(game_id)
            return await kw["plain"](game_id, kind, phase_id)

        svc.table.claim = functools.partial(claim, who=id(svc), plain=plain)  # type: ignore[method-assign]
    await asyncio.gather(a.run_due(), b.run_due())
    # Each stepped its own games and did not even try the other's (no claim lost).
    assert sorted(claimed[id(a)] + claimed[id(b)]) == sorted(gids)
    for svc in pair:
        assert all(falls[g] == [svc] for g in claimed[id(svc)])
