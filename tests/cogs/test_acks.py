"""Order acknowledgements survive a busy Discord (issue 19, cause 4): retried with backoff,
logged once at WARNING if they finally fail, never an exception out of `on_message`."""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.core.model import Power
from bot.discord_app import replies
from tests.cogs.conftest import Table
from tests.cogs.test_table_flow import OPENING


@pytest.fixture(autouse=True)
def quick_backoff(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(replies, "BACKOFF", (0.01, 0.01, 0.01, 0.01))


def errors(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_ack_refused_past_discord_pys_tries_is_sent_again(
    table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    game_id = await table.create_started_game()
    await table.settle()
    germany = table.players[Power.GERMANY]
    before = len(table.fake.state.dms_to(germany.id))
    dm = table.fake.state.dm_channels[germany.id].id
    # discord.py tries 5 times, then raises: the reply's own retry must carry it through
    table.fake.rate_limit(f"/channels/{dm}/messages", count=6, retry_after=0.01)
    await table.fake.send_dm(germany, OPENING[Power.GERMANY])
    reply = await table.fake.dm_reply(germany, before, within=10)
    assert "A MUN - RUH" in reply.content
    await asyncio.sleep(0.1)
    assert len(table.fake.state.dms_to(germany.id)) == before + 1  # once, not twice
    assert (await table.service.status(game_id)).submitted == [Power.GERMANY]
    assert errors(caplog) == []


async def test_ack_that_finally_fails_is_one_warning_and_no_traceback(
    table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    game_id = await table.create_started_game()
    await table.settle()
    germany = table.players[Power.GERMANY]
    dm = table.fake.state.dm_channels[germany.id].id
    table.fake.rate_limit(f"/channels/{dm}/messages", count=1000, retry_after=0.01)
    caplog.set_level(logging.WARNING)
    await table.fake.send_dm(germany, OPENING[Power.GERMANY])
    await table.fake.wait_for(
        lambda: [r for r in caplog.records if "not sent after" in r.getMessage()],
        within=10,
        what="the warning",
    )
    await asyncio.sleep(0.1)
    warned = [r for r in caplog.records if "not sent" in r.getMessage()]
    assert len(warned) == 1
    assert warned[0].levelno == logging.WARNING
    assert warned[0].exc_info is None
    assert errors(caplog) == []
    # the orders were saved all the same
    assert (await table.service.status(game_id)).submitted == [Power.GERMANY]


@pytest.mark.parametrize("status", [502, -1])
async def test_ack_created_and_its_reply_lost_is_not_sent_twice(table: Table, status: int) -> None:
    """Issue 36: a 502 (or a dropped connection) after Discord created the acknowledgement, on
    a Discord that has forgotten the nonce: found in the DM's history, never sent again."""
    table.fake.state.nonce_memory = False
    await table.create_started_game()
    await table.settle()
    germany = table.players[Power.GERMANY]
    before = len(table.fake.state.dms_to(germany.id))
    dm = table.fake.state.dm_channels[germany.id].id
    table.fake.after_post(f"/channels/{dm}/messages", status=status)
    await table.fake.send_dm(germany, OPENING[Power.GERMANY])
    reply = await table.fake.dm_reply(germany, before, within=10)
    assert "A MUN - RUH" in reply.content
    await asyncio.sleep(1.5)  # (discord.py would have sent it again 1 s after a 502)
    assert len(table.fake.state.dms_to(germany.id)) == before + 1
    assert table.fake.state.repeats() == 0
