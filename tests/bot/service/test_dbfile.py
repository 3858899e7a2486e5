"""Damaged or shared database files: an empty file, a second Parley, a damaged game row, a
read-only file, a full disk, a corrupt index. Each is a clear error that changes nothing."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.service import (
    CorruptGameError,
    MemoryNotifier,
    StoreError,
    StoreUnavailableError,
    TableService,
)
from bot.service.storage import connection as store_mod
from bot.service.storage import dbfile
from bot.service.storage.connection import Store
from tests.bot.service.conftest import SimpleEngine, seven_player_game, sqlite_only
from tests.bot.service.faults import crash

# --- 10. an empty file ------------------------------------------------------------------


async def test_an_existing_empty_file_is_refused_and_left_empty(db_path) -> None:
    db_path.touch()
    with pytest.raises(StoreError) as err:
        await TableService.open(db_path, engine=SimpleEngine(), run=False)
    assert str(db_path) in str(err.value)
    assert "empty" in str(err.value)
    assert "--init-db" in str(err.value)
    assert db_path.stat().st_size == 0
    assert not db_path.with_name(db_path.name + "-wal").exists()


async def test_init_db_makes_a_new_database_in_an_empty_file(db_path) -> None:
    db_path.touch()
    svc = await TableService.open(db_path, engine=SimpleEngine(), run=False, init_db=True)
    game = await svc.create_game("gm", name="fresh")
    await svc.close()
    svc = await TableService.open(db_path, engine=SimpleEngine(), run=False)
    assert (await svc.status(game.id)).name == "fresh"
    await svc.close()


# --- 11. a second Parley on the same file ----------------------------------------------

HOLDER = """
import asyncio, sys
from bot.service import TableService
async def main():
    svc = await TableService.open(sys.argv[1], run=False)
    print("ready", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    await svc.close()
asyncio.run(main())
"""


def _holder(db_path: Path) -> subprocess.Popen[str]:
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(db_path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).resolve().parents[3],
    )
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "ready"
    return proc


async def test_a_second_parley_is_refused_naming_the_first_ones_pid(db_path) -> None:
    proc = _holder(db_path)
    try:
        with pytest.raises(StoreError) as err:
            await TableService.open(db_path, engine=SimpleEngine(), run=False)
        assert f"another Parley (pid {proc.pid}) is using {db_path}" in str(err.value)
    finally:
        proc.communicate("\n", timeout=30)
    # Once the first one has stopped, the file is free.
    svc = await TableService.open(db_path, engine=SimpleEngine(), run=False)
    await svc.close()


async def test_a_crashed_holder_never_blocks_a_restart(db_path) -> None:
    proc = _holder(db_path)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    lock = dbfile.lock_path(db_path)
    assert lock.read_text().strip() == str(proc.pid)  # the stale pid file is still there
    svc = await TableService.open(db_path, engine=SimpleEngine(), run=False)
    assert lock.read_text().strip() == str(os.getpid())
    await svc.close()


async def test_a_second_open_in_the_same_process_is_refused_too(db_path) -> None:
    first = await Store.open(db_path)
    try:
        with pytest.raises(StoreError, match=rf"pid {os.getpid()}"):
            await Store.open(db_path)
    finally:
        await first.close()
    again = await Store.open(db_path)
    await again.close()


# --- 12. one damaged game row -----------------------------------------------------------


@sqlite_only
@pytest.mark.parametrize(
    "damage",
    [
        "UPDATE phases SET position_json = '{not json' WHERE game_id = ?",
        "UPDATE phases SET deadline = 'soon' WHERE game_id = ?",
        "UPDATE games SET options_json = '[1]' WHERE id = ?",
        "UPDATE games SET meta_json = '{' WHERE id = ?",
        "UPDATE games SET rules = 'gone' WHERE id = ?",
    ],
)
async def test_a_damaged_row_stops_its_game_tells_its_gm_and_the_others_run(
    opener, clock, damage: str, caplog: pytest.LogCaptureFixture
) -> None:
    svc = await opener()
    bad = await seven_player_game(svc)
    good = await seven_player_game(svc)
    await svc.close()
    con = sqlite3.connect(svc.storage.store.path)
    con.execute(damage, (bad,))
    con.commit()
    con.close()
    notifier = MemoryNotifier()
    with caplog.at_level(logging.ERROR):
        svc2 = await opener(notifier=notifier)
    assert any(f"game {bad} is stopped" in r.getMessage() for r in caplog.records)
    st = await svc2.status(bad)
    assert st.broken
    assert f"#{bad}" in st.broken
    assert [g.id for g in await svc2.list_games()] == [bad, good]
    with pytest.raises(CorruptGameError, match=f"#{bad}"):
        await svc2.submit(bad, "user-france", "A PAR - BUR")
    # The other game runs on.
    assert (await svc2.submit(good, "user-france", "A PAR - BUR")).accepted
    clock.set((await svc2.status(good)).deadline)
    await svc2.run_due()
    assert (await svc2.status(good)).phase == "F1901M"
    notices = [e for e in notifier.events if e.kind.value == "game_broken"]
    assert [(e.game_id, e.payload["why"]) for e in notices] == [(bad, st.broken)]
    # A restart does not tell the GM again about the same damage.
    crash(svc2)
    notifier3 = MemoryNotifier()
    svc3 = await opener(notifier=notifier3)
    await svc3.deliver()
    assert "game_broken" not in notifier3.kinds()
    assert (await svc3.status(bad)).broken


# --- 13. read-only file, full disk ------------------------------------------------------


async def test_a_read_only_file_is_refused_at_start(db_path, monkeypatch) -> None:
    svc = await TableService.open(db_path, engine=SimpleEngine(), run=False)
    await svc.create_game("gm")
    await svc.close()
    before = db_path.read_bytes()
    real_connect = store_mod.aiosqlite.connect

    def read_only(path, **kw):  # tests run as root, who ignores file modes: ask SQLite
        return real_connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True, **kw)

    monkeypatch.setattr(store_mod.aiosqlite, "connect", read_only)
    with pytest.raises(StoreError) as err:
        await TableService.open(db_path, engine=SimpleEngine(), run=False)
    assert f"{db_path} cannot be written" in str(err.value)
    assert "readonly" in str(err.value)
    assert db_path.read_bytes() == before


@sqlite_only
async def test_a_file_turned_read_only_refuses_orders_clearly(
    opener, caplog: pytest.LogCaptureFixture
) -> None:
    svc = await opener()
    gid = await seven_player_game(svc)
    assert (await svc.submit(gid, "user-france", "A PAR - BUR")).accepted
    await svc.storage.store.fetchone("PRAGMA query_only = ON")
    with caplog.at_level(logging.ERROR), pytest.raises(StoreUnavailableError) as err:
        await svc.submit(gid, "user-france", "A PAR H")
    assert "NOT saved" in err.value.message
    assert "n'a PAS été enregistré" in err.value.localized("fr")
    assert any("readonly" in r.getMessage() for r in caplog.records)
    await svc.storage.store.fetchone("PRAGMA query_only = OFF")
    assert (await svc.my_orders(gid, "user-france")).orders == ["A PAR - BUR"]


@sqlite_only
async def test_a_full_disk_refuses_orders_clearly_and_keeps_the_previous_ones(
    opener, caplog: pytest.LogCaptureFixture
) -> None:
    svc = await opener()
    gid = await seven_player_game(svc)
    pages = (await svc.storage.store.fetchone("PRAGMA page_count"))[0]
    await svc.storage.store.fetchone(f"PRAGMA max_page_count = {pages}")
    saved: list[str] = []
    with caplog.at_level(logging.ERROR), pytest.raises(StoreUnavailableError) as err:  # noqa: PT012
        for i in range(2000):  # each accepted set is kept: the file grows until full
            text = "A PAR H" if i % 2 else "A PAR - BUR"
            assert (await svc.submit(gid, "user-france", text)).accepted
            saved.append(text)
    assert "NOT saved" in err.value.message
    assert any("full" in r.getMessage() for r in caplog.records)
    await svc.storage.store.fetchone("PRAGMA max_page_count = 1000000")
    assert (await svc.my_orders(gid, "user-france")).orders == [saved[-1]]
    assert (await svc.submit(gid, "user-france", "A PAR H")).accepted  # room again: works


# --- 14. integrity checks ---------------------------------------------------------------


def _corrupt_an_index(db_path: Path) -> None:
    """Point an index's definition at another column: its entries no longer match the
    table. `quick_check` does not compare indexes with tables; `integrity_check` does."""
    con = sqlite3.connect(db_path)
    con.execute("PRAGMA writable_schema = ON")
    con.execute(
        "UPDATE sqlite_master SET sql = 'CREATE INDEX players_user ON players(power)'"
        " WHERE name = 'players_user'"
    )
    con.commit()
    con.close()
    con = sqlite3.connect(db_path)
    assert con.execute("PRAGMA quick_check").fetchall() == [("ok",)]
    con.close()


async def _file_with_a_corrupt_index(db_path) -> bytes:
    svc = await TableService.open(db_path, engine=SimpleEngine(), run=False)
    await seven_player_game(svc)
    await svc.close()
    _corrupt_an_index(db_path)
    return db_path.read_bytes()


async def _first_log(caplog: pytest.LogCaptureFixture) -> None:
    """The background check reports from its thread: wait (up to 20 s) for its line."""
    for _ in range(400):
        if caplog.records:
            return
        await asyncio.sleep(0.05)


async def test_a_corrupt_index_is_refused_with_the_checks_own_words(db_path) -> None:
    before = await _file_with_a_corrupt_index(db_path)
    with pytest.raises(StoreError) as err:
        await TableService.open(db_path, engine=SimpleEngine(), run=False)
    text = str(err.value)
    assert f"{db_path} failed SQLite's integrity check" in text
    assert "missing from index players_user" in text
    assert "sqlite3.Row" not in text
    assert "and 2 more" in text  # 7 rows: 5 shown
    assert db_path.read_bytes() == before


async def test_a_big_file_starts_and_the_full_check_reports_later_in_the_log(
    db_path, monkeypatch, caplog: pytest.LogCaptureFixture
) -> None:
    await _file_with_a_corrupt_index(db_path)
    monkeypatch.setattr(dbfile, "FULL_CHECK_MAX_BYTES", 0)
    with caplog.at_level(logging.ERROR, logger="parley.store"):
        svc = await TableService.open(db_path, engine=SimpleEngine(), run=False)
        await _first_log(caplog)
    await svc.close()
    messages = [r.getMessage() for r in caplog.records]
    assert any(
        "integrity check (background)" in m and "missing from index players_user" in m
        for m in messages
    ), messages


async def test_a_big_healthy_file_logs_its_background_check_ok(
    db_path, monkeypatch, caplog: pytest.LogCaptureFixture
) -> None:
    svc = await TableService.open(db_path, engine=SimpleEngine(), run=False)
    await svc.close()
    monkeypatch.setattr(dbfile, "FULL_CHECK_MAX_BYTES", 0)
    with caplog.at_level(logging.INFO, logger="parley.store"):
        svc = await TableService.open(db_path, engine=SimpleEngine(), run=False)
        await _first_log(caplog)
    await svc.close()
    assert [r.getMessage() for r in caplog.records] == [
        f"background integrity check of {db_path}: ok"
    ]
