"""The end of a game at the table (issue 7): a draw voted with secret ballot buttons, the
year limit, buttons that survive a restart, and /history, /replay, /export."""

from __future__ import annotations

import json
import re
from typing import Any

from bot.core.model import Power
from tests.cogs.conftest import Table
from tests.fake_discord.state import SentMessage


def table_posts(table: Table, channel) -> list[SentMessage]:
    return [m for m in table.fake.state.messages_in(channel.id) if m.interaction_id is None]


def buttons(message: SentMessage) -> dict[str, str]:
    """label -> custom_id of the buttons of a message."""
    return {
        c["label"]: c["custom_id"]
        for row in message.components
        for c in row.get("components", [])
        if c["type"] == 2
    }


async def press(table: Table, user, message: SentMessage, label: str) -> SentMessage:
    """Click a button of a message the bot posted; returns the (ephemeral) answer."""
    data = {"custom_id": buttons(message)[label], "component_type": 2}
    channel = table.fake.state.channels.get(message.channel_id or 0)
    record = await table.fake.interact(user, data, channel=channel, message=message)
    return await table.fake.reply_to(record, within=10)


async def vote_post(table: Table) -> SentMessage:
    def found() -> SentMessage | None:
        return next((m for m in table_posts(table, table.table) if "Vote open" in m.content), None)

    return await table.fake.wait_for(found, what="the vote announcement")


def text_of(table: Table, channel) -> str:
    return "\n".join(m.text() for m in table.fake.state.messages_in(channel.id))


async def test_a_draw_passed_by_secret_ballots_ends_the_game(table: Table) -> None:
    fake = table.fake
    game_id = await table.create_started_game(rules="edc2023")
    await table.command(table.gm, "spectate", {"game": game_id}, channel=table.spectators)
    await table.settle()

    proposed = await table.command(table.players[Power.FRANCE], "vote draw")
    assert proposed.ephemeral
    assert set(buttons(proposed)) == {"Yes", "No"}  # edc2023: unanimity, no abstention
    announced = await vote_post(table)
    assert "draw between Austria, England, France, Germany, Italy, Russia, Turkey" in (
        announced.content
    )
    assert "<@" not in announced.content  # the author is never named

    # The proposer votes on the ephemeral ballot, the others on the table's buttons.
    answer = await press(table, table.players[Power.FRANCE], proposed, "Yes")
    assert answer.ephemeral
    assert "recorded: Yes" in answer.content
    for power, user in table.players.items():
        if power is not Power.FRANCE:
            answer = await press(table, user, announced, "Yes")
            assert answer.ephemeral
    refused = await press(table, table.outsider, announced, "Yes")
    assert refused.ephemeral
    assert "recorded" not in refused.content

    await fake.wait_for(lambda: "Final standings" in text_of(table, table.table), what="end")
    await fake.wait_for(lambda: "Final standings" in text_of(table, table.spectators))
    table_text = text_of(table, table.table)
    assert "Vote passed: draw between" in table_text
    assert "is over: draw" in table_text
    assert "Final standings (edc2023)" in table_text  # the end embed's table (issue 31)
    assert re.search(r"^ 1  Russia +4  ", table_text, re.M)  # place, power, centres, score
    # Nobody's ballot is published: no player is named in any public post from the vote on.
    public = [m for m in fake.state.guild_messages() if not m.ephemeral]
    since = public[public.index(announced) :]
    for msg in since:
        for user in table.players.values():
            assert f"<@{user.id}>" not in msg.content
    [chart] = [f for f in fake.state.files_in(table.table.id) if f.filename == "centres.png"]
    assert chart.data.startswith(b"\x89PNG")
    assert any(f.filename == "centres.png" for f in fake.state.files_in(table.spectators.id))
    assert (await table.service.status(game_id)).end_reason == "draw"


async def test_a_ballot_button_works_after_a_restart(table: Table) -> None:
    game_id = await table.create_started_game(rules="edc2023")
    await table.settle()
    await table.command(table.players[Power.ENGLAND], "vote draw")
    announced = await vote_post(table)
    await press(table, table.players[Power.ITALY], announced, "Yes")
    await table.kill()
    await table.boot()  # a new process: the button posted before still reaches the service
    answer = await press(table, table.players[Power.TURKEY], announced, "No")
    assert "recorded: No" in answer.content
    await table.fake.wait_for(lambda: "Vote failed" in text_of(table, table.table))
    status = await table.service.status(game_id)
    assert status.status == "active"  # edc-2023 E: one "no" and the game resumes
    assert "<@" not in next(
        m.content for m in table_posts(table, table.table) if "Vote failed" in m.content
    )


