"""`TableService.submit` cost per call after 1, 1,000 and 20,000 prior submissions in the phase
(issue 18: the cost must not depend on how many were stored before).

    python3 bench/submit.py                    # SQLite
    python3 bench/submit.py --pg postgresql://postgres@127.0.0.1:5432/test

One standard game of seven players, the real parser and storage (a SQLite file: WAL,
synchronous=FULL). The prior submissions are stored directly (a copy of a real accepted set,
every power in turn) so filling 20,000 takes seconds; then the same player submits `--calls`
times and the median and mean per call are printed, with the ratio to the 1-prior figure.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

# The code beside this bench, not an installed copy.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.cli.demo_orders import random_orders
from bot.core.language.parser import render_order
from bot.service import FakeClock, TableService

PRIORS = (1, 1_000, 20_000)


async def _open(tmp: Path, pg: str | None, schema: str) -> TableService:
    clock = FakeClock(start=time.time())
    if pg is None:
        return await TableService.open(tmp / "bench.db", clock=clock, run=False, render=False)
    from bot.service.storage.postgres import PgStorage  # noqa: PLC0415

    store = await PgStorage.open(pg, server_settings={"search_path": schema})
    return await TableService.open(storage=store, clock=clock, run=False, render=False)


async def run(prior: int, calls: int, pg: str | None, seed: int) -> list[float]:
    rng = random.Random(seed)
    schema = f"bench_{uuid.uuid4().hex[:12]}"
    admin = None
    if pg is not None:
        import asyncpg  # noqa: PLC0415

        admin = await asyncpg.connect(pg)
        await admin.execute(f"CREATE SCHEMA {schema}")
    try:
        with tempfile.TemporaryDirectory() as tmp:
            svc = await _open(Path(tmp), pg, schema)
            game_map = svc.engine.load_map("standard")
            st = await svc.create_game("gm", name="bench", clock="edc2023", rules="datc")
            for power in game_map.powers:
                await svc.join(st.id, f"u-{power.value}", power)
            await svc.start_game(st.id, "gm")
            await svc.run_due()
            st = await svc.status(st.id)
            position = await svc.position(st.id, st.phase_id)
            texts = {
                power: "\n".join(
                    render_order(o) for o in random_orders(position, power, game_map, rng)
                )
                for power in st.players
            }
            # One real submission per power, then copies of those rows up to `prior`.
            for power, user in st.players.items():
                await svc.submit(st.id, user, texts[power])
            rows = await svc.storage.standing(st.phase_id)
            async with svc.storage.tx() as tx:
                for i in range(max(prior - len(rows), 0)):
                    r = rows[i % len(rows)]
                    await tx.add_submission(
                        st.phase_id, r.power, r.user_id, r.kind, r.text, r.accepted,
                        r.orders_json, r.reply_json, r.submitted_at,
                    )  # fmt: skip
            power, user = next(iter(st.players.items()))
            await svc.submit(st.id, user, texts[power])  # warm
            times = []
            for _ in range(calls):
                t0 = time.perf_counter()
                await svc.submit(st.id, user, texts[power])
                times.append(time.perf_counter() - t0)
            await svc.close()
    finally:
        if admin is not None:
            await admin.execute(f"DROP SCHEMA {schema} CASCADE")
            await admin.close()
    return times


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--calls", type=int, default=50)
    ap.add_argument("--prior", type=int, action="append", help="default 1, 1000, 20000")
    ap.add_argument("--pg", help="a PostgreSQL DSN: measure there too")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    for label, pg in [("sqlite", None)] + ([("postgres", args.pg)] if args.pg else []):
        base = None
        for prior in args.prior or PRIORS:
            times = asyncio.run(run(prior, args.calls, pg, args.seed))
            med = statistics.median(times)
            base = base or med
            print(
                f"{label:8s} prior {prior:6d}: submit median {med * 1000:6.2f} ms, "
                f"mean {statistics.fmean(times) * 1000:6.2f} ms  ({med / base:.2f}x the first)"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
