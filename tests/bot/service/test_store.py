"""The database file: migrations, and clear start-up errors that change nothing."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
import subprocess
import sys

import pytest

from bot.core.map import load_map
from bot.paths import data_dir
from bot.service import ConfigError, CorruptGameError, StoreError, TableService
from bot.service.storage import connection as store_mod
from bot.service.storage.connection import Store, migrations
from tests.bot.service.conftest import SimpleEngine, seven_player_game, sqlite_only
from tests.bot.service.faults import crash


async def test_new_file_is_migrated_once_with_wal_and_foreign_keys(db_path):
    store = await Store.open(db_path)
    numbers = [n for n, _, _ in migrations()]
    assert await store.schema_version() == numbers[-1]
    mode = await store.fetchone("PRAGMA journal_mode")
    fk = await store.fetchone("PRAGMA foreign_keys")
    sync = await store.fetchone("PRAGMA synchronous")
    assert (mode[0], fk[0], sync[0]) == ("wal", 1, 1)  # at rest 1 = NORMAL
    async with store.tx() as tx:  # a durable commit: 2 = FULL (the WAL synced at COMMIT)
        assert (await tx.fetchone("PRAGMA synchronous"))[0] == 2
    async with store.tx(durable=False) as tx:
        assert (await tx.fetchone("PRAGMA synchronous"))[0] == 1
    assert (await store.fetchone("PRAGMA synchronous"))[0] == 1
    await store.close()
    again = await Store.open(db_path)
    rows = await again.fetchall("SELECT version FROM schema_version")
    assert [r[0] for r in rows] == numbers
    await again.close()


async def test_a_transaction_cancelled_while_it_begins_leaves_the_connection_usable(db_path):
    # A task cancelled with BEGIN in flight: the connection's thread may still run the BEGIN,
    # which must not stay open for the next transaction (it could change nothing then).
    store = await Store.open(db_path)
    try:
        for durable in (False, True):

            async def begin_and_wait(durable: bool = durable) -> None:
                async with store.tx(durable=durable):
                    await asyncio.sleep(10)

            task = asyncio.create_task(begin_and_wait())
            await asyncio.sleep(0)  # the task now waits on its first statement
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            async with store.tx() as tx:
                assert (await tx.fetchone("PRAGMA synchronous"))[0] == 2
            assert (await store.fetchone("PRAGMA synchronous"))[0] == 1
    finally:
        await store.close()


async def test_garbage_file_is_refused_and_left_untouched(db_path):
    garbage = b"this is not a database\x00\xff" * 200
    db_path.write_bytes(garbage)
    with pytest.raises(StoreError, match="not a SQLite database"):
        await TableService.open(db_path, engine=SimpleEngine(), run=False)
    assert db_path.read_bytes() == garbage


async def test_foreign_sqlite_database_is_refused_and_left_untouched(db_path):
    con = sqlite3.connect(db_path)
    con.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)")
    con.execute("INSERT INTO invoices VALUES (1, 9.5)")
    con.commit()
    con.close()
    before = db_path.read_bytes()
    with pytest.raises(StoreError, match="not Parley's"):
        await TableService.open(db_path, engine=SimpleEngine(), run=False)
    assert db_path.read_bytes() == before
    assert not db_path.with_name(db_path.name + "-wal").exists()


async def test_database_from_a_newer_parley_is_refused(db_path):
    store = await Store.open(db_path)
    async with store.tx() as tx:
        await tx.execute("INSERT INTO schema_version VALUES (999, 'future.sql', 0)")
    await store.close()
    with pytest.raises(StoreError, match="newer than this Parley"):
        await Store.open(db_path)


async def test_parley_db_environment_variable_chooses_the_file(tmp_path, monkeypatch):
    target = tmp_path / "elsewhere.db"
    monkeypatch.setenv("PARLEY_DB", str(target))
    svc = await TableService.open(engine=SimpleEngine(), run=False)
    await svc.close()
    assert target.exists()


@pytest.mark.parametrize(("missing", "match"), [("clocks", "clock preset"), ("maps", "map")])
async def test_missing_data_files_are_a_clear_start_up_error(
    db_path, tmp_path, monkeypatch, missing, match
):
    data = tmp_path / "data"
    shutil.copytree(data_dir(), data)
    shutil.rmtree(data / missing)
    monkeypatch.setenv("PARLEY_DATA", str(data))
    load_map.cache_clear()
    try:
        with pytest.raises(ConfigError, match=match):
            await TableService.open(db_path, run=False)
    finally:
        load_map.cache_clear()
    assert not db_path.exists()


@sqlite_only
async def test_a_corrupt_row_breaks_only_its_game(opener, clock):
    svc = await opener()
    bad = await seven_player_game(svc)
    good = await seven_player_game(svc)
    async with svc.storage.store.tx() as tx:
        await tx.execute("UPDATE phases SET position_json = '{not json' WHERE game_id = ?", (bad,))
    crash(svc)
    svc2 = await opener()
    st = await svc2.status(bad)
    assert st.broken
    assert "unreadable" in st.broken
    with pytest.raises(CorruptGameError, match=f"#{bad}"):
        await svc2.submit(bad, "user-france", "A PAR - BUR")
    # The other game runs on.
    assert (await svc2.submit(good, "user-france", "A PAR - BUR")).accepted
    clock.set((await svc2.status(good)).deadline)
    await svc2.run_due()
    assert (await svc2.status(good)).phase == "F1901M"


async def test_a_new_migration_is_applied_at_start_up_and_a_broken_one_changes_nothing(
    tmp_path, monkeypatch
):
    mig = tmp_path / "migrations"
    mig.mkdir()
    shutil.copy(store_mod.MIGRATIONS_DIR / "0001_init.sql", mig / "0001_init.sql")
    monkeypatch.setattr(store_mod, "MIGRATIONS_DIR", mig)
    db = tmp_path / "m.db"
    s = await Store.open(db)
    async with s.tx() as tx:
        await tx.execute(
            "INSERT INTO games (name, gm, variant, rules, clock_name, clock_json, lang, status,"
            " created_at) VALUES ('g', 'gm', 'standard', 'datc', 'casual', '{}', 'en',"
            " 'forming', 0)"
        )
    await s.close()
    (mig / "0002_notes.sql").write_text("CREATE TABLE notes (id INTEGER PRIMARY KEY);\n")
    s = await Store.open(db)
    assert await s.schema_version() == 2
    assert (await s.fetchone("SELECT COUNT(*) FROM games"))[0] == 1
    await s.close()
    (mig / "0003_broken.sql").write_text("CREATE TABLE half (id INTEGER);\nTHIS IS NOT SQL;\n")
    with pytest.raises(StoreError, match=r"0003_broken\.sql"):
        await Store.open(db)
    con = sqlite3.connect(db)
    tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    version = con.execute("SELECT MAX(version) FROM schema_version").fetchone()[0]
    con.close()
    assert "half" not in tables
    assert version == 2


def test_a_process_that_dies_without_closing_the_service_exits(tmp_path):
    script = (
        "import asyncio\n"
        "from bot.service import TableService\n"
        "async def main():\n"
        f"    await TableService.open({str(tmp_path / 'x.db')!r}, run=True)\n"
        "    raise SystemExit(3)\n"
        "asyncio.run(main())\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, timeout=60, check=False
    )
    assert done.returncode == 3


async def test_migrations_apply_by_number_so_parallel_branches_land_in_any_order(
    tmp_path, monkeypatch
):
    # 0005, 0006 and 0007 were numbered in advance on three branches: a database that got
    # 0003 first gets 0002 when it lands, and a number used twice is refused.
    mig = tmp_path / "migrations"
    mig.mkdir()
    shutil.copy(store_mod.MIGRATIONS_DIR / "0001_init.sql", mig / "0001_init.sql")
    monkeypatch.setattr(store_mod, "MIGRATIONS_DIR", mig)
    (mig / "0003_later.sql").write_text("CREATE TABLE later (id INTEGER PRIMARY KEY);\n")
    db = tmp_path / "m.db"
    s = await Store.open(db)
    await s.close()
    (mig / "0002_landed.sql").write_text("CREATE TABLE landed (id INTEGER PRIMARY KEY);\n")
    s = await Store.open(db)
    rows = await s.fetchall("SELECT version FROM schema_version ORDER BY version")
    tables = await s.fetchall("SELECT name FROM sqlite_master WHERE name = 'landed'")
    await s.close()
    assert [r[0] for r in rows] == [1, 2, 3]
    assert len(tables) == 1
    (mig / "0002_twice.sql").write_text("CREATE TABLE twice (id INTEGER PRIMARY KEY);\n")
    with pytest.raises(StoreError, match="each once"):
        await Store.open(db)
