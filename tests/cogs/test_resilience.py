"""Nothing lost, nothing posted twice: gateway drops, rate limits, outages, a killed process."""

from __future__ import annotations

import asyncio

from bot.core.model import Power
from tests.cogs.conftest import Table
from tests.cogs.test_table_flow import OPENING, SPRING, WRITING, maps_in, send_opening


def results_posts(table: Table, channel) -> list[str]:
    return [m.text() for m in table.fake.state.messages_in(channel.id) if "Results of" in m.content]


async def test_gateway_close_resumes_and_keeps_a_dm_sent_meanwhile(table: Table) -> None:
    game_id = await table.create_started_game()
    await table.settle()
    resumed = asyncio.Event()

    async def on_resumed() -> None:
        resumed.set()

    table.bot.add_listener(on_resumed)
    await table.fake.close_gateway(4000)
    germany = table.players[Power.GERMANY]
    welcomes = len(table.fake.state.dms_to(germany.id))
    await table.fake.send_dm(germany, OPENING[Power.GERMANY])  # while the socket is down
    await asyncio.wait_for(resumed.wait(), 10)
    reply = await table.fake.dm_reply(germany, welcomes)
    assert "A MUN - RUH" in reply.content
    assert table.fake.gateway.resumes == 1
    assert table.fake.gateway.identifies == 1
    assert (await table.service.status(game_id)).submitted == [Power.GERMANY]


async def test_rate_limits_and_server_errors_delay_but_do_not_duplicate(table: Table) -> None:
    await table.create_started_game()
    await table.settle()
    await send_opening(table)
    # A burst of 5xx on the seven concurrent press-lock calls (each retried once after 1 s);
    # the edc2023 clock locks press when the writing starts (edc-2023 B: negotiation 8',
    # then writing 1').
    table.fake.server_errors("/permissions/", count=7, status=503)
    table.fake.rate_limit("/permissions/", count=2, retry_after=0.05)
    await table.advance(SPRING)
    channel = f"/channels/{table.table.id}/messages"
    # discord.py waits 1 + 2 x tries seconds after a 5xx: the outage comes first to keep it short
    table.fake.server_errors(channel, count=1, status=502)
    table.fake.rate_limit(channel, count=3, retry_after=0.05)
    await table.advance(WRITING)
    await table.fake.wait_for(lambda: maps_in(table, table.table), within=15)
    await table.settle()
    statuses = [r.status for r in table.fake.state.requests if r.path.endswith(channel)]
    assert statuses.count(429) == 3
    assert statuses.count(502) == 1
    assert len(results_posts(table, table.table)) == 1
    assert maps_in(table, table.table) == 1
    await table.fake.wait_for(lambda: len(table.press.overwrites) == 7, what="press lock")
    perms = [r.status for r in table.fake.state.requests if "/permissions/" in r.path]
    assert perms.count(503) == 7
    assert perms.count(429) == 2
    assert perms.count(204) == 7


async def test_killed_mid_phase_and_restarted_loses_nothing(table: Table) -> None:
    game_id = await table.create_started_game()
    await table.settle()
    await send_opening(table)
    await table.kill()
    table.clock.advance(SPRING + WRITING + 1)  # the deadline passes while the bot is down
    await table.boot()  # a new process on the same database file
    await table.settle()
    await table.fake.wait_for(lambda: maps_in(table, table.table))
    await table.settle()
    assert table.fake.gateway.identifies == 2
    assert len(results_posts(table, table.table)) == 1
    assert maps_in(table, table.table) == 1
    results = results_posts(table, table.table)[0]
    for line in ("A PAR - BUR", "F STP/SC - BOT", "A CON - BUL"):  # every order was kept
        assert f"• `{line}`" in results.splitlines()  # succeeded: no annotation (stabbeurfou 4)
    assert (await table.service.status(game_id)).phase == "F1901M"


async def test_crash_between_posting_and_marking_delivered_posts_once(table: Table) -> None:
    """The service re-delivers the event after the restart; the posts were recorded, so none
    is made again, even by a Discord that has forgotten the nonces."""
    table.fake.state.nonce_memory = False
    await table.create_started_game()
    await table.settle()
    await send_opening(table)
    await table.kill()

    crashed = asyncio.Event()

    class CrashError(Exception):
        pass

    def fault(point: str) -> None:
        if point == "deliver.before_mark" and maps_in(table, table.table) and not crashed.is_set():
            crashed.set()
            raise CrashError(point)

    table.clock.advance(SPRING + WRITING + 1)
    await table.boot(faults=fault)
    await table.fake.wait_for(crashed.is_set, what="crash after posting the results")
    await table.kill()  # the process dies before the delivery was recorded
    await table.boot()
    await table.settle()
    await table.settle()
    assert table.fake.state.double_posts() == 0
    assert len(results_posts(table, table.table)) == 1
    assert maps_in(table, table.table) == 1
