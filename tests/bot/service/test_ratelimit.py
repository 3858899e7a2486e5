"""The global rate shared by processes on one database (issue 17): two processes' `SharedRate`
never admit more than a slot's share between them, and wait for later slots."""

from __future__ import annotations

import asyncio
import time

from bot.service.ratelimit import SharedRate
from bot.service.storage.postgres import PgStorage
from tests.bot.service.pg import connect, dsn, fresh_schema, settings


async def test_two_processes_share_one_rate() -> None:
    async with fresh_schema() as schema:
        storages = [await PgStorage.open(dsn(), server_settings=settings(schema)) for _ in "ab"]
        rates = [SharedRate(s, rate=40, width=0.1) for s in storages]  # two "processes"
        t0 = time.time()
        await asyncio.gather(*(rates[i % 2].turn() for i in range(20)))
        elapsed = time.time() - t0
        admin = await connect()
        try:
            rows = await admin.fetch(f"SELECT slot, used FROM {schema}.rate_slots ORDER BY slot")
        finally:
            await admin.close()
        for s in storages:
            await s.close()
    assert sum(r["used"] for r in rows) == 20
    assert max(r["used"] for r in rows) == 4  # 40/s in slots of 0.1 s, both processes
    assert len(rows) >= 5
    assert elapsed >= 0.29  # the fifth slot waited for (it starts >= 0.3 s after the first)
