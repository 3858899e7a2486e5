"""`parley run`: a clear refusal without a token; with one, the bot connects and syncs."""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path

import discord
import pytest

from bot.cli import main
from bot.cli import run as run_cmd
from tests.fake_discord import FakeDiscord


def test_missing_token_fails_at_once_with_exit_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert main(["run"]) == 2
    err = capsys.readouterr().err
    assert "DISCORD_TOKEN is not set" in err
    assert "parley demo" in err


def args(db: Path) -> argparse.Namespace:
    return argparse.Namespace(
        db=str(db), message_content=False, no_sync=False, verbose=False, init_db=False, grace=None
    )


async def test_a_wrong_token_is_a_clear_error(tmp_path: Path, capsys) -> None:
    async with FakeDiscord():
        assert await run_cmd._serve(args(tmp_path / "p.db"), "not-the-token") == 2
    assert "refused the token" in capsys.readouterr().err


async def test_a_corrupt_database_is_a_clear_error(tmp_path: Path, capsys) -> None:
    db = tmp_path / "p.db"
    db.write_bytes(b"this is not sqlite" * 100)
    async with FakeDiscord() as fake:
        assert await run_cmd._serve(args(db), fake.token) == 2
    assert "parley run:" in capsys.readouterr().err
    assert db.read_bytes() == b"this is not sqlite" * 100


async def test_an_empty_database_file_is_refused_unless_init_db(tmp_path: Path, capsys) -> None:
    db = tmp_path / "p.db"
    db.touch()
    async with FakeDiscord() as fake:
        assert await run_cmd._serve(args(db), fake.token) == 2
        err = capsys.readouterr().err
        assert f"parley run: {db} exists but is empty" in err
        assert "--init-db" in err
        assert db.stat().st_size == 0
        init = argparse.Namespace(**{**vars(args(db)), "init_db": True})
        task = asyncio.create_task(run_cmd._serve(init, fake.token))
        await fake.wait_for(lambda: fake.gateway.identifies)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
    assert db.stat().st_size > 0


def test_run_has_an_init_db_flag(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["run", "--help"])
    assert "--init-db" in capsys.readouterr().out


async def test_the_bot_connects_and_syncs_its_commands(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        fake.add_guild("Club", ["table"])
        task = asyncio.create_task(run_cmd._serve(args(tmp_path / "p.db"), fake.token))
        await fake.wait_for(lambda: fake.state.command_syncs and fake.gateway.identifies)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
    names = {c["name"] for c in fake.state.command_syncs[-1].commands}
    assert names == {
        "game",
        "orders",
        "ready",
        "gm",
        "spectate",
        "vote",
        "history",
        "replay",
        "export",
        "settings",
        "tournament",
        "press",
        "absence",
        "absences",
    }
    assert (tmp_path / "p.db").exists()


async def test_discord_unreachable_is_one_line_per_attempt_and_backs_off(capsys) -> None:
    attempts: list[int] = []
    waits: list[float] = []

    async def start() -> None:
        attempts.append(1)
        if len(attempts) <= 4:
            raise OSError("Cannot connect to host discord.com:443")

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    await run_cmd.with_retries(start, sleep=sleep, first=5, most=20)
    assert len(attempts) == 5
    assert waits == [5, 10, 20, 20]
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 4
    assert err[0] == (
        "parley run: cannot reach Discord (Cannot connect to host discord.com:443); retrying in 5 s"
    )


async def test_a_refused_token_is_not_retried() -> None:
    calls: list[int] = []

    async def start() -> None:
        calls.append(1)
        raise discord.LoginFailure("Improper token has been passed.")

    async def sleep(_seconds: float) -> None:
        raise AssertionError("no retry for a refused token")

    with pytest.raises(discord.LoginFailure):
        await run_cmd.with_retries(start, sleep=sleep)
    assert calls == [1]


# --- several processes (issue 17) ---------------------------------------------------------


def test_shard_ranges_are_read_and_checked() -> None:
    assert run_cmd.parse_shards(None, None) is None
    assert run_cmd.parse_shards("0-3", 8) == [0, 1, 2, 3]
    assert run_cmd.parse_shards("4-5,7", 8) == [4, 5, 7]
    for text, count, why in [
        ("0-3", None, "needs --shard-count"),
        ("0-8", 8, "numbered 0 to 7"),
        ("3-1", 8, "empty range"),
        ("a-b", 8, "a range like 0-3"),
    ]:
        with pytest.raises(run_cmd.ShardsError, match=why):
            run_cmd.parse_shards(text, count)
    with pytest.raises(run_cmd.ShardsError, match="needs --shards"):
        run_cmd.parse_shards(None, 8)


def test_shards_left_to_other_processes_are_refused_on_sqlite(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    monkeypatch.delenv("PARLEY_DB", raising=False)
    db = tmp_path / "p.db"
    assert main(["run", "--db", str(db), "--shards", "0-3", "--shard-count", "8"]) == 2
    err = capsys.readouterr().err
    assert "SQLite serves one process: use PostgreSQL" in err
    assert not db.exists()  # nothing opened
    # Every shard in this one process is fine on SQLite (it goes on to the token check).
    monkeypatch.delenv("DISCORD_TOKEN")
    assert main(["run", "--db", str(db), "--shards", "0-1", "--shard-count", "2"]) == 2
    assert "DISCORD_TOKEN is not set" in capsys.readouterr().err
    # On PostgreSQL the split is accepted.
    run_cmd.check_processes([0, 1], 4, "postgresql://localhost/parley")


async def test_a_sharded_process_connects_its_shards(tmp_path: Path) -> None:
    from bot.client import ShardedParleyBot, make_bot  # noqa: PLC0415
    from bot.service import TableService  # noqa: PLC0415

    svc = await TableService.open(tmp_path / "p.db", run=False)
    bot = make_bot(svc, shards=[0], shard_count=1, sync_commands=False)
    assert isinstance(bot, ShardedParleyBot)
    assert isinstance(bot, discord.AutoShardedClient)
    assert (bot.shard_ids, bot.shard_count) == ([0], 1)
    async with FakeDiscord() as fake:
        fake.add_guild("Club", ["table"])
        task = asyncio.create_task(bot.start(fake.token))
        await fake.wait_for(lambda: fake.gateway.identifies)
        await asyncio.wait_for(bot.wait_until_ready(), 10)
        assert [g.name for g in bot.guilds] == ["Club"]
        await bot.close()
        await asyncio.gather(task, return_exceptions=True)
    await svc.close()
