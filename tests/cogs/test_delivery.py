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


async def test_a_reply_lost_after_the_post_leaves_one_message(table: Table) -> None:
    """A 502 after Discord created the message: discord.py posts it again; the repeat goes."""
    table.fake.state.nonce_memory = False
    await spring_deadline(table)
    table.fake.after_post(f"/channels/{table.table.id}/messages", status=502)
    await table.advance(SPRING + WRITING)
    await catch_up(table)
    assert results_in(table, table.table) == 1
    assert table.fake.state.double_posts() == 0
    assert len(table.fake.state.deleted) == 1


async def test_a_spectator_failure_never_reposts_at_the_table(table: Table, caplog) -> None:
    table.fake.state.nonce_memory = False
    await spring_deadline(table)
    caplog.set_level(logging.INFO)
    # 503: discord.py does not retry it; the service does, 5 s later, twice
    table.fake.server_errors(f"/channels/{table.spectators.id}/messages", count=2, status=503)
    await table.advance(SPRING + WRITING)
    await catch_up(table)
    assert results_in(table, table.table) == 1
    assert results_in(table, table.spectators) == 1
    assert table.fake.state.double_posts() == 0
    ours = [r for r in caplog.records if r.name.startswith("bot.")]
    deferred = [r for r in ours if "deferred" in r.getMessage()]
    assert len(deferred) == 2
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
