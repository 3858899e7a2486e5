"""/settings palette and /settings server-palette through the fake Discord (issue 16): a
user's colours for the maps sent to them, a server's for its public maps, set by a member
with Manage Server only."""

from __future__ import annotations

from bot.core.model import Power
from tests.cogs.conftest import Table

SPRING = 8 * 60  # edc2023: orders open after the negotiation window


async def test_a_player_chooses_the_colours_of_their_own_order_map(table: Table) -> None:
    fake = table.fake
    game_id = await table.create_started_game()
    await table.advance(SPRING)
    france = table.players[Power.FRANCE]
    shown = await table.command(france, "settings palette")
    assert shown.ephemeral
    assert "as each game's maps" in shown.content
    chosen = await table.command(france, "settings palette", {"colours": "colorblind"})
    assert chosen.ephemeral
    assert "colour-blind friendly colours" in chosen.content
    assert table.service is not None
    assert await table.service.user_palette(str(france.id)) == "colorblind"
    before = len(fake.state.dms_to(france.id))
    await fake.send_dm(france, "A PAR - BUR")
    reply = await fake.dm_reply(france, before)
    [png] = reply.files
    drawn = await table.service.orders_map(game_id, str(france.id), palette="colorblind")
    assert png.data == drawn
    assert png.data != await table.service.orders_map(game_id, str(france.id), palette="default")
    await table.command(france, "settings palette", {"colours": "game"})
    assert await table.service.user_palette(str(france.id)) is None


async def test_only_a_member_with_manage_server_sets_the_servers_colours(table: Table) -> None:
    player = table.players[Power.ITALY]
    refused = await table.command(player, "settings server-palette", {"colours": "colorblind"})
    assert refused.ephemeral
    assert "Manage Server" in refused.content
    assert table.service is not None
    assert await table.service.server_palette(str(table.guild.id)) is None
    shown = await table.command(player, "settings server-palette")  # anyone may look
    assert "default colours" in shown.content
    owner = table.gm  # the server's owner: every permission
    done = await table.command(owner, "settings server-palette", {"colours": "colorblind"})
    assert not done.ephemeral  # the whole server's maps change: said in the channel
    assert "colour-blind friendly colours" in done.content
    assert await table.service.server_palette(str(table.guild.id)) == "colorblind"
    # A game created here without colours has its public maps in the server's, and says so.
    created = await table.command(owner, "game create", {"name": "Lyon", "clock": "edc2023"})
    assert "colour-blind" in created.content
    game_id = int(created.content.split("(#")[1].split(")")[0])
    status = await table.service.status(game_id)
    assert "palette" not in status.meta  # the server's, read at each map: not copied
    assert (await table.service.game_settings(game_id)).palette == "colorblind"
