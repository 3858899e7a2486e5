"""Casual servers on the fake Discord: a game's own channels (channels:auto), orders in a power's
channel, private press threads locked by the clock, a replacement, the reveal at the end."""

from __future__ import annotations

from bot.core.model import Power
from tests.cogs.conftest import Table
from tests.fake_discord.guild_admin import SEND, VIEW, allowed, remove_member
from tests.fake_discord.state import FakeChannel, FakeUser

MANAGE_CHANNELS = 1 << 4
MANAGE_ROLES = 1 << 28


async def casual_game(table: Table, gm: FakeUser, **options) -> int:
    """A game made with channels:auto by a GM who is not the server's owner (who sees all)."""
    opts = {"name": "Autumn League", "clock": "edc2023", "rules": "datc", **options}
    reply = await table.command(gm, "game create", opts)
    game_id = int(reply.content.split("(#")[1].split(")")[0])
    for power, user in table.players.items():
        await table.command(user, "game join", {"power": power.value, "game": game_id})
    await table.command(gm, "game start", {"game": game_id})
    await table.settle()
    return game_id


def private_channel(table: Table, name: str) -> FakeChannel:
    return next(c for c in table.guild.channels if c.name == name and c.parent_id is not None)


def made_by_bot(table: Table) -> tuple[FakeChannel, dict[str, FakeChannel]]:
    [category] = [c for c in table.guild.channels if c.type == 4]
    children = {c.name: c for c in table.guild.channels if c.parent_id == category.id}
    return category, children


async def say(table: Table, user: FakeUser, channel: FakeChannel, text: str) -> None:
    payload = table.fake.state.user_message(user, channel, text)
    await table.fake.gateway.dispatch("MESSAGE_CREATE", payload)


async def test_a_game_gets_its_channels_and_each_power_its_own(table: Table) -> None:
    fake, guild = table.fake, table.guild
    guild.bot_permissions |= MANAGE_CHANNELS
    gm = fake.add_user("gamemaster")
    fake.join(guild, gm)
    game_id = await casual_game(table, gm)
    category, children = made_by_bot(table)
    assert category.name == "Autumn League"
    assert set(children) == {
        "table",
        "press",
        "austria",
        "england",
        "france",
        "germany",
        "italy",
        "russia",
        "turkey",
    }
    status = await table.service.status(game_id)
    assert status.meta["channel"] == children["table"].id
    assert status.meta["press"] == [children["press"].id]
    [summary] = fake.state.messages_in(children["table"].id)[:1]
    assert "Settings of **Autumn League**" in summary.content  # at the game's own table

    france, germany = table.players[Power.FRANCE], table.players[Power.GERMANY]
    spectator = table.outsider
    own = children["france"]
    assert allowed(own, guild, france.id, VIEW)
    assert allowed(own, guild, france.id, SEND)
    assert allowed(own, guild, gm.id, VIEW)
    assert not allowed(own, guild, germany.id, VIEW)  # another player
    assert not allowed(own, guild, spectator.id, VIEW)  # a spectator, never
    assert allowed(children["table"], guild, spectator.id, VIEW)
    press = children["press"]
    assert allowed(press, guild, spectator.id, VIEW)
    assert not allowed(press, guild, spectator.id, SEND)  # spectators read the press
    assert allowed(press, guild, france.id, SEND)

    # Orders in the power's channel: the same reading and acknowledgement as a DM.
    await say(table, france, own, "A PAR - BUR; A MAR - SPA; F BRE - MAO")
    ack = await fake.wait_for(lambda: fake.state.messages_in(own.id), what="the ack")
    assert "A PAR - BUR" in ack[0].content
    assert await table.service.my_orders(game_id, str(france.id))
    # The GM writing in a power's channel is talk, not orders.
    await say(table, gm, own, "Good luck!")
    await table.settle()
    assert len(fake.state.messages_in(own.id)) == 1

    # The end: everything read-only; every player reads every power's channel.
    await table.command(gm, "gm end", {"reason": "time is up", "game": game_id})
    await table.settle()
    await fake.wait_for(lambda: allowed(own, guild, germany.id, VIEW), what="the reveal")
    assert not allowed(own, guild, france.id, SEND)
    assert not allowed(children["table"], guild, germany.id, SEND)
    assert not allowed(own, guild, spectator.id, VIEW)  # players only


async def test_under_stab_the_channels_stay_closed_until_the_gm_opens_them(table: Table) -> None:
    fake, guild = table.fake, table.guild
    guild.bot_permissions |= MANAGE_CHANNELS
    gm = fake.add_user("gamemaster")
    fake.join(guild, gm)
    game_id = await casual_game(table, gm, rules="stab")
    _, children = made_by_bot(table)
    own = children["france"]
    germany = table.players[Power.GERMANY]
    # Private press under Stab!: the thread and what the bot posts name powers, never units.
    france = table.players[Power.FRANCE]
    await table.command(france, "press open", {"power": "germany"}, channel=children["press"])
    [thread] = [c for c in fake.state.channels.values() if c.type == 12]
    posted = [thread.name, *(m.content for m in fake.state.messages_in(thread.id))]
    assert posted[1:]
    for word in ("PAR", "Paris", "BRE", "Brest", "MAR", "BER", "KIE", "MUN", " A ", " F "):
        assert all(word not in text for text in posted), word
    await table.command(gm, "gm end", {"reason": "time is up", "game": game_id})
    await table.settle()
    await fake.wait_for(lambda: fake.state.dms_to(gm.id), what="the GM told")
    assert "Stab!" in fake.state.dms_to(gm.id)[-1].content
    assert not allowed(own, guild, germany.id, VIEW)
    assert not allowed(own, guild, table.players[Power.FRANCE].id, SEND)  # read-only
    reply = await table.command(gm, "press reveal", {"game": game_id})
    assert "open" in reply.content
    assert allowed(own, guild, germany.id, VIEW)


