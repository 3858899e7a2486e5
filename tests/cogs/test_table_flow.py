"""A whole phase at a table, end to end: slash commands, DM orders, deadline, results and map."""

from __future__ import annotations

from bot.core.model import Power
from tests.cogs.conftest import Table
from tests.standard import STANDARD

OPENING = {
    Power.AUSTRIA: "A VIE - GAL\nA BUD - SER\nF TRI - ALB",
    Power.ENGLAND: "F LON - NTH\nF EDI - NWG\nA LVP - YOR",
    Power.FRANCE: "A PAR - BUR\nA MAR S A PAR - BUR\nF BRE - MAO",
    Power.GERMANY: "A BER - KIE\nA MUN - RUH\nF KIE - DEN",
    Power.ITALY: "A VEN H\nA ROM - APU\nF NAP - ION",
    Power.RUSSIA: "A MOS - UKR\nA WAR - GAL\nF SEV - BLA\nF STP/SC - BOT",
    Power.TURKEY: "A CON - BUL\nA SMY - CON\nF ANK - BLA",
}
MOVES = [line for text in OPENING.values() for line in text.splitlines() if " - " in line]
SPRING = 8 * 60  # edc2023: 8' negotiation
WRITING = 60  # then 1' to write orders


def maps_in(table: Table, channel) -> int:
    return sum(1 for m in table.fake.state.messages_in(channel.id) for f in m.files)


async def send_opening(table: Table) -> None:
    for power, text in OPENING.items():
        user = table.players[power]
        before = len(table.fake.state.dms_to(user.id))
        await table.fake.send_dm(user, text)
        reply = await table.fake.dm_reply(user, before)
        assert "MAO" in reply.content or power is not Power.FRANCE
        assert reply.allowed_mentions == {"parse": []}  # the reply echoes user text


async def test_a_spring_at_the_table(table: Table) -> None:
    fake = table.fake
    game_id = await table.create_started_game()
    await table.command(table.gm, "spectate", {"game": game_id}, channel=table.spectators)
    await table.settle()
    opened = [m.text() for m in fake.state.messages_in(table.table.id)]
    assert any("<t:" in text and ":R>" in text for text in opened)  # deadlines as timestamps

    await send_opening(table)
    status = await table.service.status(game_id)
    assert sorted(status.submitted) == sorted(STANDARD.powers)

    await table.advance(SPRING)
    await table.advance(WRITING - 1)
    # Orders are secret until adjudication: not one in any guild channel.
    for msg in fake.state.guild_messages():
        for order in MOVES:
            assert order not in msg.text(), f"{order!r} leaked in {msg.content!r}"
    assert maps_in(table, table.table) == 0
    [following] = fake.state.messages_in(table.spectators.id)  # only the /spectate answer
    assert "now follows" in following.content

    await table.advance(1)
    await fake.wait_for(lambda: maps_in(table, table.table) and maps_in(table, table.spectators))
    await table.advance(1)
    assert maps_in(table, table.table) == 1
    assert maps_in(table, table.spectators) == 1
    [png] = fake.state.files_in(table.table.id)
    assert png.data.startswith(b"\x89PNG")
    results = "\n".join(m.text() for m in fake.state.messages_in(table.table.id))
    assert "A PAR - BUR" in results
    # stabbeurfou 4 notation in the results embed: A VIE - GAL and A WAR - GAL stand off
    assert "✗ `A VIE - GAL` (failed)" in results.splitlines()
    spectated = "\n".join(m.text() for m in fake.state.messages_in(table.spectators.id))
    assert "A PAR - BUR" in spectated


async def test_press_is_locked_for_reading_and_reopened(table: Table) -> None:
    fake = table.fake
    france = table.players[Power.FRANCE]
    attach_files = 1 << 15  # an overwrite France had before the game: kept through the lock
    table.press.overwrites[france.id] = {
        "id": str(france.id),
        "type": 1,
        "allow": str(attach_files),
        "deny": "0",
    }
    await table.create_started_game()
    await table.advance(SPRING + WRITING)
    await fake.wait_for(lambda: fake.state.permission_changes, what="press lock")
    locked = [c for c in fake.state.permission_changes if c.action == "put"]
    assert {c.target_id for c in locked} == {u.id for u in table.players.values()}
    assert all(c.channel_id == table.press.id and c.deny & (1 << 11) for c in locked)
    assert len(table.press.overwrites) == 7  # the fake applied them
    assert table.press.overwrites[france.id]["allow"] == str(attach_files)

    await table.advance(4 * 60)  # reading ends: fall negotiation, press open again
    await fake.wait_for(lambda: len(table.press.overwrites) == 1, what="press unlock")
    unlocked = [c for c in fake.state.permission_changes if c.action == "delete"]
    assert {c.target_id for c in unlocked} == {u.id for p, u in table.players.items()} - {france.id}
    assert table.press.overwrites[france.id] == {
        "id": str(france.id),
        "type": 1,
        "allow": str(attach_files),
        "deny": "0",
    }
    notes = "\n".join(m.text() for m in fake.state.messages_in(table.table.id))
    assert "Press is closed" in notes
    assert "Press is open again" in notes
