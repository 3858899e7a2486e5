"""The global rate shared by processes on one database (issue 17): two processes' `SharedRate`
never admit more than a slot's share between them, and wait for later slots."""

from __future__ import annotations

import asyncio
import time

from bot.discord_app.pacing import DM, RESULTS
from bot.service.delivery.ratelimit import SharedRate
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


async def test_a_process_waiting_with_results_goes_before_another_with_dms() -> None:
    async with fresh_schema() as schema:
        storages = [await PgStorage.open(dsn(), server_settings=settings(schema)) for _ in "ab"]
        tables, dms = (
            SharedRate(s, owner=o, rate=40, width=0.1) for s, o in zip(storages, "ab", strict=True)
        )
        order: list[str] = []

        async def one(rate: SharedRate, level: int, name: str) -> None:
            await rate.turn(level)
            order.append(name)

        await one(tables, RESULTS, "results")  # its demand is posted: the DMs wait behind it
        await asyncio.gather(
            *(one(tables, RESULTS, "results") for _ in range(11)),
            *(one(dms, DM, "dm") for _ in range(4)),
        )
        for s in storages:
            await s.close()
    # Without the shared priority the DMs take the turns of the first slots, side by side.
    assert order == ["results"] * 12 + ["dm"] * 4
    assert dms.outranked > 0
