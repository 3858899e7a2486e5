"""`parley db copy`: a SQLite database with played games, copied into PostgreSQL, reads the
same; a copy that does not verify, or into a database that is not empty, writes nothing."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from bot.service import FakeClock, TableService
from bot.service.storage import SqliteStorage
from bot.service.storage.copy import TABLES, TRANSIENT, CopyError, copy_sqlite_to_postgres
from bot.service.storage.postgres import PgStorage
from bot.service.storage.tournaments import MarkRow, NewTournament
from tests.bot.service.conftest import SimpleEngine, run_until, seven_player_game
from tests.bot.service.pg import connect, dsn, fresh_schema, settings


async def _played(db: Path) -> tuple[int, int]:
    """Two games in a SQLite file: one over after a year of play, one forming."""
    clock = FakeClock()
    storage = await SqliteStorage.open(db)
    svc = await TableService.open(storage=storage, clock=clock, engine=SimpleEngine(), run=False)
    gid = await seven_player_game(svc, clock_overrides={"years": 1})
    await svc.submit(gid, "user-france", "A PAR - BUR\nA MAR H")
    await svc.deliveries.begin(1, gid, "table", "100")
    await svc.deliveries.posted(1, "table", 0, "111", last=True)
    async with storage.tx() as tx:  # a set kept for a later phase (house II(5)) is copied too
        await tx.add_early_orders(gid, "F1905R", "FRANCE", "user-france", "A PAR D", 1.0)
        # A tournament and a penalty: a community's tournaments move with its games.
        tid = await tx.add_tournament(
            NewTournament(
                "EDC",
                "director",
                "1",
                "2",
                "edc2023",
                "edc2023",
                "edc2023",
                "edc2023",
                "en",
                "[]",
                "[]",
                1.0,
            )
        )
        await tx.add_mark(tid, MarkRow("user-france", "penalty", 1, -5.0, "contesting", 2.0))

    async def over() -> bool:
        return (await svc.status(gid)).status == "over"

    await run_until(svc, clock, gid, over)
    forming = await svc.create_game("gm2", name="next", lang="fr")
    await svc.close()
    return gid, forming.id


async def _view(svc: TableService, gid: int) -> dict[str, Any]:
    return {
        "status": await svc.status(gid),
        "phases": await svc.phases(gid),
        "history": await svc.history(gid, "gm"),
        "results": await svc.results(gid),
        "audit": await svc.audit_log(gid, "gm"),
        "deliveries": await svc.deliveries.of_event(1),
    }


async def test_a_copy_reads_the_same_and_goes_on(tmp_path: Path) -> None:
    db = tmp_path / "parley.db"
    gid, forming = await _played(db)
    lite = await TableService.open(storage=await SqliteStorage.open(db), run=False)
    before = await _view(lite, gid)
    await lite.close()
    async with fresh_schema() as schema:
        copied = await copy_sqlite_to_postgres(db, dsn(), server_settings=settings(schema))
        counts = {t.table: t.rows for t in copied}
        assert [t.table for t in copied] == [t for t, _ in TABLES]
        assert counts["games"] == 2
        assert counts["results"] >= 2
        assert counts["deliveries"] == 1
        assert counts["early_orders"] == 1
        assert counts["tournaments"] == 1
        assert counts["tournament_marks"] == 1
        pg = await PgStorage.open(dsn(), server_settings=settings(schema))
        svc = await TableService.open(storage=pg, run=False)
        try:
            assert await _view(svc, gid) == before
            assert before["results"] is not None
            assert before["results"].png is not None
            assert (await svc.status(forming)).name == "next"
            new = await svc.create_game("gm3")  # the id sequences continue after the copy
            assert new.id == forming + 1
        finally:
            await svc.close()


async def test_a_copy_that_does_not_verify_writes_nothing(tmp_path: Path) -> None:
    db = tmp_path / "parley.db"
    await _played(db)

    def lose_a_row(table: str, rows: list[Any]) -> list[Any]:
        return rows[1:] if table == "submissions" else rows

    async with fresh_schema() as schema:
        with pytest.raises(CopyError, match="submissions: the copy does not match"):
            await copy_sqlite_to_postgres(
                db, dsn(), server_settings=settings(schema), check=lose_a_row
            )
        admin = await connect()
        try:
            games = await admin.fetchval(f"SELECT count(*) FROM {schema}.games")
        finally:
            await admin.close()
    assert games == 0


async def test_only_into_an_empty_database(tmp_path: Path) -> None:
    db = tmp_path / "parley.db"
    await _played(db)
    async with fresh_schema() as schema:
        await copy_sqlite_to_postgres(db, dsn(), server_settings=settings(schema))
        with pytest.raises(CopyError, match="already has games"):
            await copy_sqlite_to_postgres(db, dsn(), server_settings=settings(schema))
    with pytest.raises(CopyError, match="does not exist"):
        await copy_sqlite_to_postgres(tmp_path / "none.db", dsn())
    assert not (tmp_path / "none.db").exists()


async def test_the_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "parley.db"
    await _played(db)
    async with fresh_schema() as schema:
        target = f"{dsn()}?search_path={schema}&application_name={schema}"
        # The command runs its own event loop: in a thread, outside the test's.
        code = await asyncio.to_thread(
            main, ["db", "copy", "--from", f"sqlite:{db}", "--to", target]
        )
        out = capsys.readouterr()
        assert code == 0, out.err
        assert "copied and verified" in out.out
        assert "games                       2 rows" in out.out
    assert main(["db", "copy", "--from", "postgresql://x/y", "--to", str(db)]) == 2


async def test_a_source_row_postgresql_refuses_is_named_and_nothing_is_copied(
    tmp_path: Path,
) -> None:
    db = tmp_path / "parley.db"
    await _played(db)
    con = sqlite3.connect(db)
    with con:
        con.execute("UPDATE phases SET deadline = 'soon' WHERE id = 2")
    con.close()
    async with fresh_schema() as schema:
        with pytest.raises(CopyError, match="phases: a row cannot be copied"):
            await copy_sqlite_to_postgres(db, dsn(), server_settings=settings(schema))
        admin = await connect()
        try:
            games = await admin.fetchval(f"SELECT count(*) FROM {schema}.games")
        finally:
            await admin.close()
    assert games == 0


async def test_every_table_of_the_schema_is_copied_or_transient(tmp_path: Path) -> None:
    """A table added by a migration and forgotten by the copy would be lost silently."""
    storage = await SqliteStorage.open(tmp_path / "parley.db")
    rows = await storage.store.fetchall(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
    )
    await storage.close()
    names = {r[0] for r in rows}
    assert names - TRANSIENT == {t for t, _ in TABLES}
