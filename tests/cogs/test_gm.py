"""The GM's tools through Discord: enter, extend, adjudicate, roll back, replace, end."""

from __future__ import annotations

from bot.core.model import Power
from tests.cogs.conftest import Table
from tests.cogs.test_table_flow import maps_in


def table_text(table: Table) -> str:
    return "\n".join(m.text() for m in table.fake.state.messages_in(table.table.id))


async def test_gm_runs_the_table(table: Table) -> None:
    fake = table.fake
    game_id = await table.create_started_game()
    await table.command(table.gm, "spectate", {"game": game_id}, channel=table.spectators)
    await table.settle()

    entered = await table.command(
        table.gm, "gm enter", {"power": "FRANCE", "text": "A PAR - BUR; F BRE - MAO"}
    )
    assert entered.ephemeral
    assert "A PAR - BUR" in entered.content
    assert (await table.service.status(game_id)).submitted == [Power.FRANCE]

    before = (await table.service.status(game_id)).deadline
    extended = await table.command(table.gm, "gm extend", {"minutes": 5})
    assert extended.ephemeral
    assert (await table.service.status(game_id)).deadline == before + 300
    await fake.wait_for(lambda: "New deadline" in table_text(table), what="deadline notice")
    assert f"<t:{int(before + 300)}:R>" in table_text(table)

    await table.command(table.gm, "gm adjudicate")
    await fake.wait_for(lambda: maps_in(table, table.table) == 1, what="results")
    assert "• `A PAR - BUR`" in table_text(table).splitlines()  # succeeded (stabbeurfou 4)

    rolled = await table.command(table.gm, "gm rollback")
    assert "Spring 1901" in rolled.content
    await fake.wait_for(lambda: "rolled the game back" in table_text(table))

    newcomer = fake.add_user("newcomer")
    fake.join(table.guild, newcomer)
    await table.command(table.gm, "gm replace", {"power": "ITALY", "user": newcomer})
    status = await table.service.status(game_id)
    assert status.players[Power.ITALY] == str(newcomer.id)
    await fake.wait_for(lambda: f"now played by <@{newcomer.id}>" in table_text(table))

    await table.command(table.gm, "gm end", {"reason": "time is up"})
    assert (await table.service.status(game_id)).status == "over"
    spectated = lambda: "\n".join(m.text() for m in fake.state.messages_in(table.spectators.id))  # noqa: E731
    await fake.wait_for(lambda: "is over" in spectated(), what="game over for spectators")
    assert "is over" in table_text(table)
    await table.settle()
    pending = await table.service.storage.store.fetchone(
        "SELECT COUNT(*) FROM outbox WHERE delivered_at IS NULL"
    )
    assert pending[0] == 0  # every event, down to the last press unlock, was delivered


async def test_deferred_commands_answer_after_thinking(table: Table) -> None:
    await table.create_started_game()
    france = table.players[Power.FRANCE]
    record = await table.fake.slash(
        france, "orders submit", {"text": "A PAR - BUR; F BRE - MAO"}, channel=table.table
    )
    reply = await table.fake.reply_to(record)
    assert record.response_types == [5]  # deferred, ephemeral, "thinking"
    assert record.responses[0]["data"]["flags"] & 64
    assert reply.ephemeral
    assert "A PAR - BUR" in reply.content
    for msg in table.fake.state.guild_messages():
        assert "A PAR - BUR" not in msg.content


async def test_ready_status_and_leave(table: Table) -> None:
    game_id = await table.create_started_game()
    germany = table.players[Power.GERMANY]
    ready = await table.command(germany, "ready")
    assert "ready" in ready.content
    assert (await table.service.status(game_id)).ready == [Power.GERMANY]

    status = await table.command(germany, "game status")
    assert status.ephemeral
    assert "Spring 1901 Movement" in status.content
    assert status.allowed_mentions == {"parse": []}  # lists players without pinging them

    left = await table.command(germany, "game leave")
    assert "left" in left.content
    assert Power.GERMANY not in (await table.service.status(game_id)).players


