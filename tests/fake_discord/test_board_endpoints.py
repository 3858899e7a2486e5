"""The fake Discord's embeds, edits, pins and a user's deletion (issue 31), through discord.py."""

from __future__ import annotations

import asyncio

import discord
import pytest

from tests.fake_discord.test_fake_discord import world  # noqa: F401 - the fixture


async def test_an_oversized_embed_is_refused_as_discord_does(world):  # noqa: F811
    fake, bot = world
    channel = bot.get_channel(fake.state.channel_named("table").id)
    ok = await channel.send("x", embed=discord.Embed(title="t" * 256, description="d"))
    assert ok.embeds[0].title == "t" * 256
    before = len(fake.state.messages)
    with pytest.raises(discord.HTTPException) as refused:
        await channel.send("x", embed=discord.Embed(title="t" * 257))
    assert refused.value.status == 400
    assert refused.value.code == 50035
    big = discord.Embed(title="t")
    for i in range(6):
        big.add_field(name=f"f{i}", value="v" * 1024)
    with pytest.raises(discord.HTTPException):  # 6,144 characters > 6,000
        await channel.send(embed=big)
    field = discord.Embed(title="t").add_field(name="n", value="v" * 1025)
    with pytest.raises(discord.HTTPException):
        await channel.send(embed=field)
    eleven = [{"title": str(i)} for i in range(11)]  # (discord.py refuses 11 itself)
    route = discord.http.Route("POST", "/channels/{c}/messages", c=channel.id)
    with pytest.raises(discord.HTTPException):
        await bot.http.request(route, json={"embeds": eleven})
    assert len(fake.state.messages) == before
    with pytest.raises(discord.HTTPException):  # nor an edit
        await ok.edit(embed=discord.Embed(description="d" * 4097))
    edited = await ok.edit(embed=discord.Embed(title="new"))
    assert edited.embeds[0].title == "new"
    assert fake.state.messages[-1].embeds[0]["title"] == "new"


async def test_pins_need_the_right(world):  # noqa: F811
    fake, bot = world
    channel = bot.get_channel(fake.state.channel_named("table").id)
    msg = await channel.send("board")
    await msg.pin()
    assert fake.rest.pins.pinned[channel.id] == [msg.id]
    await msg.unpin()
    assert fake.rest.pins.pinned[channel.id] == []
    await bot.http.request(
        discord.http.Route(
            "PUT", "/channels/{c}/pins/{m}", c=channel.id, m=msg.id
        )  # the older route
    )
    assert fake.rest.pins.pinned[channel.id] == [msg.id]
    fake.rest.pins.allowed = False
    with pytest.raises(discord.Forbidden) as refused:
        await msg.unpin()
    assert refused.value.code == 50013


async def test_a_user_deletes_a_message(world):  # noqa: F811
    fake, bot = world
    channel = bot.get_channel(fake.state.channel_named("table").id)
    msg = await channel.send("board")
    seen: list[int] = []

    async def deleted(payload: discord.RawMessageDeleteEvent) -> None:
        seen.append(payload.message_id)

    bot.add_listener(deleted, "on_raw_message_delete")
    await fake.rest.pins.delete_by_user(fake.state.messages[-1])
    for _ in range(50):
        if seen:
            break
        await asyncio.sleep(0.02)
    assert seen == [msg.id]
    with pytest.raises(discord.NotFound):
        await msg.edit(content="again")