async def test_without_manage_channels_the_gm_is_told_and_the_game_runs_here(
    table: Table,
) -> None:
    fake = table.fake
    reply = await table.command(
        table.gm, "game create", {"name": "Here", "clock": "edc2023", "channels": "auto"}
    )
    assert "Manage Channels" in reply.content
    assert not [c for c in table.guild.channels if c.type == 4]
    game_id = int(reply.content.split("(#")[1].split(")")[0])
    assert (await table.service.status(game_id)).meta["channel"] == table.table.id
    # Without asking, and without the permission: as before, not a word about channels.
    plain = await table.command(table.gm, "game create", {"name": "Plain", "clock": "edc2023"})
    assert "Manage" not in plain.content
    assert fake.state.requests  # (the fake saw the commands)


async def test_press_threads_a_replacement_and_a_member_leaving(table: Table) -> None:
    fake, guild = table.fake, table.guild
    guild.bot_permissions |= MANAGE_CHANNELS
    gm = fake.add_user("gamemaster")
    fake.join(guild, gm)
    game_id = await casual_game(table, gm)
    _, children = made_by_bot(table)
    press = children["press"]
    france, germany, italy = (table.players[p] for p in (Power.FRANCE, Power.GERMANY, Power.ITALY))

    reply = await table.command(france, "press open", {"power": "germany"}, channel=press)
    [thread] = [c for c in fake.state.channels.values() if c.type == 12]
    assert f"<#{thread.id}>" in reply.content
    assert not thread.invitable
    assert allowed(thread, guild, germany.id, VIEW)
    assert allowed(thread, guild, france.id, SEND)
    assert not allowed(thread, guild, italy.id, VIEW)
    assert not allowed(thread, guild, gm.id, VIEW)  # the GM is not in by default
    assert not allowed(thread, guild, table.outsider.id, VIEW)
    again = await table.command(germany, "press open", {"power": "france"}, channel=press)
    assert f"<#{thread.id}>" in again.content  # the same pair: the same thread
    group = await table.command(
        italy, "press open", {"power": "france", "power2": "austria"}, channel=press
    )
    assert "<#" in group.content
    assert len([c for c in fake.state.channels.values() if c.type == 12]) == 2
    await table.command(gm, "press gm", {"reads": True, "game": game_id})
    await table.command(table.players[Power.RUSSIA], "press open", {"power": "turkey"})
    [*_, watched] = [c for c in fake.state.channels.values() if c.type == 12]
    assert allowed(watched, guild, gm.id, VIEW)  # the GM asked to be in new threads

    # The clock's press lock (edc2023: closed while orders are read) closes the threads too.
    status = await table.service.status(game_id)
    await table.advance(status.deadline - table.clock.now())
    await fake.wait_for(lambda: not allowed(thread, guild, france.id, SEND), what="the press lock")
    assert allowed(thread, guild, france.id, VIEW)  # still read
    await table.advance(4 * 60)  # reading over: press open again
    await fake.wait_for(lambda: allowed(thread, guild, france.id, SEND), what="press reopened")

    # A replacement: Germany's channel and thread go to the newcomer, in one step.
    newcomer = fake.add_user("newcomer")
    fake.join(guild, newcomer)
    await table.command(gm, "gm replace", {"power": "GERMANY", "user": newcomer, "game": game_id})
    own = children["germany"]
    await fake.wait_for(lambda: allowed(own, guild, newcomer.id, VIEW), what="the new player")
    assert not allowed(own, guild, germany.id, VIEW)
    assert newcomer.id in thread.members
    assert germany.id not in thread.members
    assert allowed(press, guild, newcomer.id, SEND)
    assert not allowed(press, guild, germany.id, SEND)

    # A player leaves the server: the GM hears of it (with the Server Members intent).
    await remove_member(fake.gateway, guild, italy.id, intent=True)

    def left() -> list:
        return [m for m in fake.state.dms_to(gm.id) if "left the server" in m.content]

    told = await fake.wait_for(left, what="the GM told")
    assert f"<@{italy.id}> (Italy)" in told[0].content


async def test_rights_taken_back_never_hold_the_game(table: Table) -> None:
    fake, guild = table.fake, table.guild
    guild.bot_permissions |= MANAGE_CHANNELS
    gm = fake.add_user("gamemaster")
    fake.join(guild, gm)
    game_id = await casual_game(table, gm)
    guild.bot_permissions &= ~MANAGE_ROLES  # an admin takes Manage Roles back
    newcomer = fake.add_user("newcomer")
    fake.join(guild, newcomer)
    await table.command(gm, "gm replace", {"power": "GERMANY", "user": newcomer, "game": game_id})
    await table.settle()
    status = await table.service.status(game_id)
    await table.advance(status.deadline - table.clock.now())
    assert not await table.service.table.storage.pending_events()  # nothing stuck
    assert (await table.service.status(game_id)).phase != status.phase  # the game went on
