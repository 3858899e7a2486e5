"""The fake Discord works with the real discord.py client: connect, commands, DMs, faults."""

from __future__ import annotations

import asyncio
import io
import time
from collections.abc import AsyncIterator

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.fake_discord import FakeDiscord


class EchoBot(commands.Bot):
    def __init__(self) -> None:
        intents = discord.Intents.default()
        intents.message_content = True
        super().__init__(command_prefix=[], intents=intents, guild_ready_timeout=0.05)
        self.dms: list[str] = []
        self.resumed = asyncio.Event()

        @self.tree.command(name="ping", description="Answer pong")
        @app_commands.describe(word="what to echo")
        async def ping(interaction: discord.Interaction, word: str = "pong") -> None:
            await interaction.response.send_message(f"echo {word}", ephemeral=True)

        @self.tree.command(name="slow", description="Deferred answer")
        async def slow(interaction: discord.Interaction) -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            await interaction.followup.send("done")

    async def setup_hook(self) -> None:
        await self.tree.sync()

    async def on_message(self, message: discord.Message) -> None:
        if message.guild is None and message.author != self.user:
            self.dms.append(message.content)
            await message.channel.send(f"got {message.content}")

    async def on_resumed(self) -> None:
        self.resumed.set()

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        return None  # discord.py waits 5 s before identifying again; not in tests


@pytest.fixture
async def world() -> AsyncIterator[tuple[FakeDiscord, EchoBot]]:
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Table", ["table", "press"])
        fake.join(guild, fake.add_user("alice"))
        bot = EchoBot()
        await bot.login(fake.token)
        task = asyncio.create_task(bot.connect())
        await asyncio.wait_for(bot.wait_until_ready(), 5)
        yield fake, bot
        await bot.close()
        await asyncio.wait_for(task, 5)


async def test_ready_carries_guilds_and_synced_commands(world) -> None:
    fake, bot = world
    assert [g.name for g in bot.guilds] == ["Table"]
    assert {c.name for c in bot.guilds[0].text_channels} == {"table", "press"}
    assert {c["name"] for c in fake.state.command_syncs[-1].commands} == {"ping", "slow"}
    assert fake.gateway.identifies == 1


async def test_slash_command_gets_an_ephemeral_reply(world) -> None:
    fake, _bot = world
    alice = next(u for u in fake.state.users.values() if u.username == "alice")
    record = await fake.slash(
        alice, "ping", {"word": "hi"}, channel=fake.state.channel_named("table")
    )
    reply = await fake.reply_to(record)
    assert reply.content == "echo hi"
    assert reply.ephemeral
    assert record.response_types == [4]


async def test_deferred_reply_inherits_ephemeral(world) -> None:
    fake, _bot = world
    alice = next(u for u in fake.state.users.values() if u.username == "alice")
    record = await fake.slash(alice, "slow", channel=fake.state.channel_named("table"))
    reply = await fake.reply_to(record)
    assert record.response_types == [5]
    assert reply.content == "done"
    assert reply.ephemeral


async def test_dm_is_received_and_answered(world) -> None:
    fake, bot = world
    alice = next(u for u in fake.state.users.values() if u.username == "alice")
    await fake.send_dm(alice, "A PAR - BUR")
    reply = await fake.dm_reply(alice, 0)
    assert bot.dms == ["A PAR - BUR"]
    assert reply.content == "got A PAR - BUR"


async def test_gateway_close_resumes_and_replays_missed_events(world) -> None:
    fake, bot = world
    alice = next(u for u in fake.state.users.values() if u.username == "alice")
    await fake.close_gateway(4000)
    await fake.send_dm(alice, "sent while down")  # buffered, replayed on RESUME
    await asyncio.wait_for(bot.resumed.wait(), 10)
    await fake.dm_reply(alice, 0)
    assert fake.gateway.resumes == 1
    assert fake.gateway.identifies == 1
    assert bot.dms == ["sent while down"]


async def test_rate_limit_is_waited_out_and_retried(world) -> None:
    fake, bot = world
    fake.rate_limit("/messages", count=2, retry_after=0.1)
    table = fake.state.channel_named("table")
    start = time.monotonic()
    await bot.get_partial_messageable(table.id).send("after the limit")
    assert time.monotonic() - start >= 0.2
    assert [m.content for m in fake.state.messages_in(table.id)] == ["after the limit"]
    assert [r.status for r in fake.state.requests if r.path.endswith("/messages")] == [
        429,
        429,
        200,
    ]


