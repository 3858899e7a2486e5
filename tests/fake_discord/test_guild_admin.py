"""The fake's guild administration (guild_admin.py) through discord.py's own HTTP client: what
Discord's documentation says of creating channels, private threads and their members, and of
a missing permission."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import discord
import pytest

from tests.fake_discord import FakeDiscord
from tests.fake_discord.guild_admin import MANAGE_CHANNELS, MANAGE_ROLES, SEND, VIEW, allowed


@pytest.fixture
async def world() -> AsyncIterator[tuple[FakeDiscord, discord.Client]]:
    async with FakeDiscord() as fake:
        client = discord.Client(intents=discord.Intents.default(), guild_ready_timeout=0.05)
        await client.login(fake.token)
        task = asyncio.create_task(client.connect())
        await asyncio.wait_for(client.wait_until_ready(), 5)
        yield fake, client
        await client.close()
        await asyncio.wait_for(task, 5)


async def test_channels_need_manage_channels_and_keep_their_overwrites(world) -> None:
    fake, client = world
    guild = fake.add_guild("Club", ["general"])
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    fake.join(guild, alice, bob)
    with pytest.raises(discord.Forbidden) as info:
        await client.http.create_channel(guild.id, 4, name="Game")
    assert info.value.code == 50013  # Missing Permissions
    guild.bot_permissions |= MANAGE_CHANNELS
    category = await client.http.create_channel(guild.id, 4, name="Game")
    closed = [
        {"id": str(guild.id), "type": 0, "allow": "0", "deny": str(VIEW)},
        {"id": str(alice.id), "type": 1, "allow": str(VIEW | SEND), "deny": "0"},
    ]
    made = await client.http.create_channel(
        guild.id, 0, name="france", parent_id=category["id"], permission_overwrites=closed
    )
    channel = fake.state.channels[int(made["id"])]
    assert (channel.type, channel.parent_id) == (0, int(category["id"]))
    assert allowed(channel, guild, alice.id, SEND)
    assert not allowed(channel, guild, bob.id, VIEW)
    assert allowed(channel, guild, guild.owner_id, VIEW)  # the owner sees everything
    guild.bot_permissions &= ~MANAGE_ROLES
    with pytest.raises(discord.Forbidden):
        await client.http.edit_channel_permissions(channel.id, bob.id, str(VIEW), "0", 1)
    await client.http.delete_channel(channel.id)
    assert channel.id not in fake.state.channels


async def test_a_private_thread_is_for_its_members(world) -> None:
    fake, client = world
    guild = fake.add_guild("Club", ["press"])
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    fake.join(guild, alice, bob)
    press = fake.state.channel_named("press")
    made = await client.http.start_thread_without_message(
        press.id, name="France – Germany", auto_archive_duration=10080, type=12, invitable=False
    )
    thread = fake.state.channels[int(made["id"])]
    assert made["thread_metadata"]["invitable"] is False
    await client.http.add_user_to_thread(thread.id, alice.id)
    assert allowed(thread, guild, alice.id, SEND)
    assert not allowed(thread, guild, bob.id, VIEW)
    # A thread talks by its parent's Send Messages in Threads.
    press.overwrites[alice.id] = {
        "id": str(alice.id),
        "type": 1,
        "allow": "0",
        "deny": str(1 << 38),
    }
    assert not allowed(thread, guild, alice.id, SEND)
    assert allowed(thread, guild, alice.id, VIEW)
    await client.http.remove_user_from_thread(thread.id, alice.id)
    assert not allowed(thread, guild, alice.id, VIEW)
