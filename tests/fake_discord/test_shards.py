"""Two processes of one bot with different shard ranges (issue 17), on the fake Discord's shard
sessions and one PostgreSQL schema: each sees only its own guilds and their events (DMs go to
shard 0), and every request either makes takes its turn from the one shared rate."""

from __future__ import annotations

import asyncio
from typing import Any

import discord

from bot.client import make_bot
from bot.service import TableService
from bot.service.storage.postgres import PgStorage
from tests.bot.service.pg import connect, dsn, fresh_schema, settings
from tests.fake_discord import FakeDiscord
from tests.fake_discord.gateway import shard_of


def paced(path: str) -> bool:
    """A request the bot's pacer holds for a turn (see bot/discord_app/pacing.trace)."""
    return "/api/" in path and "/interactions/" not in path and "/webhooks/" not in path


async def test_two_processes_with_their_shards_see_their_guilds_and_share_the_rate() -> None:
    async with FakeDiscord() as fake, fresh_schema() as schema:
        guilds = [fake.add_guild(f"Club {i}", ["table"], shard=(i, 2)) for i in range(2)]
        assert [shard_of(g.id, 2) for g in guilds] == [0, 1]
        alice = fake.add_user("alice")
        for g in guilds:
            fake.join(g, alice)
        services, bots, tasks = [], [], []
        seen: list[list[tuple[str, int | None]]] = [[], []]
        for i in range(2):
            storage = await PgStorage.open(dsn(), server_settings=settings(schema))
            svc = await TableService.open(storage=storage, run=False)
            # Only shard 0's process syncs the commands (as `parley run` does).
            bot = make_bot(
                svc, shards=[i], shard_count=2, sync_commands=i == 0, guild_ready_timeout=0.05
            )

            async def interaction(it: discord.Interaction, i: int = i) -> None:
                seen[i].append(("interaction", it.guild_id))

            async def message(msg: discord.Message, i: int = i) -> None:
                if not msg.author.bot:
                    seen[i].append(("message", msg.guild.id if msg.guild else None))

            bot.add_listener(interaction, "on_interaction")
            bot.add_listener(message, "on_message")
            services.append(svc)
            bots.append(bot)
            tasks.append(asyncio.create_task(bot.start(fake.token)))
            await asyncio.wait_for(bot.wait_until_ready(), 20)
        try:
            assert [[g.id for g in bot.guilds] for bot in bots] == [[guilds[0].id], [guilds[1].id]]
            assert sorted(s.shard for s in fake.gateway.sessions.values()) == [(0, 2), (1, 2)]
            # An interaction in each guild, and a DM: each reaches only its shard's process.
            for g in guilds:
                await fake.interact(
                    alice, {"custom_id": "x", "component_type": 2}, channel=g.channels[0]
                )
            await fake.send_dm(alice, "hello")
            await fake.wait_for(lambda: len(seen[0]) == 2 and len(seen[1]) == 1, within=10)
            await asyncio.sleep(0.2)  # (nothing else arrives)
            assert seen[0] == [("interaction", guilds[0].id), ("message", None)]
            assert seen[1] == [("interaction", guilds[1].id)]
            # Both processes' requests took turns from the one rate in the database: once
            # the last reply is out, as many turns as paced requests reached Discord.
            rates: list[Any] = [svc.rate for svc in services]
            assert all(r is not None and r._taken > 0 for r in rates)
            admin = await connect()
            try:
                for _ in range(100):
                    used = await admin.fetchval(f"SELECT SUM(used) FROM {schema}.rate_slots")
                    requests = sum(1 for r in fake.state.requests if paced(r.path))
                    if used == requests:
                        break
                    await asyncio.sleep(0.05)
            finally:
                await admin.close()
            assert (used, requests) == (requests, requests)
        finally:
            for bot in bots:
                await bot.close()
            await asyncio.gather(*tasks, return_exceptions=True)
            for svc in services:
                await svc.close()
