"""`parley doctor` on the fake Discord: each finding, and the exit status."""

from __future__ import annotations

import asyncio
import os
import re
import sqlite3
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.cli import main
from bot.hosting import doctor
from bot.hosting import permissions as perm
from bot.hosting.doctor import Options, diagnose, failed
from bot.service import FakeClock, TableService
from bot.service.storage import probe
from tests.fake_discord import FakeChannel, FakeDiscord, FakeGuild


@dataclass
class World:
    fake: FakeDiscord
    guild: FakeGuild
    table: FakeChannel
    press: FakeChannel
    spectators: FakeChannel
    db: Path
    game: int

    def options(self, **kw: object) -> Options:
        return Options(token=self.fake.token, db=str(self.db), **kw)  # type: ignore[arg-type]


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    async with FakeDiscord() as fake:
        guild = fake.add_guild("club", ["table", "press", "spectators"])
        table, press, spectators = guild.channels
        db = tmp_path / "parley.db"
        svc = await TableService.open(db, clock=FakeClock(), run=False, render=False)
        meta = {"channel": table.id, "press": [press.id], "spectators": [spectators.id]}
        st = await svc.create_game("gm", name="Vienna", meta=meta)
        await svc.create_game("gm", name="Over")  # (ended below: not checked)
        await svc.close()
        with sqlite3.connect(db) as conn:
            conn.execute("UPDATE games SET status = 'over' WHERE name = 'Over'")
        yield World(fake, guild, table, press, spectators, db, st.id)


def lines(findings: list[doctor.Finding]) -> str:
    return "\n".join(f.line() for f in findings)


def problems(findings: list[doctor.Finding]) -> list[str]:
    return [f.text for f in findings if f.level == doctor.PROBLEM]


async def test_all_well(world: World) -> None:
    found = await diagnose(world.options())
    assert not failed(found), lines(found)
    text = lines(found)
    assert "token accepted: the bot is Parley" in text
    assert "intents: Guilds, Direct Messages (none privileged)" in text
    assert "answers (1 game running)" in text
    assert "migrations current" in text
    assert "clock: within 2 s of Discord's" in text
    assert f"game #{world.game} 'Vienna': the bot may do its work" in text
    assert "'Over'" not in text


async def test_missing_permissions_named_with_the_game(world: World) -> None:
    bot = world.fake.state.bot_user.id
    # The table channel denies the bot's role Attach Files; the role loses Manage Roles.
    role = world.guild.role("Parley")
    world.table.overwrites[int(role["id"])] = {
        "id": role["id"],
        "type": 0,
        "allow": "0",
        "deny": str(perm.ATTACH_FILES),
    }
    role["permissions"] = str(int(role["permissions"]) & ~perm.MANAGE_ROLES)
    # and the spectators' channel is hidden from the bot itself (a member overwrite)
    world.spectators.overwrites[bot] = {
        "id": str(bot),
        "type": 1,
        "allow": "0",
        "deny": str(perm.VIEW_CHANNEL),
    }
    found = await diagnose(world.options())
    assert failed(found)
    assert sorted(problems(found)) == sorted(
        [
            "game #1 'Vienna': table channel #table lacks Attach Files",
            "game #1 'Vienna': press channel #press lacks Manage Permissions (Manage Roles)",
            "game #1 'Vienna': spectators channel #spectators lacks View Channel, "
            "Send Messages, Embed Links, Attach Files",
        ]
    )


async def test_a_deleted_channel(world: World) -> None:
    del world.fake.state.channels[world.press.id]
    found = await diagnose(world.options())
    assert problems(found) == [f"game #1 'Vienna': cannot see its press channel {world.press.id}"]


async def test_discord_failing(world: World) -> None:
    world.fake.server_errors(f"/channels/{world.table.id}", count=10)
    found = await diagnose(world.options())
    assert f"game #1 'Vienna': Discord answered 502 for its table channel {world.table.id}" in (
        problems(found)
    )


async def test_refused_token(world: World) -> None:
    found = await diagnose(Options(token="wrong", db=str(world.db)))
    assert "Discord refused the token (DISCORD_TOKEN)" in problems(found)
    assert not any("game #" in f.text for f in found)  # (nothing more to ask Discord)


async def test_message_content_intent(world: World) -> None:
    found = await diagnose(world.options(message_content=True))
    assert any(p.startswith("intents: --message-content asks") for p in problems(found))
    flags = {"flags": 1 << 19}  # GATEWAY_MESSAGE_CONTENT_LIMITED: enough
    payload = world.fake.state.application_payload
    world.fake.state.application_payload = lambda: {**payload(), **flags}  # type: ignore[method-assign]
    found = await diagnose(world.options(message_content=True))
    assert not failed(found), lines(found)


