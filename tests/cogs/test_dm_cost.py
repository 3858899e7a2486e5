"""What one order set sent by DM costs the database (issue 19): at a tournament deadline a few
hundred arrive in seconds, and every statement waits its turn on the one connection. Counted,
not timed: the statements from the DM to its acknowledgement."""

from __future__ import annotations

from typing import Any

from bot.core.model import Power
from bot.service.storage import SqliteStorage
from cogs.orders.cog import MAP_QUIET
from tests.cogs.conftest import Table
from tests.cogs.test_table_flow import OPENING

SPRING = 8 * 60  # edc2023: orders open after the negotiation window
# The light look-up of the DM's game (3), the submission with its saving transaction (12),
# the look at the deadline before drawing the map (1). Before: 28 (the full status of the
# game, twice, and the map's look-ups before the look at the deadline).
MOST = 16


async def test_a_dm_order_costs_a_few_statements(table: Table) -> None:
    game_id = await table.create_started_game()
    await table.advance(SPRING)
    assert table.service is not None
    deadline = (await table.service.status(game_id)).deadline
    assert deadline is not None
    # The rush: within seconds of the deadline (no map drawn then: cog.MAP_QUIET).
    table.clock.set(deadline - MAP_QUIET / 2)
    await table.settle()
    storage = table.service.storage
    assert isinstance(storage, SqliteStorage)
    conn: Any = storage.store._conn
    execute = conn.execute
    statements: list[str] = []

    def counted(sql: str, *args: Any, **kwargs: Any) -> Any:
        if not sql.startswith("PRAGMA"):  # (the connection's durability setting per transaction)
            statements.append(sql)
        return execute(sql, *args, **kwargs)

    france = table.players[Power.FRANCE]
    before = len(table.fake.state.dms_to(france.id))
    conn.execute = counted
    try:
        await table.fake.send_dm(france, OPENING[Power.FRANCE])
        reply = await table.fake.dm_reply(france, before)
    finally:
        conn.execute = execute
    assert "Saved: 3 order(s)" in reply.content, reply.content
    assert len(statements) <= MOST, "\n".join(statements)
