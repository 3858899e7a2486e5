"""A busy bot and its gateway (issue 19): a DM Discord delivered before the grace ended is
taken even if the bot reads it later (it was busy, the event waited in its socket); one
written after the deadline is refused. Through the fake Discord, on both backends."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.client import ParleyBot
from bot.core.model import Power
from bot.discord_app.gateway import caught_up
from bot.service.lateness import GRACE, POLL
from bot.service.storage import SqliteStorage, Storage
from bot.service.storage.postgres import PgStorage
from tests.bot.service.pg import dsn, fresh_schema, settings
from tests.cogs.conftest import Table
from tests.cogs.conftest import table as table  # noqa: PLC0414 - the fixture, shared

SPRING = 8 * 60  # edc2023: orders open after the negotiation window


@pytest.fixture(params=["sqlite", "postgres"])
async def storage(
    request: pytest.FixtureRequest, tmp_path: Path
) -> AsyncIterator[Callable[[], Awaitable[Storage]]]:
    if request.param == "sqlite":
        yield lambda: SqliteStorage.open(tmp_path / "busy.db")
        return
    async with fresh_schema() as schema:
        yield lambda: PgStorage.open(dsn(), server_settings=settings(schema))


class Busy:
    """The bot busy elsewhere: what Discord sends waits in its socket, read in order once
    `release`d (the answer to a heartbeat too)."""

    def __init__(self, bot: ParleyBot) -> None:
        self.free = asyncio.Event()
        ws: Any = bot.ws
        read = ws.received_message

        async def waiting(msg: Any) -> None:
            await self.free.wait()
            await read(msg)

        ws.received_message = waiting

    def release(self) -> None:
        self.free.set()


async def until(check: Callable[[], Awaitable[bool]], table: Table) -> None:
    for _ in range(200):
        if await check():
            return
        await table.advance(POLL)  # (a phase held looks again POLL seconds later)
    raise AssertionError("never happened")


async def test_a_dm_delivered_in_time_and_read_after_the_grace_counts(
    table: Table, storage: Callable[[], Awaitable[Storage]]
) -> None:
    await table.shutdown()
    await table.boot(grace=GRACE, storage=await storage())
    fake, svc = table.fake, table.service
    assert svc is not None
    assert table.bot is not None
    game_id = await table.create_started_game()
    await table.advance(SPRING)
    deadline = (await svc.status(game_id)).deadline
    assert deadline is not None
    france, italy = table.players[Power.FRANCE], table.players[Power.ITALY]
    before = len(fake.state.dms_to(france.id))
    await fake.send_dm(france, "A PAR H")
    await fake.dm_reply(france, before)
    dms = {user.id: len(fake.state.dms_to(user.id)) for user in (france, italy)}
    busy = Busy(table.bot)
    await fake.send_dm(france, "A PAR - BUR", at=deadline - 0.5)  # in time
    await fake.send_dm(italy, "A ROM - APU", at=deadline + 0.5)  # written after the deadline
    table.clock.set(deadline + GRACE + 1.0)  # the grace ends while the bot is busy
    await table.settle()
    # Not caught up with its gateway: the phase waits (a fixed grace would have closed it).
    assert (await svc.status(game_id)).phase_status == "open"
    busy.release()
    saved = await fake.dm_reply(france, dms[france.id])
    assert "Saved: 1 order(s)" in saved.content, saved.content
    late = await fake.dm_reply(italy, dms[italy.id])
    assert "Too late" in late.content, late.content

    async def adjudicated() -> bool:
        return await svc.results(game_id) is not None

    await until(adjudicated, table)
    results = await svc.results(game_id)
    assert results is not None
    assert results.orders[Power.FRANCE] == ["A PAR - BUR"]
    assert "A ROM - APU" not in results.orders.get(Power.ITALY, [])


async def test_catching_up_returns_once_what_was_sent_before_is_read(table: Table) -> None:
    assert table.bot is not None
    await caught_up(table.bot)  # nothing waiting: one heartbeat's round trip
    busy = Busy(table.bot)
    seen: list[str] = []

    async def note(message: Any) -> None:
        seen.append(message.content)

    table.bot.add_listener(note, "on_message")
    await table.fake.send_dm(table.outsider, "hello")
    waiting = asyncio.create_task(caught_up(table.bot))
    await asyncio.sleep(0.1)
    assert not waiting.done()  # the answer is behind the DM, unread
    busy.release()
    await asyncio.wait_for(waiting, 5)
    assert seen == ["hello"]  # read (and handed to the handlers) before it returned
