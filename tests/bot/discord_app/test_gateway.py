"""A busy bot and its gateway (issue 19): a DM Discord delivered before the grace ended is
taken even if the bot reads it later (it was busy, the event waited in its socket); one
written after the deadline is refused. Through the fake Discord, on both backends."""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import discord
import discord.gateway
import pytest

from bot.client import ParleyBot
from bot.core.model import Power
from bot.discord_app.gateway import HEARTBEAT, caught_up, follow
from bot.service.clock.lateness import GRACE, POLL, NoSessionError
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


# -- discord.py's private keep-alive state, as the catch-up reads it (issue 36) -------------
# These fail when a discord.py upgrade changes what bot.discord_app.gateway relies on: then
# `follow` must say NotImplementedError (the grace is fixed again), never misread it.


class StubSocket:
    """What discord.py's KeepAliveHandler reads from its gateway socket."""

    HEARTBEAT = discord.gateway.DiscordWebSocket.HEARTBEAT
    thread_id = 0
    _max_heartbeat_timeout = 60.0
    sequence = 41
    open = True

    async def send_heartbeat(self, payload: dict[str, Any]) -> None:
        self.sent = payload


def test_discord_py_keeps_the_heartbeat_times_the_catch_up_reads() -> None:
    assert discord.gateway.DiscordWebSocket.HEARTBEAT == HEARTBEAT == 1  # Discord's opcode
    ws = StubSocket()
    before = time.perf_counter()
    keep_alive = discord.gateway.KeepAliveHandler(ws=ws, interval=41.25, shard_id=None)
    # The times of the last heartbeat sent and answered: perf_counter() floats
    assert isinstance(keep_alive._last_send, float)
    assert isinstance(keep_alive._last_ack, float)
    assert before <= keep_alive._last_ack <= time.perf_counter()
    sent_at = time.perf_counter()
    payload = keep_alive.beat()  # a heartbeat's payload, noted as sent now
    assert payload == {"op": HEARTBEAT, "d": 41}
    assert sent_at <= keep_alive._last_send <= time.perf_counter()
    asked = time.perf_counter()
    assert keep_alive._last_ack < asked
    keep_alive.ack()  # what the socket calls on HEARTBEAT_ACK
    assert asked <= keep_alive._last_ack <= time.perf_counter()
    # The socket: its handler, the heartbeat it sends, whether it is open
    socket = discord.gateway.DiscordWebSocket
    assert asyncio.iscoroutinefunction(socket.send_heartbeat)
    assert isinstance(inspect.getattr_static(socket, "open"), property)
    assert "self._keep_alive" in inspect.getsource(socket.__init__)
    ws._keep_alive = keep_alive
    assert follow(ws) is keep_alive


async def test_a_connected_bot_has_the_keep_alive_state_the_catch_up_reads(table: Table) -> None:
    assert table.bot is not None
    ws: Any = table.bot.ws
    assert isinstance(ws, discord.gateway.DiscordWebSocket)
    assert isinstance(follow(ws), discord.gateway.KeepAliveHandler)
    asked = time.perf_counter()
    await caught_up(table.bot)  # answered: discord.py noted the answer to our heartbeat
    assert follow(ws)._last_ack >= asked


def test_a_changed_keep_alive_state_is_not_followed() -> None:
    with pytest.raises(ConnectionError):
        follow(None)  # not connected yet: the phase waits (at most HOLD)
    ws = StubSocket()
    ws._keep_alive = None  # type: ignore[attr-defined]
    with pytest.raises(ConnectionError):
        follow(ws)
    keep_alive = discord.gateway.KeepAliveHandler(ws=ws, interval=41.25, shard_id=None)
    ws._keep_alive = keep_alive  # type: ignore[attr-defined]
    assert follow(ws) is keep_alive
    keep_alive._last_ack = None  # type: ignore[assignment]  # kept another way
    with pytest.raises(NotImplementedError):
        follow(ws)
    del keep_alive._last_ack
    with pytest.raises(NotImplementedError):
        follow(ws)
    del ws._keep_alive  # type: ignore[attr-defined]
    with pytest.raises(NotImplementedError):
        follow(ws)


async def test_a_heartbeat_payload_changed_is_not_sent() -> None:
    ws = StubSocket()
    keep_alive = discord.gateway.KeepAliveHandler(ws=ws, interval=41.25, shard_id=None)
    keep_alive.beat = lambda: {"op": 99}  # type: ignore[method-assign]
    ws._keep_alive = keep_alive  # type: ignore[attr-defined]
    client = discord.Client(intents=discord.Intents.none())
    client.ws = ws  # type: ignore[assignment]
    with pytest.raises(NotImplementedError):
        await caught_up(client)
    assert not hasattr(ws, "sent")


async def test_a_client_never_connected_has_no_session_to_wait_for() -> None:
    client = discord.Client(intents=discord.Intents.none())
    assert client.ws is None  # (discord.py sets it once connected)
    with pytest.raises(NoSessionError):
        await caught_up(client)
