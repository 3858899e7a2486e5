"""What is PostgreSQL's own: its migrations mirror SQLite's, the dialect layer, the schema
checks and lock at opening, and the choice of backend from the target's name."""

from __future__ import annotations

import asyncio
from typing import Any

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


async def _kill(admin: Any, schema: str) -> None:
    """Terminate the service's backends, as a server restart would; the timeout waits until
    they have exited (a signalled backend may still answer for a moment)."""
    await admin.execute(
        "SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity WHERE application_name = $1",
        schema,
    )


async def test_a_connection_lost_mid_request_saves_nothing_then_the_next_request_reconnects() -> (
    None
):
    async with fresh_schema() as schema:
        pg = await PgStorage.open(dsn(), server_settings=settings(schema))
        svc = await TableService.open(storage=pg, engine=SimpleEngine(), run=False)
        admin, blocker = await connect(), await connect()
        try:
            gid = await seven_player_game(svc)
            # The phase row held elsewhere: the submission waits inside the server, so it is
            # in flight when its connection dies (not a race with the kill).
            hold = blocker.transaction()
            await hold.start()
            await blocker.execute(f"SELECT 1 FROM {schema}.phases FOR UPDATE")
            pending = asyncio.create_task(svc.submit(gid, "user-france", "A PAR H"))
            for _ in range(500):
                waiting = await admin.fetchval(
                    "SELECT COUNT(*) FROM pg_stat_activity"
                    " WHERE application_name = $1 AND wait_event_type = 'Lock'",
                    schema,
                )
                if waiting:
                    break
                await asyncio.sleep(0.01)
            assert waiting, "the submission never waited on the held row"
            await _kill(admin, schema)
            with pytest.raises(StoreUnavailableError):
                await pending
            await hold.rollback()
            await svc.submit(gid, "user-france", "A PAR - BUR")
            texts = [s.text for s in await svc.history(gid, "user-france")]
        finally:
            await admin.close()
            await blocker.close()
            await svc.close()
    assert texts == ["A PAR - BUR"]


async def test_a_connection_lost_while_idle_is_replaced_and_the_request_saved() -> None:
    async with fresh_schema() as schema:
        pg = await PgStorage.open(dsn(), server_settings=settings(schema))
        svc = await TableService.open(storage=pg, engine=SimpleEngine(), run=False)
        admin = await connect()
        try:
            gid = await seven_player_game(svc)
            await _kill(admin, schema)
            for _ in range(500):  # until the client has read the server's goodbye
                if pg.store.conn.is_closed():
                    break
                await asyncio.sleep(0.01)
            await svc.submit(gid, "user-france", "A PAR - BUR")
            texts = [s.text for s in await svc.history(gid, "user-france")]
        finally:
            await admin.close()
            await svc.close()
    assert texts == ["A PAR - BUR"]
