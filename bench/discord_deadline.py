"""N games sharing one deadline on the fake Discord: time from the deadline until each game's
results and map are posted in its table channel (adjudication + rendering + commit + the bot's
REST calls, as the real discord.py client makes them).

    python3 bench/discord_deadline.py                # N=1 and N=200
    python3 bench/discord_deadline.py -n 50 --executor process --workers 2

Targets (issue 6): one game <= 0.5 s, 200 games <= 10 s on this machine. Each game has seven
players with seeded random orders, a table channel and a negotiation channel (press is locked
for the reading window right after the results). The fake Discord runs in the same process
and event loop as the bot, so its own work is counted against the bot.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for tests.fake_discord

from bot.cli.demo_orders import random_orders
from bot.client import ParleyBot
from bot.core.language.parser import render_order
from bot.service import FakeClock, TableService
from tests.fake_discord import FakeDiscord, SentMessage

WRITING_OPENS = 8 * 60  # edc2023 spring: 8' negotiation, then 1' of writing


def _warm(_: int) -> int:
    from bot.core.map import load_map  # noqa: PLC0415
    from renderer import render  # noqa: PLC0415

    game_map = load_map("standard")
    render(game_map, None, game_map.start, [], None)
    return os.getpid()


async def setup_games(
    svc: TableService, fake: FakeDiscord, n: int, rng: random.Random
) -> dict[int, int]:
    """N started games with orders in; returns table channel id -> game id."""
    guild = next(iter(fake.state.guilds.values()))
    game_map = svc.engine.load_map("standard")
    tables: dict[int, int] = {}
    for g in range(n):
        table = fake.state.add_channel(guild, f"table-{g}")
        press = fake.state.add_channel(guild, f"press-{g}")
        meta = {"channel": table.id, "press": [press.id], "spectators": []}
        st = await svc.create_game(
            str(fake.state.owner.id), name=f"bench {g}", clock="edc2023", meta=meta
        )
        for power in game_map.powers:
            user = fake.add_user(f"{g}-{power.value}")
            await svc.join(st.id, str(user.id), power)
        await svc.start_game(st.id, str(fake.state.owner.id))
        tables[table.id] = st.id
    await svc.run_due()
    for gid in tables.values():
        st = await svc.status(gid)
        position = await svc.position(gid, st.phase_id)
        for power, user in st.players.items():
            orders = random_orders(position, power, game_map, rng)
            await svc.submit(gid, user, "\n".join(render_order(o) for o in orders))
    return tables


async def run(n: int, executor_kind: str, workers: int, seed: int) -> dict[str, float]:
    rng = random.Random(seed)
    executor: Executor | None = None
    if executor_kind == "process":
        executor = ProcessPoolExecutor(max_workers=workers)
        list(executor.map(_warm, range(workers * 2)))
    elif executor_kind == "thread":
        executor = ThreadPoolExecutor(max_workers=workers)
    _warm(0)
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeDiscord() as fake:
            fake.add_guild("Bench club", ["lobby"])
            clock = FakeClock(start=time.time())
            svc = await TableService.open(
                Path(tmp) / "bench.db", clock=clock, executor=executor, run=False, grace=0.0
            )
            tables = await setup_games(svc, fake, n, rng)
            bot = ParleyBot(svc, guild_ready_timeout=0.05)
            await bot.login(fake.token)
            task = asyncio.create_task(bot.connect())
            await asyncio.wait_for(bot.wait_until_ready(), 30)
            clock.advance(WRITING_OPENS)  # the writing window: every announcement goes out now
            await svc.run_due()
            deadline = (await svc.status(next(iter(tables.values())))).deadline
            assert deadline is not None

            posted: dict[int, float] = {}
            done = asyncio.Event()
            t0 = 0.0

            def seen(msg: SentMessage) -> None:
                game = tables.get(msg.channel_id or 0)
                if game is not None and msg.files and "Results" in msg.content:
                    posted.setdefault(game, time.perf_counter() - t0)
                    if len(posted) == n:
                        done.set()

            fake.state.listeners.append(seen)
            t0 = time.perf_counter()
            clock.set(deadline)  # the scheduler wakes, adjudicates, delivers, the bot posts
            await asyncio.wait_for(done.wait(), 300)
            total = time.perf_counter() - t0
            maps = sum(1 for m in fake.state.messages if m.files)
            await bot.close()
            await task
            await svc.close()
    if executor is not None:
        executor.shutdown()
    lat = sorted(posted.values())
    assert maps == n, f"{maps} maps posted for {n} games"
    return {
        "n": n,
        "first": lat[0],
        "median": statistics.median(lat),
        "p95": lat[int(0.95 * (len(lat) - 1))],
        "max": lat[-1],
        "total": total,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, action="append", help="games (repeatable; default 1, 200)")
    ap.add_argument("--executor", choices=("default", "thread", "process"), default="default")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    print(f"executor={args.executor} workers={args.workers} cpus={os.cpu_count()}")
    for n in args.n or [1, 200]:
        r = asyncio.run(run(n, args.executor, args.workers, args.seed))
        print(
            f"N={r['n']:4d}  deadline -> results+map posted on Discord: first {r['first']:.3f} s,"
            f" median {r['median']:.3f} s, p95 {r['p95']:.3f} s, max {r['max']:.3f} s"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
