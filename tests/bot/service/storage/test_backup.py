"""`parley db backup` / `restore` (SQLite): a copy taken while a game is played, checked, then
restored and played on; the refusals."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.cli import main
from bot.service import FakeClock, MemoryNotifier, StoreError, TableService
from bot.service.storage.backup import backup, check_copy, restore, rotate, stamped
from tests.bot.service.conftest import SEVEN, SimpleEngine, run_until, seven_player_game


async def open_svc(db: Path, clock: FakeClock) -> TableService:
    return await TableService.open(
        db, clock=clock, engine=SimpleEngine(), notifier=MemoryNotifier(), run=False, grace=0.0
    )


async def test_backup_while_playing_then_restore_and_play_on(tmp_path: Path) -> None:
    clock = FakeClock()
    db, copy = tmp_path / "parley.db", tmp_path / "copy.db"
    svc = await open_svc(db, clock)
    game = await seven_player_game(svc)
    playing = True

    async def play() -> int:  # orders keep coming while the copy is made
        n = 0
        while playing or n < 5:
            await svc.submit(game, SEVEN[n % 7], "")
            n += 1
        return n

    task = asyncio.create_task(play())
    await asyncio.sleep(0.05)
    report = await asyncio.to_thread(backup, db, copy)
    playing = False
    sent = await task
    assert report.rows["games"] == 1
    assert 0 < report.rows["submissions"] <= sent
    assert check_copy(copy) == report.rows  # checked again, from the file
    assert not (tmp_path / "copy.db.part").exists()
    # The restore is refused while a Parley runs on the database...
    with pytest.raises(StoreError, match="another Parley"):
        restore(copy, db)
    await svc.close()
    # ... and then done, the old file kept; the restored games run on.
    rows = restore(copy, db)
    assert rows == report.rows
    assert (tmp_path / "parley.db.before-restore").exists()
    svc = await open_svc(db, clock)
    try:
        assert (await svc.status(game)).phase == "S1901M"

        async def adjudicated() -> bool:
            return (await svc.status(game)).phase != "S1901M"

        await run_until(svc, clock, game, adjudicated)
        assert await svc.results(game) is not None
        await run_until(svc, clock, game, lambda: _open(svc, game))
        reply = await svc.submit(game, SEVEN[0], "")
        assert reply.accepted
    finally:
        await svc.close()


async def _open(svc: TableService, game: int) -> bool:
    return (await svc.status(game)).phase_status == "open"


def test_a_damaged_copy_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "bad.db"
    bad.write_bytes(b"SQLite format 3\x00" + b"\x00" * 200)
    with pytest.raises(StoreError):
        check_copy(bad)
    foreign = tmp_path / "foreign.db"
    with sqlite3.connect(foreign) as conn:
        conn.execute("CREATE TABLE t (x)")
    with pytest.raises(StoreError, match="not a Parley database"):
        check_copy(foreign)
    with pytest.raises(StoreError, match="no such database"):
        backup(tmp_path / "none.db", tmp_path / "out.db")


def test_rotation_keeps_the_newest(tmp_path: Path) -> None:
    target = tmp_path / "parley.db"
    made = [stamped(target, 1_800_000_000 + 6 * 3600 * i) for i in range(5)]
    for p in made:
        p.write_bytes(b"x")
    (tmp_path / "parley.db.lock").write_bytes(b"")  # (not a backup: left alone)
    assert rotate(target, 2) == made[:3]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [made[3].name, made[4].name, "parley.db.lock"]
    )
    assert made[0].name == "parley-20270115T080000Z.db"


async def test_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "parley.db"
    svc = await open_svc(db, FakeClock())
    await seven_player_game(svc)
    try:  # (the bot runs: the backup does not need its lock)
        status = await asyncio.to_thread(
            main, ["db", "backup", str(tmp_path / "b.db"), "--db", str(db)]
        )
    finally:
        await svc.close()
    out = capsys.readouterr().out
    assert status == 0
    assert "rows in" in out
    assert out.rstrip().endswith("checked")
    assert main(["db", "restore", str(tmp_path / "b.db"), "--db", str(db)]) == 0
    assert main(["db", "backup", "x.db", "--db", "postgresql://u@h/db"]) == 2
    assert "pg_dump" in capsys.readouterr().err
    assert main(["db", "backup", "x.db", "--db", str(db), "--every", "soon"]) == 2