async def test_server_error_is_retried(world) -> None:
    fake, bot = world
    fake.server_errors("/messages", count=1)
    table = fake.state.channel_named("table")
    await bot.get_partial_messageable(table.id).send("after the outage")
    assert [m.content for m in fake.state.messages_in(table.id)] == ["after the outage"]


async def test_closed_dms_are_refused_with_403(world) -> None:
    fake, bot = world
    shy = fake.add_user("shy", dms_open=False)
    user = await bot.fetch_user(shy.id)
    with pytest.raises(discord.Forbidden) as info:
        await user.send("hello")
    assert info.value.code == 50007
    assert fake.state.refused_dms == [shy.id]


async def test_permission_overwrites_are_recorded_and_echoed(world) -> None:
    fake, bot = world
    press = fake.state.channel_named("press")
    alice = next(u for u in fake.state.users.values() if u.username == "alice")
    await bot.http.edit_channel_permissions(press.id, alice.id, "0", str(1 << 11), 1)
    await fake.wait_for(lambda: bot.get_channel(press.id).overwrites, what="CHANNEL_UPDATE")
    await bot.http.delete_channel_permissions(press.id, alice.id)
    assert [(c.action, c.deny) for c in fake.state.permission_changes] == [
        ("put", 1 << 11),
        ("delete", 0),
    ]
    assert press.overwrites == {}


async def test_attachments_are_recorded(world) -> None:
    fake, bot = world
    table = fake.state.channel_named("table")
    data = b"\x89PNG fake"
    await bot.get_partial_messageable(table.id).send(
        "map", file=discord.File(io.BytesIO(data), filename="map.png")
    )
    [f] = fake.state.files_in(table.id)
    assert (f.filename, f.data) == ("map.png", data)


async def test_reconnect_request_resumes_the_session(world) -> None:
    fake, bot = world
    await fake.request_reconnect()
    await asyncio.wait_for(bot.resumed.wait(), 10)
    assert (fake.gateway.identifies, fake.gateway.resumes) == (1, 1)


async def test_invalid_session_makes_the_bot_identify_again(world) -> None:
    fake, _bot = world
    await fake.invalidate_session()
    await fake.wait_for(lambda: fake.gateway.identifies == 2, within=10, what="new IDENTIFY")
    assert fake.gateway.resumes == 0


async def test_a_repeated_nonce_is_dropped_with_nonce_memory(world) -> None:
    fake, bot = world
    table = bot.get_partial_messageable(fake.state.channel_named("table").id)
    first = await table.send("once", nonce="n1")
    again = await table.send("once", nonce="n1")
    assert again.id == first.id
    assert fake.state.deduplicated == 1
    assert fake.state.double_posts() == 0


async def test_without_nonce_memory_a_repeat_is_a_second_message(world) -> None:
    fake, bot = world
    fake.state.nonce_memory = False
    table = bot.get_partial_messageable(fake.state.channel_named("table").id)
    first = await table.send("twice", nonce="n1")
    again = await table.send("twice", nonce="n1")
    assert again.id != first.id
    assert fake.state.deduplicated == 0
    assert fake.state.double_posts() == 1


async def test_a_lost_reply_after_the_post_makes_discordpy_post_again(world) -> None:
    """A 502 after Discord created the message: discord.py retries the POST."""
    fake, bot = world
    fake.state.nonce_memory = False
    hit = fake.after_post("/messages", status=502)
    channel = fake.state.channel_named("table")
    await bot.get_partial_messageable(channel.id).send("lost reply", nonce="n2")
    assert hit.is_set()
    assert [m.content for m in fake.state.messages_in(channel.id)] == ["lost reply"] * 2


async def test_a_hanging_reply_leaves_the_message_posted(world) -> None:
    fake, bot = world
    hit = fake.after_post("/messages")
    channel = fake.state.channel_named("table")
    task = asyncio.create_task(bot.get_partial_messageable(channel.id).send("no answer"))
    await asyncio.wait_for(hit.wait(), 5)
    assert not task.done()
    task.cancel()
    assert [m.content for m in fake.state.messages_in(channel.id)] == ["no answer"]


async def test_history_and_fetch_find_the_bots_messages_without_their_nonce(world) -> None:
    fake, bot = world
    channel = bot.get_partial_messageable(fake.state.channel_named("table").id)
    sent = [await channel.send(f"m{i}", nonce=f"n{i}") for i in range(3)]
    newest_first = [m.content async for m in channel.history(limit=10)]
    assert newest_first == ["m2", "m1", "m0"]
    after = [m.content async for m in channel.history(after=sent[0], oldest_first=True)]
    assert after == ["m1", "m2"]
    fetched = await channel.fetch_message(sent[1].id)
    assert (fetched.content, fetched.nonce) == ("m1", None)
