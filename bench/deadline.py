"""N games sharing one deadline: time from the deadline until each game's results and map
are delivered to the notifier (adjudication + rendering + commit + delivery).

    python3 bench/deadline.py                 # N=1 and N=200, the service's default (threads)
    python3 bench/deadline.py -n 50 --executor process --workers 2
    python3 bench/deadline.py --no-old        # without the old path's run beside it

Targets (issue 5): one game <= 0.3 s; issue 18: 200 games <= 3 s median on this 2-core
machine, a quiet run. Every game has seven players with seeded random orders (moves and
supports), on a real SQLite file (WAL, synchronous=FULL), the real parser, adjudicator and
renderer. Results are delivered after every due game is done (`run_due`), so the median is
close to the total.

Each N also runs the old path in this process (`old_path`: the render path before issue 18,
its caches emptied before every map, Pillow's PNG encoder, one table computed at a time) and
prints the ratio. The CPU figure (process CPU seconds / wall seconds from the deadline) says
what bounds the run: near the number of cores, the CPU; well below, waiting (the database's
fsyncs, the GIL).
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import io
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

# The code beside this bench, not an installed copy.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.cli.demo import random_orders
from bot.core.parser import render_order
from bot.service import EventKind, FakeClock, TableService, phase_machine

# The module (the package's `render` is its function of the same name).
render_module = importlib.import_module("renderer.render")


class TimingNotifier:
    def __init__(self) -> None:
        self.t0 = 0.0
        self.ready: dict[int, float] = {}
        self.png_bytes = 0

    async def notify(self, event) -> None:
        if event.kind is EventKind.RESULTS_READY:
            self.ready[event.game_id] = time.perf_counter() - self.t0
            self.png_bytes += len(event.png or b"")


def _warm(_: int) -> int:
    """Load the map, rules and renderer in a worker process before the clock starts."""
    from bot.core.map import load_map  # noqa: PLC0415
    from renderer import render  # noqa: PLC0415

    game_map = load_map("standard")
    render(game_map, None, game_map.start, [], None)
    return os.getpid()


@contextmanager
def old_path() -> Iterator[None]:
    """The render path before issue 18, emulated in this process: no font, legend-size or
    legend-panel cache (emptied before every map), Pillow's PNG encoder (five filters tried
    on each row), one table computed at a time. (The bounding-box test before a label
    box's intersection stays: a few percent.)"""
    renderer_class = render_module.Renderer
    plain_render = renderer_class.render
    plain_encode = render_module.encode_png
    plain_threads = phase_machine.THREADS

    def pillow(img: Any, level: int) -> bytes:
        buf = io.BytesIO()
        img.save(buf, format="PNG", compress_level=level)
        return buf.getvalue()

    def uncached(self: Any, *args: Any, **kw: Any) -> bytes:
        self.legend_fits.clear()
        self.panels.clear()
        self._fonts = threading.local()
        return plain_render(self, *args, **kw)

    renderer_class.render = uncached  # type: ignore[method-assign]
    render_module.encode_png = pillow
    phase_machine.THREADS = 1
    try:
        yield
    finally:
        renderer_class.render = plain_render  # type: ignore[method-assign]
        render_module.encode_png = plain_encode
        phase_machine.THREADS = plain_threads


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
        clock = FakeClock(start=time.time())
        notes = TimingNotifier()
        comp: list[dict[str, float]] = []
        svc = await TableService.open(
            Path(tmp) / "bench.db",
            clock=clock,
            notifier=notes,
            executor=executor,
            run=False,
            metrics=comp.append,
            grace=0.0,  # the service's own work from the deadline; the grace is a fixed wait
        )
        game_map = svc.engine.load_map("standard")
        ids = []
        for g in range(n):
            st = await svc.create_game("gm", name=f"bench {g}", clock="edc2023", rules="datc")
            for power in game_map.powers:
                await svc.join(st.id, f"u{g}-{power.value}", power)
            await svc.start_game(st.id, "gm")
            ids.append(st.id)
        await svc.run_due()
        deadline = None
        for gid in ids:
            st = await svc.status(gid)
            deadline = st.deadline
            position = await svc.position(gid, st.phase_id)
            for power, user in st.players.items():
                orders = random_orders(position, power, game_map, rng)
                await svc.submit(gid, user, "\n".join(render_order(o) for o in orders))
        assert deadline is not None
        clock.set(deadline)
        notes.t0 = time.perf_counter()
        cpu0 = time.process_time()
        await svc.run_due()
        total = time.perf_counter() - notes.t0
        cpu = time.process_time() - cpu0
        await svc.close()
    if executor is not None:
        executor.shutdown()
    lat = sorted(notes.ready.values())
    assert len(lat) == n, f"{len(lat)} of {n} games delivered"
    return {
        "n": n,
        "median": statistics.median(lat),
        "max": lat[-1],
        "total": total,
        "cpu": cpu / total,
        "adjudicate_mean": statistics.fmean(t["adjudicate"] for t in comp),
        "render_mean": statistics.fmean(t["render"] for t in comp),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, action="append", help="games (repeatable; default 1, 200)")
    ap.add_argument("--executor", choices=("default", "thread", "process"), default="default")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-old", action="store_true", help="skip the old path's run")
    args = ap.parse_args()
    print(f"executor={args.executor} workers={args.workers} cpus={os.cpu_count()}")
    for n in args.n or [1, 200]:
        r = asyncio.run(run(n, args.executor, args.workers, args.seed))
        _print("now", r)
        if not args.no_old:
            with old_path():
                old = asyncio.run(run(n, args.executor, args.workers, args.seed))
            _print("old", old)
            print(
                f"       now / old: median {r['median'] / old['median']:.2f}x, render "
                f"{r['render_mean'] / old['render_mean']:.2f}x"
            )
    return 0


def _print(label: str, r: dict[str, float]) -> None:
    print(
        f"{label} N={r['n']:4d}  deadline -> results+map delivered: median {r['median']:.3f} s, "
        f"max {r['max']:.3f} s (all done {r['total']:.3f} s, CPU {r['cpu']:.2f} cores); per "
        f"game: adjudicate {r['adjudicate_mean'] * 1000:.1f} ms, "
        f"render {r['render_mean'] * 1000:.1f} ms"
    )


if __name__ == "__main__":
    sys.exit(main())