async def test_stale_and_newer_migrations(world: World) -> None:
    with sqlite3.connect(world.db) as conn:
        newest = conn.execute("SELECT MAX(version) FROM schema_version").fetchone()[0]
        conn.execute("DELETE FROM schema_version WHERE version = ?", (newest,))
    found = await diagnose(world.options())
    assert f"migrations not applied: {newest:04d}" in lines(found)
    assert failed(found)
    with sqlite3.connect(world.db) as conn:
        conn.execute("INSERT INTO schema_version VALUES (?, ?, ?)", (newest, "x", 0))
        conn.execute("INSERT INTO schema_version VALUES (9999, 'future', 0)")
    found = await diagnose(world.options())
    assert any("migration 9999, newer than this Parley" in p for p in problems(found))


async def test_full_disk(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    real = probe.shutil.disk_usage

    def nearly_full(path: object) -> object:
        return real(path)._replace(free=5 * 2**20)  # type: ignore[arg-type]

    monkeypatch.setattr(probe.shutil, "disk_usage", nearly_full)
    found = await diagnose(world.options())
    assert any(p.startswith("only 5 MiB free beside the database") for p in problems(found))


async def test_database_not_answering(world: World, tmp_path: Path) -> None:
    found = await diagnose(Options(token=world.fake.token, db=str(tmp_path / "none.db")))
    assert any("does not answer" in p and "no such file" in p for p in problems(found))
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not sqlite at all" * 100)
    found = await diagnose(Options(token=world.fake.token, db=str(junk)))
    assert any("does not answer" in p for p in problems(found))


async def test_clock_apart_from_discords(world: World) -> None:
    world.fake.rest.clock_offset = -90.0  # Discord says it is 90 s earlier: we are ahead
    found = await diagnose(world.options())
    # (Date has whole seconds: the skew read is within a second of the offset)
    assert any(re.match(r"clock: (90|91) s ahead of Discord's", p) for p in problems(found))
    world.fake.rest.clock_offset = 5.0
    found = await diagnose(world.options())
    assert any(
        f.level == doctor.WARNING and re.match(r"clock: [45] s behind Discord's", f.text)
        for f in found
    )


async def test_backups_age(world: World, tmp_path: Path) -> None:
    folder = tmp_path / "backups"
    folder.mkdir()
    found = await diagnose(world.options(backups=folder))
    assert f"backups: none in {folder}" in problems(found)
    old = folder / "parley-old.db"
    old.write_bytes(b"x")
    two_days = time.time() - 48 * 3600
    os.utime(old, (two_days, two_days))
    found = await diagnose(world.options(backups=folder))
    assert "last backup parley-old.db, 48.0 h old" in problems(found)
    (folder / "parley-new.db").write_bytes(b"x")
    found = await diagnose(world.options(backups=folder))
    assert not failed(found), lines(found)


async def test_cli_exit_status(
    world: World, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", world.fake.token)
    # (in a thread: the command runs its own event loop; the fake serves on this one)
    status = await asyncio.to_thread(main, ["doctor", "--db", str(world.db)])
    out = capsys.readouterr().out
    assert status == 0, out
    assert all(line.startswith(("ok ", "warning")) for line in out.splitlines()), out
    world.table.overwrites[world.fake.state.bot_user.id] = {
        "id": str(world.fake.state.bot_user.id),
        "type": 1,
        "allow": "0",
        "deny": str(perm.SEND_MESSAGES),
    }
    status = await asyncio.to_thread(main, ["doctor", "--db", str(world.db)])
    out = capsys.readouterr().out
    assert status == 1
    assert "PROBLEM game #1 'Vienna': table channel #table lacks Send Messages" in out
    monkeypatch.delenv("DISCORD_TOKEN")
    assert await asyncio.to_thread(main, ["doctor", "--db", str(world.db)]) == 1
    assert "DISCORD_TOKEN is not set" in capsys.readouterr().out


async def test_a_table_in_a_thread(world: World) -> None:
    """A tournament table is a thread: posting there is Send Messages in Threads, and the
    thread has its parent channel's overwrites."""
    thread = world.fake.state.add_thread(world.table, "table 1")
    with sqlite3.connect(world.db) as conn:
        conn.execute(
            "UPDATE games SET meta_json = ? WHERE id = ?",
            (f'{{"channel": {thread.id}}}', world.game),
        )
    assert not failed(await diagnose(world.options()))
    role = world.guild.role("Parley")
    role["permissions"] = str(int(role["permissions"]) & ~perm.SEND_MESSAGES_IN_THREADS)
    world.table.overwrites[int(role["id"])] = {
        "id": role["id"],
        "type": 0,
        "allow": "0",
        "deny": str(perm.EMBED_LINKS),
    }
    found = await diagnose(world.options())
    assert problems(found) == [
        "game #1 'Vienna': table channel #table 1 lacks Embed Links, Send Messages in Threads"
    ]
