"""Orders by DM judged by the time the player sent them (issue 19): a DM written before the
deadline and read after it is taken within the grace; one written after it is refused."""

from __future__ import annotations

from bot.core.model import Power
from bot.service.clock.lateness import GRACE, POLL
from tests.cogs.conftest import Table

SPRING = 8 * 60  # edc2023: orders open after the negotiation window


async def test_a_dm_written_before_the_deadline_and_read_after_it_counts(table: Table) -> None:
    await table.shutdown()
    await table.boot(grace=GRACE)
    fake = table.fake
    game_id = await table.create_started_game()
    await table.advance(SPRING)
    assert table.service is not None
    deadline = (await table.service.status(game_id)).deadline
    assert deadline is not None
    france = table.players[Power.FRANCE]
    await fake.send_dm(france, "A PAR H")
    await fake.dm_reply(france, 0)
    table.clock.set(deadline + GRACE / 2)
    await table.settle()
    # Written 0.4 s before the deadline, read 1 s after it: taken.
    before = len(fake.state.dms_to(france.id))
    await fake.send_dm(france, "A PAR - BUR", at=deadline - 0.4)
    reply = await fake.dm_reply(france, before)
    assert reply.content.count("Saved: 1 order(s)") == 1, reply.content
    # Written after the deadline (within the grace all the same): too late.
    before = len(fake.state.dms_to(france.id))
    await fake.send_dm(france, "A PAR - PIC", at=deadline + 0.2)
    late = await fake.dm_reply(france, before)
    assert "Too late" in late.content
    table.clock.set(deadline + GRACE)
    await table.settle()
    # It closes once the bot has read its gateway up to then (a heartbeat's round trip).
    for _ in range(100):
        if await table.service.results(game_id) is not None:
            break
        await table.advance(POLL)
    results = await table.service.results(game_id)
    assert results is not None
    assert results.orders[Power.FRANCE] == ["A PAR - BUR"]


async def test_restarted_after_the_grace_the_bot_closes_the_phase_at_once(table: Table) -> None:
    """Issue 36: killed before the deadline, back 1 s after its grace (HOLD has 9 s to run):
    the phase closes as soon as the bot is up, the clock standing still."""
    await table.shutdown()
    await table.boot(grace=GRACE)
    game_id = await table.create_started_game()
    await table.advance(SPRING)
    assert table.service is not None
    deadline = (await table.service.status(game_id)).deadline
    assert deadline is not None
    await table.kill()
    table.clock.set(deadline + GRACE + 1.0)
    await table.boot(grace=GRACE)
    await table.fake.wait_for(
        lambda: any(
            "Results of" in m.content for m in table.fake.state.messages_in(table.table.id)
        ),
        within=5,
        what="the results",
    )