async def test_autocomplete_offers_presets_rules_and_free_powers(table: Table) -> None:
    fake = table.fake
    clocks = await fake.autocomplete(
        table.gm, "game create", {"clock": "ed"}, "clock", channel=table.table
    )
    assert [c["value"] for c in clocks] == ["edc2023"]
    rules = await fake.autocomplete(
        table.gm, "game create", {"rules": ""}, "rules", channel=table.table
    )
    assert {"datc", "edc2023"} <= {c["value"] for c in rules}

    await table.command(table.gm, "game create", {"name": "Paris"})
    await table.command(table.players[Power.FRANCE], "game join", {"power": "FRANCE"})
    free = await fake.autocomplete(
        table.outsider, "game join", {"power": ""}, "power", channel=table.table
    )
    values = [c["value"] for c in free]
    assert "FRANCE" not in values
    assert len(values) == 6
    table.outsider.locale = "fr"
    french = await fake.autocomplete(
        table.outsider, "game join", {"power": "all"}, "power", channel=table.table
    )
    assert [c["name"] for c in french] == ["Allemagne"]


async def test_everyone_ready_adjudicates_early(table: Table) -> None:
    game_id = await table.create_started_game(years=1, early=True)
    await table.settle()
    replies = [await table.command(user, "ready") for user in table.players.values()]
    assert "Everyone is ready" in replies[-1].content
    assert all("Everyone" not in r.content for r in replies[:-1])
    await table.fake.wait_for(lambda: maps_in(table, table.table) == 1, what="early results")
    assert (await table.service.status(game_id)).phase == "F1901M"


async def test_adjudicate_is_acknowledged_before_the_results(table: Table) -> None:
    await table.create_started_game()
    await table.settle()
    before = len(table.fake.state.messages)
    record = await table.fake.slash(table.gm, "gm adjudicate", channel=table.table)
    await table.fake.wait_for(lambda: maps_in(table, table.table) == 1, what="results")
    await table.settle()
    after = list(enumerate(table.fake.state.messages))[before:]
    ack = next(i for i, m in after if m.interaction_id == record.id)
    posted = [i for i, m in after if m.channel_id == table.table.id and m.interaction_id is None]
    assert table.fake.state.messages[ack].content == "Adjudicating now."
    assert record.response_types == [5]  # deferred first, then the acknowledgement
    assert posted  # the results, their map...
    assert ack < min(posted)


async def test_gm_deadline_missed_orders_and_draw(table: Table) -> None:
    fake = table.fake
    game_id = await table.create_started_game()
    now = table.service.clock.now()
    moved = await table.command(table.gm, "gm deadline", {"minutes": 60})
    assert moved.ephemeral
    assert (await table.service.status(game_id)).deadline == now + 3600
    await fake.wait_for(lambda: "New deadline" in table_text(table), what="deadline notice")

    await table.command(table.gm, "gm adjudicate")
    await fake.wait_for(lambda: maps_in(table, table.table) == 1, what="results")
    await table.settle()
    gm_dms = fake.state.dm_channel(table.gm.id)
    told = "\n".join(m.text() for m in fake.state.messages_in(gm_dms.id))
    assert "no orders for **Spring 1901" in told  # house VII(6): the GM is told
    missed = await table.command(table.gm, "gm missed")
    assert missed.ephemeral
    assert "1 missed" in missed.content
    assert f"<@{table.players[Power.FRANCE].id}>" in missed.content

    refused = await table.command(table.gm, "gm draw")
    assert "only after the warning" in refused.content  # datc: no GM-declared draw
    assert (await table.service.status(game_id)).status == "active"


async def test_gm_edits_the_board_and_the_table_is_told(table: Table) -> None:
    game_id = await table.create_started_game()
    edited = await table.command(table.gm, "gm edit", {"change": "remove A PAR"})
    assert edited.ephemeral
    assert "PAR" not in (await table.service.position(game_id)).units
    await table.fake.wait_for(
        lambda: "corrected the board" in table_text(table), what="board edit notice"
    )
    assert "`remove A PAR`" in table_text(table)


async def test_gm_publishes_a_players_abbreviations(table: Table) -> None:
    game_id = await table.create_started_game()
    reply = await table.command(
        table.gm, "gm abbreviations", {"power": "FRANCE", "entries": "ch = ENG"}
    )
    assert reply.ephemeral
    assert "`CH` = ENG" in reply.content
    await table.fake.wait_for(
        lambda: "Abbreviations agreed by the GM for France: `CH` = ENG" in table_text(table),
        what="published list",
    )
    status = await table.service.status(game_id)
    assert status.meta["abbreviations"] == {Power.FRANCE.value: {"CH": "ENG"}}
