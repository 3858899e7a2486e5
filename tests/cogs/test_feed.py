"""A feed channel following every game is slow (5 messages per 5 s): it delays only itself,
never another table's results (issue 19, cause 2)."""

from __future__ import annotations

import asyncio

from tests.cogs.conftest import Table
from tests.cogs.test_table_flow import SPRING, WRITING


def results_in(table: Table, channel_id: int) -> int:
    return sum(1 for m in table.fake.state.messages_in(channel_id) if m.files)


async def test_a_slow_shared_feed_does_not_hold_the_tables_results(table: Table) -> None:
    second = table.fake.state.add_channel(table.guild, "table-2")
    first_id = await table.create_started_game()
    reply = await table.command(
        table.gm, "game create", {"name": "Paris", "clock": "edc2023"}, channel=second
    )
    second_id = int(reply.content.split("(#")[1].split(")")[0])
    for power, user in table.players.items():
        await table.command(user, "game join", {"power": power.value}, channel=second)
    await table.command(table.gm, "game start", channel=second)
    feed = table.spectators
    for gid in (first_id, second_id):
        await table.service.set_meta(gid, "spectators", [feed.id], by=str(table.gm.id))
    await table.settle()
    await table.advance(SPRING)
    # Discord's limits from now on (5 messages per 8 s), the feed's bucket already spent
    table.fake.rate_limits(channel_window=8.0)
    feed_out = table.bot.get_partial_messageable(feed.id)
    for i in range(4):
        await feed_out.send(f"filler {i}")
    # the send that spends the bucket returns only at its reset (discord.py waits it out)
    spent = asyncio.create_task(feed_out.send("filler 4"))
    await table.fake.wait_for(lambda: len(table.fake.state.messages_in(feed.id)) == 5)
    table.clock.advance(WRITING)
    step = asyncio.create_task(table.service.run_due())
    await table.fake.wait_for(
        lambda: results_in(table, table.table.id) and results_in(table, second.id),
        within=4.0,
        what="both tables' results while the feed waits",
    )
    assert results_in(table, feed.id) == 0
    await table.fake.wait_for(lambda: results_in(table, feed.id) == 2, within=30, what="feed")
    await step
    await spent
    assert results_in(table, table.table.id) == results_in(table, second.id) == 1
