"""What is PostgreSQL's own: its migrations mirror SQLite's, the dialect layer, the schema
checks and lock at opening, and the choice of backend from the target's name."""

from __future__ import annotations

import asyncio

import pytest

from bot.service import StoreError, StoreUnavailableError, TableService
from bot.service.storage import SqliteStorage, postgres
from bot.service.storage import connection as sqlite_conn
from bot.service.storage.opening import open_storage
from bot.service.storage.postgres import PgStorage, redacted, translate
from tests.bot.service.conftest import SimpleEngine, seven_player_game
from tests.bot.service.pg import connect, dsn, fresh_schema, settings


def test_both_dialects_have_the_same_numbered_migrations() -> None:
    sqlite = [(n, name) for n, name, _ in sqlite_conn.migrations()]
    pg = [(n, name) for n, name, _ in postgres.migrations()]
    assert pg == sqlite
    numbers = [n for n, _ in pg]
    assert numbers[0] == 1
    assert numbers == sorted(set(numbers))  # each once (a gap waits for a parallel branch)


def test_the_dialect_layer() -> None:
    assert translate("UPDATE phases SET window=? WHERE id=?") == (
        'UPDATE phases SET "window"=$1 WHERE id=$2'
    )
    assert translate("INSERT OR IGNORE INTO outbox (key) VALUES (?)") == (
        "INSERT INTO outbox (key) VALUES ($1) ON CONFLICT DO NOTHING RETURNING id"
    )
    assert translate("INSERT INTO players (game_id) VALUES (?)") == (
        "INSERT INTO players (game_id) VALUES ($1)"
    )
    assert redacted("postgresql://bob:secret@db:5432/x") == "postgresql://bob:***@db:5432/x"


async def test_a_schema_that_is_not_parleys_is_refused_and_left_alone() -> None:
    async with fresh_schema() as schema:
        admin = await connect()
        try:
            await admin.execute(f"CREATE TABLE {schema}.accounts (id int)")
            with pytest.raises(StoreError, match="not Parley's"):
                await PgStorage.open(dsn(), server_settings=settings(schema))
            tables = await admin.fetch(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = $1",
                schema,
            )
        finally:
            await admin.close()
    assert [r["table_name"] for r in tables] == ["accounts"]


async def test_several_parleys_share_a_schema_and_migrate_it_once() -> None:
    # Issue 17: processes coordinate per game (claims, game locks), not per schema.
    async with fresh_schema() as schema:
        opened = await asyncio.gather(
            *(PgStorage.open(dsn(), server_settings=settings(schema)) for _ in range(3))
        )
        admin = await connect()
        try:
            versions = await admin.fetch(f"SELECT version FROM {schema}.schema_version")
        finally:
            await admin.close()
        for storage in opened:
            assert storage.shared
            await storage.close()
    assert sorted(r["version"] for r in versions) == [n for n, _, _ in postgres.migrations()]


async def test_an_unreachable_server_is_a_clear_error() -> None:
    with pytest.raises(
        StoreError, match="cannot connect to PostgreSQL at postgresql://x:\\*\\*\\*@"
    ):
        await PgStorage.open("postgresql://x:pw@127.0.0.1:1/none")


async def test_the_target_names_the_backend(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with fresh_schema() as schema:
        # asyncpg passes unknown DSN parameters as settings: this is how to choose a schema.
        target = f"{dsn()}?search_path={schema}&application_name={schema}"
        monkeypatch.setenv("PARLEY_DB", target)
        svc = await TableService.open(engine=SimpleEngine(), run=False)
        try:
            assert isinstance(svc.storage, PgStorage)
            game = await svc.create_game("gm", name="on postgres")
        finally:
            await svc.close()
        again = await open_storage(target)
        assert [g.name for g in [await again.game(game.id)] if g] == ["on postgres"]
        await again.close()
    lite = await open_storage(f"sqlite:{tmp_path / 'x.db'}")
    assert isinstance(lite, SqliteStorage)
    assert lite.path == tmp_path / "x.db"
    await lite.close()


async def test_a_lost_connection_saves_nothing_then_the_next_request_reconnects() -> None:
    async with fresh_schema() as schema:
        pg = await PgStorage.open(dsn(), server_settings=settings(schema))
        svc = await TableService.open(storage=pg, engine=SimpleEngine(), run=False)
        try:
            gid = await seven_player_game(svc)
            admin = await connect()  # as a server restart would
            await admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE application_name = $1",
                schema,
            )
            await admin.close()
            with pytest.raises(StoreUnavailableError):
                await svc.submit(gid, "user-france", "A PAR H")
            await svc.submit(gid, "user-france", "A PAR - BUR")
            texts = [s.text for s in await svc.history(gid, "user-france")]
        finally:
            await svc.close()
    assert texts == ["A PAR - BUR"]
