"""N games sharing one deadline: time from the deadline until each game's results and map
are delivered to the notifier (adjudication + rendering + commit + delivery).

    python3 bench/deadline.py                 # N=1 and N=200, the service's default (threads)
    python3 bench/deadline.py --executor process       # `parley run`'s default (CPUs - 1)
    python3 bench/deadline.py --executor compare -n 200   # threads, 1 and 2 worker processes
    python3 bench/deadline.py --no-old        # without the old path's run beside it

Targets (issue 5): one game <= 0.3 s; issue 18: 200 games <= 3 s median on this 2-core
machine, a quiet run. Every game has seven players with seeded random orders (moves and
supports), on a real SQLite file (WAL, durable commits), the real parser, adjudicator and
renderer. The scheduler runs as in `parley run`: each game's results go out as soon as that
game is committed (its delivery lane), so the median is about half the last game's time and
`first` is the first game's.

Each N also runs the old path in this process (`old_path`: the render path before issue 18,
its caches emptied before every map, Pillow's PNG encoder, one table computed at a time, in
threads) and prints the ratio. CPU: this process's and its worker processes' CPU seconds
per wall second from the deadline (cores); near the number of cores, the CPU bounds the run;
"the loop's thread busy" near 100%: the event loop itself (SQL, events, delivery) does.
Per game: CPU ms of this process (its loop thread apart) and of the workers. Each worker's
memory is printed (RSS, and PSS: shared pages counted by share).
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
from concurrent.futures import Executor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

# The code beside this bench, not an installed copy.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.cli.demo_orders import random_orders
from bot.core.language.parser import render_order
from bot.service import EventKind, FakeClock, TableService
from bot.service.phases import phase_machine
from bot.service.phases.workers import ComputePool, warm

# The module (the package's `render` is its function of the same name).
render_module = importlib.import_module("renderer.render")


class TimingNotifier:
    def __init__(self, n: int) -> None:
        self.n = n
        self.t0 = 0.0
        self.ready: dict[int, float] = {}
        self.png_bytes = 0
        self.all_done = asyncio.Event()

    async def notify(self, event) -> None:
        if event.kind is EventKind.RESULTS_READY:
            self.ready[event.game_id] = time.perf_counter() - self.t0
            self.png_bytes += len(event.png or b"")
            if len(self.ready) >= self.n:
                self.all_done.set()


def _proc_cpu(pid: int) -> float:
    """CPU seconds (user + system) of a process, from /proc (0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _memory_mb(pid: int) -> tuple[float, float]:
    """(RSS, PSS) of a process in MB: PSS counts pages shared with the parent by share."""
    out = []
    for name, key in (("status", "VmRSS:"), ("smaps_rollup", "Pss:")):
        try:
            lines = Path(f"/proc/{pid}/{name}").read_text().splitlines()
            kb = next(int(line.split()[1]) for line in lines if line.startswith(key))
        except (OSError, StopIteration):
            kb = 0
        out.append(kb / 1024)
    return out[0], out[1]


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


def _executor(kind: str, workers: int) -> Executor | str | None:
    if kind == "process":
        pool = ComputePool(workers or None)
        # Started and warm before the clock (`warm` runs in each worker at its start).
        for f in [pool.submit(time.sleep, 0.2) for _ in range(pool.workers)]:
            f.result()
        return pool
    if kind == "thread":
        return "thread"
    return None  # the service's default


async def run(n: int, executor_kind: str, workers: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    executor = _executor(executor_kind, workers)
    warm()  # this process too (the thread path draws here)
    with tempfile.TemporaryDirectory() as tmp:
        clock = FakeClock(start=time.time())
        notes = TimingNotifier(n)
        comp: list[dict[str, float]] = []
        svc = await TableService.open(
            Path(tmp) / "bench.db",
            clock=clock,
            notifier=notes,
            **({} if executor is None else {"executor": executor}),
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
        pool = svc.executor if isinstance(svc.executor, ComputePool) else None
        pids = pool.pids() if pool is not None else []
        if pool is not None and not pids:  # (the service's own pool: started on first use)
            for f in [pool.submit(time.sleep, 0.2) for _ in range(pool.workers)]:
                f.result()
            pids = pool.pids()
        # The running scheduler, as in `parley run`: each game's results go out as soon as
        # that game is done (its lane), not after every due game.
        svc.start()
        await asyncio.sleep(0.1)
        notes.t0 = time.perf_counter()
        cpu0 = time.process_time()
        loop0 = time.thread_time()  # the event loop's own thread (this one)
        workers0 = sum(_proc_cpu(p) for p in pids)
        clock.set(deadline)
        await asyncio.wait_for(notes.all_done.wait(), 600)
        total = time.perf_counter() - notes.t0
        cpu = time.process_time() - cpu0
        loop_thread = time.thread_time() - loop0
        worker_cpu = sum(_proc_cpu(p) for p in pids) - workers0
        memory = [_memory_mb(p) for p in pids]
        while await svc.storage.has_pending_events():  # noqa: ASYNC110 - (press events, ...)
            await asyncio.sleep(0.05)
        if svc.executor is None:
            kind = f"threads({phase_machine.THREADS})"
        else:
            kind = f"{type(svc.executor).__name__}({len(pids) or '?'})"
        await svc.close()
    if isinstance(executor, Executor):
        executor.shutdown()
    lat = sorted(notes.ready.values())
    assert len(lat) == n, f"{len(lat)} of {n} games delivered"
    return {
        "n": n,
        "executor": kind,
        "first": lat[0],
        "median": statistics.median(lat),
        "max": lat[-1],
        "total": total,
        "cpu": (cpu + worker_cpu) / total,
        "loop_cpu_ms": cpu / n * 1000,
        "loop_thread_ms": loop_thread / n * 1000,
        "loop_busy": loop_thread / total,
        "worker_cpu_ms": worker_cpu / n * 1000,
        "memory": memory,
        "adjudicate_mean": statistics.fmean(t["adjudicate"] for t in comp),
        "render_mean": statistics.fmean(t["render"] for t in comp),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, action="append", help="games (repeatable; default 1, 200)")
    ap.add_argument(
        "--executor", choices=("default", "thread", "process", "compare"), default="default"
    )
    ap.add_argument(
        "--workers", type=int, default=0, help="worker processes (0: the pool's default)"
    )
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-old", action="store_true", help="skip the old path's run")
    args = ap.parse_args()
    print(
        f"executor={args.executor} workers={args.workers} cpus={os.cpu_count()} "
        f"load={os.getloadavg()[0]:.2f}"
    )
    if args.executor == "compare":
        for n in args.n or [200]:
            base = asyncio.run(run(n, "thread", args.workers, args.seed))
            _print("thread", base)
            for w in (1, 2):
                r = asyncio.run(run(n, "process", w, args.seed))
                _print(f"proc{w}", r)
                print(f"       proc{w} / thread: median {r['median'] / base['median']:.2f}x")
        return 0
    for n in args.n or [1, 200]:
        r = asyncio.run(run(n, args.executor, args.workers, args.seed))
        _print("now", r)
        if not args.no_old:
            with old_path():
                old = asyncio.run(run(n, "thread", args.workers, args.seed))
            _print("old", old)
            print(
                f"       now / old: median {r['median'] / old['median']:.2f}x, render "
                f"{r['render_mean'] / old['render_mean']:.2f}x"
            )
    print(f"load={os.getloadavg()[0]:.2f}")
    return 0


def _print(label: str, r: dict[str, Any]) -> None:
    print(
        f"{label} N={r['n']:4d} {r['executor']}: deadline -> results+map delivered: median "
        f"{r['median']:.3f} s, max {r['max']:.3f} s, first {r['first']:.3f} s; CPU "
        f"{r['cpu']:.2f} cores (the loop's thread busy {r['loop_busy']:.0%}); per game: loop "
        f"process {r['loop_cpu_ms']:.1f} ms CPU (its thread {r['loop_thread_ms']:.1f}), workers "
        f"{r['worker_cpu_ms']:.1f} ms CPU, adjudicate {r['adjudicate_mean'] * 1000:.1f} ms, "
        f"render {r['render_mean'] * 1000:.1f} ms"
    )
    for i, (rss, pss) in enumerate(r["memory"]):
        print(f"       worker {i}: RSS {rss:.0f} MB (PSS {pss:.0f} MB)")


if __name__ == "__main__":
    sys.exit(main())
