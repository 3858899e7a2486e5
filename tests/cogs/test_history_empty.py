"""Issue 31: /history before anything is adjudicated names no empty phase."""

from __future__ import annotations

from tests.cogs.conftest import Table


async def test_history_with_nothing_adjudicated_says_so(table: Table) -> None:
    await table.create_started_game()
    reply = await table.command(table.outsider, "history")
    assert reply.content == "Nothing has been adjudicated in this game yet."
    asked = await table.command(table.outsider, "history", {"phase": "S1901M"})
    assert "Spring 1901" in asked.content
