"""The map of a player's own orders: with the DM reply to saved orders, with `/orders show`
(ephemeral), never in a guild channel; a move the unit cannot make is warned in words."""

from __future__ import annotations

from bot.core.model import Power
from tests.cogs.conftest import Table

SPRING = 8 * 60  # edc2023: orders open after the negotiation window


async def test_saved_orders_are_answered_with_a_map_in_the_dm(table: Table) -> None:
    fake = table.fake
    await table.create_started_game()
    await table.advance(SPRING)
    france = table.players[Power.FRANCE]
    before = len(fake.state.dms_to(france.id))
    await fake.send_dm(france, "F BRE - SPA\nA PAR - BUR\nA MAR H")
    reply = await fake.dm_reply(france, before)
    assert "cannot reach" in reply.content  # F BRE - SPA, in words
    [png] = reply.files
    assert png.filename == "orders.png"
    assert png.data.startswith(b"\x89PNG")
    assert not any(m.files for m in fake.state.guild_messages())

    before = len(fake.state.dms_to(france.id))
    await fake.send_dm(france, "A PAR - XYZ")  # unreadable: refused, no map
    refused = await fake.dm_reply(france, before)
    assert refused.files == []


async def test_orders_show_carries_the_map_only_for_the_player(table: Table) -> None:
    await table.create_started_game()
    await table.advance(SPRING)
    france = table.players[Power.FRANCE]
    await table.command(france, "orders submit", {"text": "A PAR - BUR; F BRE - MAO"})
    shown = await table.command(france, "orders show")
    assert shown.ephemeral
    assert "A PAR - BUR" in shown.content
    [png] = shown.files
    assert png.data.startswith(b"\x89PNG")
