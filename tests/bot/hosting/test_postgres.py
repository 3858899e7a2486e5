"""The host's figures and the doctor's database checks on PostgreSQL (a league's database),
and the processes alive on a shared database."""

from __future__ import annotations

import asyncio

import asyncpg

from bot.hosting.doctor import database_findings
from bot.hosting.metrics import HostMetrics
from bot.service import FakeClock, TableService
from bot.service.storage.postgres import PgStorage
from bot.service.storage.probe import probe
from tests.bot.service.pg import dsn, fresh_schema, settings


def url(schema: str) -> str:
    # (asyncpg passes a URL's query parameters to the server as settings)
    return f"{dsn()}?search_path={schema}&application_name={schema}"


async def test_figures_and_probe_on_postgres() -> None:
    async with fresh_schema() as schema:
        clock = FakeClock()
        storage = await PgStorage.open(dsn(), server_settings=settings(schema))
        svc = await TableService.open(storage=storage, clock=clock, run=False, render=False)
        try:
            meta = {"channel": 42, "press": [], "spectators": []}
            st = await svc.create_game("gm", name="league 1", meta=meta)
            await svc.create_game("gm", name="league 2")
            figures = await svc.table.storage.host_figures()
            assert figures.games == {"forming": 2, "active": 0, "paused": 0, "over": 0}
            assert figures.pending == 0
            metrics = HostMetrics(svc)
            text = (await metrics.exposition()).decode()
            metrics.close()
            assert 'parley_games{state="forming"} 2.0' in text
            found = await probe(url(schema))
            assert found.error is None
            assert not found.missing
            assert not found.newer
            assert next((g.id, g.meta.get("channel")) for g in found.games) == (st.id, 42)
            lines = [f.line() for f in database_findings(found)]
            assert any("answers (2 games running)" in line for line in lines)
            assert any("migrations current" in line for line in lines)
            # A migration this Parley has that the database lacks: not current.
            conn = await asyncpg.connect(dsn(), server_settings=settings(schema))
            newest = await conn.fetchval("SELECT MAX(version) FROM schema_version")
            await conn.execute("DELETE FROM schema_version WHERE version = $1", newest)
            await conn.close()
            found = await probe(url(schema))
            assert found.missing == [newest]
        finally:
            await svc.close()
    refused = await probe("postgresql://nobody@127.0.0.1:1/none")
    assert refused.error is not None
    assert refused.error.startswith("cannot connect")


async def test_processes_alive_on_a_shared_database() -> None:
    async with fresh_schema() as schema:
        services = []
        for _ in range(2):
            storage = await PgStorage.open(dsn(), server_settings=settings(schema))
            services.append(await TableService.open(storage=storage, run=True, render=False))
        try:
            first = services[0]
            for _ in range(200):  # hellos on NOTIFY, at start and every lease / 3
                if first.scheduler.live_processes == 2:
                    break
                await asyncio.sleep(0.05)
            assert first.scheduler.live_processes == 2
            metrics = HostMetrics(first)
            text = (await metrics.exposition()).decode()
            metrics.close()
            assert "parley_processes_alive 2.0" in text
        finally:
            for svc in services:
                await svc.close()