async def test_the_year_limit_ends_the_game_and_its_history_can_be_read(table: Table) -> None:
    fake = table.fake
    game_id = await table.create_started_game(rules="edc2023", years=1)
    await table.settle()
    await fake.send_dm(table.players[Power.FRANCE], "A PAR - BUR\nF BRE - MAO")
    for _ in range(30):  # every window of 1901 runs on the fake clock
        if (await table.service.status(game_id)).status == "over":
            break
        due = await table.service.next_due(game_id)
        assert due is not None
        table.clock.set(due)
        await table.settle()
    await fake.wait_for(lambda: "Final standings" in text_of(table, table.table), what="end")
    table_text = text_of(table, table.table)
    assert "is over: year limit" in table_text
    assert "Final standings (edc2023)" in table_text  # the end embed's table (issue 31)
    charts = [f for f in fake.state.files_in(table.table.id) if f.filename == "centres.png"]
    assert len(charts) == 1

    shown = await table.command(table.outsider, "history", {"phase": "S1901M"})
    assert shown.ephemeral
    assert "Results of Spring 1901" in shown.content
    assert "A PAR - BUR" in shown.content.splitlines()
    assert [f.filename for f in shown.files] == ["map.png"]
    latest = await table.command(table.outsider, "history")
    assert "Fall 1901" in latest.content
    unknown = await table.command(table.outsider, "history", {"phase": "S1950M"})
    assert not unknown.files

    replay = await table.command(table.outsider, "replay")
    [gif] = replay.files
    assert gif.data.startswith(b"GIF8")

    exported = await table.command(table.outsider, "export")
    files = {f.filename: f.data for f in exported.files}
    record = json.loads(files[f"parley-{game_id}.json"])
    assert [p["phase"] for p in record["phases"]] == ["S1901M", "F1901M", "S1902M"]
    assert record["phases"][0]["orders"]["FRANCE"] == ["A PAR - BUR", "F BRE - MAO"]
    assert record["end"]["reason"] == "year limit"
    assert record["end"]["standings"][0]["place"] == 1
    report = files[f"parley-{game_id}.txt"].decode()
    assert "== Spring 1901 Movement ==" in report
    assert "Final standings (edc2023):" in report


async def test_house_rules_abstain_and_the_gm_refuses_a_repeat(table: Table) -> None:
    await table.create_started_game(rules="house", clock="casual")
    await table.settle()
    proposed = await table.command(
        table.players[Power.GERMANY], "vote concede", {"power": "FRANCE"}
    )
    assert set(buttons(proposed)) == {"Yes", "No", "Abstain"}  # house-rules IX(1)
    answer = await press(table, table.players[Power.ITALY], proposed, "Abstain")
    assert "recorded: Abstain" in answer.content
    not_gm = await table.command(table.players[Power.ITALY], "vote refuse", {"vote": 1})
    assert "Only the GM" in not_gm.content
    await table.command(table.gm, "vote refuse", {"vote": 1, "reason": "again?"})
    await table.fake.wait_for(lambda: "Vote refused by the GM" in text_of(table, table.table))
    again = await table.command(table.players[Power.ITALY], "vote ballot")
    assert "No vote is open" in again.content


async def test_house_stalemate_lets_the_gm_declare_a_draw(table: Table) -> None:
    """house-rules: two game years without a centre changing hands (nobody orders here)."""
    game_id = await table.create_started_game(rules="house", clock="casual")
    await table.settle()
    for _ in range(40):
        if "may now declare a draw" in text_of(table, table.table):
            break
        due = await table.service.next_due(game_id)
        assert due is not None
        table.clock.set(due)
        await table.settle()
    assert "may now declare a draw" in text_of(table, table.table)
    assert (await table.service.status(game_id)).status == "active"  # the GM decides


def test_the_powers_of_a_draw_are_read_in_either_language() -> None:
    from types import SimpleNamespace  # noqa: PLC0415

    from cogs.vote.cog import parse_powers  # noqa: PLC0415

    game: Any = SimpleNamespace(lang="en", variant="standard")
    assert parse_powers("France, Allemagne", game) == [Power.FRANCE, Power.GERMANY]
    assert parse_powers("ITALY italy; Turkey", game) == [Power.ITALY, Power.TURKEY]
    assert parse_powers("", game) == []


async def test_a_vote_sends_each_other_player_a_secret_ballot_by_dm(table: Table) -> None:
    fake = table.fake
    italy = table.players[Power.ITALY]
    italy.dms_open = False  # closed DMs change nothing for the vote
    game_id = await table.create_started_game(rules="edc2023")
    await table.settle()
    france = table.players[Power.FRANCE]
    before = {p: len(fake.state.dms_to(u.id)) for p, u in table.players.items()}
    fake.state.refused_dms.clear()
    await table.command(france, "vote draw")
    await vote_post(table)
    others = [p for p in table.players if p not in (Power.FRANCE, Power.ITALY)]
    for power in others:
        user = table.players[power]
        dm = await fake.dm_reply(user, before[power])
        assert f"Vienna (#{game_id}): vote #1 is open, a draw between Austria" in dm.content
        assert set(buttons(dm)) == {"Yes", "No"}
        assert "France proposed" not in dm.content
        assert "<@" not in dm.content  # nobody named: the proposer stays secret
    await fake.wait_for(lambda: italy.id in fake.state.refused_dms, what="Italy's closed DM")
    assert len(fake.state.dms_to(france.id)) == before[Power.FRANCE]  # the proposer: no DM
    notes = [m for m in fake.state.messages_in(table.table.id) if "Privacy" in m.content]
    assert len(notes) == 1  # the one at the start; none that would hint at the proposer

    # A DM ballot counts like the table's buttons.
    germany = table.players[Power.GERMANY]
    dm = await fake.dm_reply(germany, before[Power.GERMANY])
    answer = await press(table, germany, dm, "No")
    assert "recorded: No" in answer.content
    await fake.wait_for(lambda: "Vote failed" in text_of(table, table.table))
