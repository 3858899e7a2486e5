"""A table on the fake Discord: the real bot and service, a real SQLite file, a fake clock."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.client import ParleyBot
from bot.core.model import Power
from bot.service import FakeClock, TableService
from bot.service.storage import SqliteStorage
from tests.bot.service.faults import FaultyStorage, crash
from tests.fake_discord import FakeChannel, FakeDiscord, FakeGuild, FakeUser
from tests.standard import STANDARD

POWERS = list(STANDARD.powers)


@dataclass
class Table:
    fake: FakeDiscord
    clock: FakeClock
    db: Path
    guild: FakeGuild
    table: FakeChannel
    press: FakeChannel
    spectators: FakeChannel
    gm: FakeUser
    players: dict[Power, FakeUser]
    outsider: FakeUser
    bot: ParleyBot | None = None
    service: TableService | None = None
    _task: asyncio.Task[None] | None = field(default=None, repr=False)

    async def boot(self, **service_options) -> ParleyBot:
        """Start a bot process: open the service on the database file, connect to Discord."""
        faults = service_options.pop("faults", None)
        service_options.setdefault("grace", 0.0)  # (tested on its own: test_lateness.py)
        if faults is not None:  # kill points in a storage wrapper (tests/bot/service/faults.py)
            storage = await SqliteStorage.open(self.db)
            service_options["storage"] = FaultyStorage(storage, faults)
        self.service = await TableService.open(
            self.db, clock=self.clock, run=False, **service_options
        )
        self.bot = ParleyBot(self.service, guild_ready_timeout=0.05)
        await self.bot.login(self.fake.token)
        self._task = asyncio.create_task(self.bot.connect())
        await asyncio.wait_for(self.bot.wait_until_ready(), 10)
        return self.bot

    async def shutdown(self) -> None:
        if self.bot is not None:
            await self.bot.close()
        if self._task is not None:
            await asyncio.wait_for(self._task, 5)
        if self.service is not None:
            await self.service.close()
        self.bot = self.service = self._task = None

    async def kill(self) -> None:
        """The process dies: no goodbye to Discord, the service is dropped without closing."""
        assert self.service is not None
        assert self.bot is not None
        assert self._task is not None
        crash(self.service)
        ws = self.bot.ws
        keep_alive = getattr(ws, "_keep_alive", None) if ws is not None else None
        if keep_alive is not None:  # the heartbeat thread dies with the process too
            keep_alive.stop()
        self._task.cancel()
        await asyncio.gather(self._task, return_exceptions=True)
        await self.bot.http.close()  # the sockets die with the process
        await self.service.storage.close()  # the file handle too (SQLite keeps what was committed)
        self.bot = self.service = self._task = None

    async def command(self, user: FakeUser, name: str, options: dict | None = None, **kw):
        """Run a slash command in the table channel (default) and wait for its reply."""
        kw.setdefault("channel", self.table)
        record = await self.fake.slash(user, name, options or {}, **kw)
        return await self.fake.reply_to(record, within=10)

    async def create_started_game(self, **options) -> int:
        opts = {"name": "Vienna", "clock": "edc2023", "rules": "datc", "press": self.press}
        opts.update(options)
        reply = await self.command(self.gm, "game create", opts)
        game_id = int(reply.content.split("(#")[1].split(")")[0])
        for power, user in self.players.items():
            await self.command(user, "game join", {"power": power.value})
        await self.command(self.gm, "game start")
        return game_id

    async def settle(self) -> None:
        """Let the scheduler do what is due and the bot post it."""
        assert self.service is not None
        for _ in range(3):
            await self.service.run_due()
            await asyncio.sleep(0.02)
        # Delivery runs in its own task: wait (a little) until what is due has been posted,
        # so a test counting messages does not count before the last ones arrive. An event
        # that cannot be delivered (closed DMs) stays pending: give up after about a second.
        for _ in range(50):
            if not await self.service.table.storage.pending_events():
                break
            await self.service.deliver()
            await asyncio.sleep(0.02)

    async def advance(self, seconds: float) -> None:
        self.clock.advance(seconds)
        await self.settle()


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[Table]:
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Parley club", ["table", "press", "spectators"])
        players = {p: fake.add_user(p.value.lower()) for p in POWERS}
        outsider = fake.add_user("kibitzer")
        fake.join(guild, *players.values(), outsider)
        t = Table(
            fake=fake,
            clock=FakeClock(),
            db=tmp_path / "parley.db",
            guild=guild,
            table=fake.state.channel_named("table"),
            press=fake.state.channel_named("press"),
            spectators=fake.state.channel_named("spectators"),
            gm=fake.state.owner,
            players=players,
            outsider=outsider,
        )
        await t.boot()
        try:
            yield t
        finally:
            await t.shutdown()
