"""Posting exactly once on a Discord that keeps no nonce memory: kills between the post and its
record, a lost reply, a failing spectator channel; and what an outage writes to the log."""

from __future__ import annotations

import asyncio
import contextlib
import logging

import pytest

from tests.cogs.conftest import Table
from tests.cogs.test_table_flow import SPRING, WRITING, maps_in


def results_in(table: Table, channel) -> int:
    return sum("Results of" in m.text() for m in table.fake.state.messages_in(channel.id))


async def spring_deadline(table: Table) -> int:
    game_id = await table.create_started_game()
    await table.command(table.gm, "spectate", {"game": game_id}, channel=table.spectators)
    await table.settle()
    return game_id


async def catch_up(table: Table) -> None:
    """The service retries a failed delivery 5 s later (fake clock)."""
    for _ in range(10):
        await table.settle()
        table.clock.advance(6)
        await asyncio.sleep(0.05)
    await table.settle()


@pytest.mark.parametrize("nonce_memory", [True, False])
async def test_killed_after_discord_posted_and_before_the_record(
    table: Table, nonce_memory: bool
) -> None:
    table.fake.state.nonce_memory = nonce_memory
    await spring_deadline(table)
    hit = table.fake.after_post(f"/channels/{table.table.id}/messages")  # the reply never comes
    table.clock.advance(SPRING + WRITING)
    step = asyncio.ensure_future(table.settle())
    await asyncio.wait_for(hit.wait(), 10)
    step.cancel()
    await asyncio.gather(step, return_exceptions=True)
    await table.kill()
    await table.boot()
    await catch_up(table)
    assert results_in(table, table.table) == 1
    assert results_in(table, table.spectators) == 1
    assert maps_in(table, table.table) == 1
    assert table.fake.state.double_posts() == 0
    assert table.fake.state.deduplicated == 0  # found in the history, not dropped by Discord


@pytest.mark.parametrize("status", [500, 502, 503, 504, -1])
async def test_a_reply_lost_after_the_post_leaves_one_message(table: Table, status: int) -> None:
    """A 5xx (or a dropped connection: -1) after Discord created the message: the bot looks
    before posting again, and never posts a repeat, not even one deleted later (issue 36:
    discord.py would post again 1 s after a 500/502/504, before anyone looked)."""
    table.fake.state.nonce_memory = False
    await spring_deadline(table)
    table.fake.after_post(f"/channels/{table.table.id}/messages", status=status)
    await table.advance(SPRING + WRITING)
    await table.fake.wait_for(lambda: maps_in(table, table.table), within=3)  # no outbox retry
    await table.settle()
    assert results_in(table, table.table) == 1
    assert table.fake.state.repeats() == 0
    assert table.fake.state.deleted == []


@pytest.mark.parametrize("when", ["before", "after"])
async def test_a_spectator_failure_is_retried_within_3_s_and_never_reposts_at_the_table(
    table: Table, when: str
) -> None:
    """Issue 36 (4): two 5xx on a spectator channel (the post refused, or created and its reply
    lost): its results come under 3 s after the first failure (not the outbox's 5 s retry,
    here on a clock that stands still), within Discord's rate limits, once."""
    table.fake.state.nonce_memory = False
    await spring_deadline(table)
    limits = table.fake.rate_limits()
    path = f"/channels/{table.spectators.id}/messages"
    if when == "before":
        table.fake.server_errors(path, count=2, status=503)
    else:
        table.fake.after_post(path, status=502)
        table.fake.server_errors(path, count=1, status=503)  # (after the first: refused)
    table.clock.advance(SPRING + WRITING)
    await table.service.run_due()
    await table.fake.wait_for(lambda: results_in(table, table.spectators), within=10)
    requests = [r for r in table.fake.state.requests if r.path.endswith(path)]
    failed = next(r.at for r in requests if r.status >= 500)
    done = max(r.at for r in table.fake.state.requests if path in r.path)
    assert done - failed < 3.0, [(r.method, r.status, round(r.at - failed, 2)) for r in requests]
    await table.settle()
    assert results_in(table, table.table) == 1
    assert results_in(table, table.spectators) == 1
    assert table.fake.state.repeats() == 0
    assert limits.limited == []


async def test_an_outage_defers_a_delivery_with_one_warning_and_no_traceback(
    table: Table, caplog
) -> None:
    table.fake.state.nonce_memory = False
    await spring_deadline(table)
    caplog.set_level(logging.INFO)
    # 503 on every try the notifier makes at once: the service retries 5 s later
    table.fake.server_errors(f"/channels/{table.spectators.id}/messages", count=4, status=503)
    await table.advance(SPRING + WRITING)
    await catch_up(table)
    assert results_in(table, table.table) == 1
    assert results_in(table, table.spectators) == 1
    assert table.fake.state.repeats() == 0
    ours = [r for r in caplog.records if r.name.startswith("bot.")]
    deferred = [r for r in ours if "deferred" in r.getMessage()]
    assert len(deferred) == 1
    assert all(r.levelno == logging.WARNING and r.exc_info is None for r in deferred)
    assert not [r for r in ours if r.levelno >= logging.ERROR]


async def test_a_deleted_channel_is_a_final_error(table: Table, caplog) -> None:
    await spring_deadline(table)
    del table.fake.state.channels[table.spectators.id]  # 404 Unknown Channel from now on
    await table.advance(SPRING + WRITING)
    await table.fake.wait_for(lambda: results_in(table, table.table) == 1)
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert any("cannot post in channel" in r.getMessage() for r in errors)


async def test_no_nonce_memory_many_phases_with_kills_no_double_post(table: Table) -> None:
    table.fake.state.nonce_memory = False
    game_id = await spring_deadline(table)
    for n in range(1, 4):
        st = await table.service.status(game_id)
        if st.phase_status == "pending":
            table.clock.set(st.opens_at)
            await table.settle()
            st = await table.service.status(game_id)
        crashed = asyncio.Event()

        def fault(point: str, n: int = n, crashed: asyncio.Event = crashed) -> None:
            posted = results_in(table, table.table) >= n
            if point == "deliver.before_mark" and posted and not crashed.is_set():
                crashed.set()
                raise RuntimeError(point)

        await table.kill()
        await table.boot(faults=fault)
        table.clock.set(st.deadline)
        with contextlib.suppress(RuntimeError):
            await table.settle()
        await asyncio.wait_for(crashed.wait(), 10)
        await table.kill()
        await table.boot()
        await catch_up(table)
        assert results_in(table, table.table) == n
        assert results_in(table, table.spectators) == n
    assert table.fake.state.double_posts() == 0
