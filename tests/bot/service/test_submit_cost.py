"""Issue 18: a submission's cost does not grow with the submissions stored before it in the
phase. Measured by what the database reads, not by time: SQLite's virtual-machine steps
(its progress handler) and PostgreSQL's rows read from the submissions table
(pg_stat_user_tables) during one submit, after a short and after a long history."""

from __future__ import annotations

from typing import Any

from bot.service import TableService
from bot.service.storage import SqliteStorage
from bot.service.storage.postgres import PgStorage
from tests.bot.service.conftest import SEVEN, seven_player_game

ORDERS = "A PAR H"
HOLD = '[{"hold": 1}]'  # a stored order set (what it says is not read here)


async def _store_history(svc: TableService, game_id: int, n: int) -> None:
    """`n` prior submissions for every power: accepted ones and, newest, as many refused
    ones (a run of refused sets must not make the accepted set behind them costly to find:
    migration 0008's index holds the accepted ones only)."""
    st = await svc.status(game_id)
    async with svc.storage.tx() as tx:
        for power, user in st.players.items():
            for i in range(n):
                accepted = i < n // 2
                orders = HOLD if accepted else "[]"
                await tx.add_submission(
                    st.phase_id, power.value, user, "submit", "A X H", accepted, orders, "{}", 0.0
                )


async def _sqlite_steps(svc: TableService, game_id: int) -> int:
    assert isinstance(svc.storage, SqliteStorage)
    conn: Any = svc.storage.store._conn  # the engine's own step counter
    steps = [0]

    def count() -> int:
        steps[0] += 1
        return 0  # 0: go on

    await conn.set_progress_handler(count, 1)
    try:
        reply = await svc.submit(game_id, SEVEN[2], ORDERS)
    finally:
        await conn.set_progress_handler(None, 1)
    assert reply.accepted
    return steps[0]


async def _pg_rows_read(svc: TableService, game_id: int) -> int:
    assert isinstance(svc.storage, PgStorage)
    conn = svc.storage.store.conn

    async def rows_read() -> int:
        # This backend's pending counters are flushed at its next transaction's end.
        await conn.execute("SELECT pg_stat_force_next_flush()")
        await conn.execute("SELECT pg_stat_clear_snapshot()")
        value = await conn.fetchval(
            "SELECT COALESCE(seq_tup_read, 0) + COALESCE(idx_tup_fetch, 0)"
            " FROM pg_stat_user_tables WHERE relid = 'submissions'::regclass"
        )
        return int(value)

    before = await rows_read()
    reply = await svc.submit(game_id, SEVEN[2], ORDERS)
    assert reply.accepted
    return await rows_read() - before


async def _cost(opener: Any, n: int) -> int:
    svc = await opener()
    gid = await seven_player_game(svc)
    await _store_history(svc, gid, n)
    await svc.submit(gid, SEVEN[2], ORDERS)  # warm: statements prepared, pages cached
    if isinstance(svc.storage, SqliteStorage):
        cost = await _sqlite_steps(svc, gid)
    else:
        cost = await _pg_rows_read(svc, gid)
    await svc.close()
    return cost


async def test_a_submit_reads_as_much_after_a_long_history_as_after_a_short_one(opener):
    short = await _cost(opener, 4)
    long = await _cost(opener, 600)  # 4,200 rows in the phase
    # Index seeks: one more B-tree level may cost a few steps, never a step per stored row.
    assert long <= short + 50, (short, long)
