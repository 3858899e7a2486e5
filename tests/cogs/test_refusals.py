"""Who may do what: non-players, non-GMs, closed DMs, players in several games."""

from __future__ import annotations

import logging

import pytest

from bot.core.model import Power
from tests.cogs.conftest import Table


async def test_non_player_orders_are_refused_ephemerally_and_logged(
    table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    game_id = await table.create_started_game()
    caplog.set_level(logging.INFO, logger="parley.discord")
    reply = await table.command(
        table.outsider, "orders submit", {"text": "A PAR - BUR", "game": game_id}
    )
    assert reply.ephemeral
    assert "do not play" in reply.content
    assert any("refused orders" in r.getMessage() for r in caplog.records)
    status = await table.service.status(game_id)
    assert status.submitted == []

    await table.fake.send_dm(table.outsider, "A PAR - BUR")
    dm = await table.fake.dm_reply(table.outsider, 0)
    assert "not playing" in dm.content


async def test_non_gm_cannot_use_gm_commands(
    table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    game_id = await table.create_started_game()
    caplog.set_level(logging.INFO, logger="parley.discord")
    france = table.players[Power.FRANCE]
    for command in ("gm pause", "gm adjudicate", "gm end"):
        reply = await table.command(france, command)
        assert reply.ephemeral
        assert "Only the GM" in reply.content
    assert sum("refused /gm" in r.getMessage() for r in caplog.records) == 3
    assert (await table.service.status(game_id)).status == "active"

    reply = await table.command(table.gm, "gm pause")
    assert reply.ephemeral
    assert (await table.service.status(game_id)).status == "paused"


async def test_gm_commands_are_guild_only(table: Table) -> None:
    await table.create_started_game()
    record = await table.fake.slash(table.gm, "gm pause", {}, channel=None)
    reply = await table.fake.reply_to(record)
    assert reply.ephemeral
    assert "only in a server" in reply.content


async def test_closed_dms_are_explained_in_the_table_channel(table: Table) -> None:
    table.players[Power.ITALY].dms_open = False
    await table.create_started_game()
    await table.settle()
    italy = table.players[Power.ITALY]
    # At the start already: every player gets a welcome DM, and Italy's is refused.
    await table.fake.wait_for(lambda: italy.id in table.fake.state.refused_dms)
    assert [m for m in table.fake.state.messages_in(table.table.id) if "Privacy" in m.content]
    france = table.players[Power.FRANCE]
    assert "You play **France**" in table.fake.state.dms_to(france.id)[0].content
    table.fake.state.refused_dms.clear()
    await table.advance(8 * 60 + 59)  # edc2023 reminders: 1' and 10" before the deadline
    await table.fake.wait_for(lambda: italy.id in table.fake.state.refused_dms)
    notes = [m for m in table.fake.state.messages_in(table.table.id) if "Privacy" in m.content]
    assert len(notes) == 2  # at the start, and with the reminder
    assert f"<@{italy.id}>" in notes[0].content
    assert notes[0].allowed_mentions == {"parse": [], "users": [italy.id]}
    assert any("Reminder" in m.content for m in table.fake.state.dms_to(france.id))
    [waiting] = [m for m in table.fake.state.messages_in(table.table.id) if "waiting" in m.content]
    assert "Italy" in waiting.content
    assert "France" in waiting.content


async def test_player_in_two_games_picks_one_from_a_menu(table: Table) -> None:
    first = await table.create_started_game()
    second = await table.create_started_game(name="Berlin")
    await table.settle()
    france = table.players[Power.FRANCE]
    welcomes = len(table.fake.state.dms_to(france.id))
    await table.fake.send_dm(france, "A PAR - BUR")
    menu = await table.fake.dm_reply(france, welcomes)
    assert menu.components  # a select menu of the two games
    record = await table.fake.click(france, menu, [str(second)])
    answer = await table.fake.reply_to(record)
    assert "Berlin" in answer.content
    assert "A PAR - BUR" in answer.content
    assert (await table.service.status(second)).submitted == [Power.FRANCE]
    assert (await table.service.status(first)).submitted == []

    await table.fake.send_dm(france, f"#{first}\nF BRE - MAO")
    prefixed = await table.fake.dm_reply(france, welcomes + 2)  # after the menu and its answer
    assert "F BRE - MAO" in prefixed.content
    assert (await table.service.status(first)).submitted == [Power.FRANCE]


async def test_the_game_menu_works_after_a_restart(table: Table) -> None:
    first = await table.create_started_game()
    second = await table.create_started_game(name="Berlin")
    await table.settle()
    france, italy = table.players[Power.FRANCE], table.players[Power.ITALY]
    welcomes = len(table.fake.state.dms_to(france.id))
    await table.fake.send_dm(france, "A PAR - BUR")
    menu = await table.fake.dm_reply(france, welcomes)
    italy_welcomes = len(table.fake.state.dms_to(italy.id))
    await table.fake.send_dm(italy, "A ROM - APU")
    italy_menu = await table.fake.dm_reply(italy, italy_welcomes)
    await table.kill()
    await table.boot()  # the orders are gone from memory: read back from the DM
    answer = await table.fake.reply_to(await table.fake.click(france, menu, [str(second)]))
    assert "Berlin" in answer.content
    assert "A PAR - BUR" in answer.content
    assert (await table.service.status(second)).submitted == [Power.FRANCE]

    # A DM Discord cannot give back: the player is told to resend, nothing is submitted.
    table.fake.state.user_messages.clear()
    answer = await table.fake.reply_to(await table.fake.click(italy, italy_menu, [str(first)]))
    assert f"send them again, starting with #{first}" in answer.content
    assert (await table.service.status(first)).submitted == []


async def test_a_stranger_cannot_take_a_seat_in_a_started_game(table: Table) -> None:
    game_id = await table.create_started_game()
    france = table.players[Power.FRANCE]
    await table.command(france, "game leave", {"game": game_id})
    for power in ("FRANCE", ""):  # the seat France left, or any
        options = {"game": game_id, **({"power": power} if power else {})}
        reply = await table.command(table.outsider, "game join", options)
        assert reply.ephemeral
        assert f"game #{game_id} has already started" in reply.content
    players = (await table.service.status(game_id)).players
    assert str(table.outsider.id) not in players.values()
    assert Power.FRANCE not in players


async def test_a_stranger_cannot_make_another_channel_follow_a_game(table: Table) -> None:
    game_id = await table.create_started_game()
    reply = await table.command(
        table.outsider, "spectate", {"game": game_id}, channel=table.spectators
    )
    assert reply.ephemeral
    assert "only the GM and the players" in reply.content
    assert (await table.service.status(game_id)).meta["spectators"] == []
    # A player may (the results are public).
    france = table.players[Power.FRANCE]
    await table.command(france, "spectate", {"game": game_id}, channel=table.spectators)
    assert (await table.service.status(game_id)).meta["spectators"] == [table.spectators.id]


async def test_dm_orders_for_another_power_or_too_many_are_refused(table: Table) -> None:
    game_id = await table.create_started_game()
    await table.settle()
    england = table.players[Power.ENGLAND]

    async def answer(text: str) -> str:
        await table.settle()
        before = len(table.fake.state.dms_to(england.id))
        await table.fake.send_dm(england, text)
        return (await table.fake.dm_reply(england, before)).content

    assert "Saved: 3 order(s)" in await answer("F LON - NTH\nF EDI - NWG\nA LVP - YOR")
    refused = await answer("A Par - Pic")
    assert "A PAR is French" in refused
    assert "previous orders still stand" in refused
    capped = await answer("\n".join(["A LVP H"] * 101))
    assert "at most 100 orders in one message" in capped
    view = await table.service.my_orders(game_id, str(england.id))
    assert view.orders == ["F LON - NTH", "F EDI - NWG", "A LVP - YOR"]
