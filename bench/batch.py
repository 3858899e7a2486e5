"""The batch path against MILA's engine: `parley adjudicate --jsonl` per movement phase, input
parsing and output writing included, beside MILA's `Game.process()` on the same phases, in one
run.

    python3 bench/batch.py [--phases N] [--units U] [--seed S] [--jobs N]

The phases are bench/adjudicate.py's seeded random positions and legal orders (~28 units, many
supports and convoys), written as --jsonl lines in canonical notation. Parley: the lines through
`run_jsonl` (JSON read, orders parsed, adjudicated, JSON written), each line's CPU time, best of
three passes (a fresh engine each: its parse cache starts empty).
MILA: `diplomacy` 1.1.2 from the package index, installed on first run in its own environment
(bench/.venv-mila, ignored by git); each phase's game is set up untimed and only `process()` is
timed (CPU time, second of two passes), so MILA's figure leaves out its order parsing
(`set_orders`), as in issue 18.
Parallel: the same lines through `--jobs N`'s function (N worker processes, default one per
CPU), its WALL time per phase (best of three), beside MILA's CPU time per phase: what a user
waits for per phase; with the machine's load average printed, since other processes take cores.
Stages: one more pass split into JSON decoding, reading (position, orders), adjudication and
writing, CPU per phase, to show where the time goes.
Target (issue 18): Parley's time per phase <= MILA's / 8.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench.adjudicate import random_orders, random_position
from bot.cli.adjudicate import make_engine, run_jsonl
from bot.cli.adjudicate_jobs import default_jobs, run_jsonl_jobs
from bot.core.adjudicator.mapindex import map_index
from bot.core.jsonio import position_to_json
from bot.core.map import load_map

VENV = Path(__file__).resolve().parent / ".venv-mila"
MILA_VERSION = "1.1.2"

# Runs in MILA's environment: reads the phases, prints the seconds of each process().
MILA_SCRIPT = """
import json, sys, time
from diplomacy import Game
phases = json.load(open(sys.argv[1]))
times = []
for reps in range(2):  # the first pass warms up; the second is kept
    times = []
    for ph in phases:
        game = Game()
        game.clear_units()
        for power in game.powers:
            game.set_centers(power, [], reset=True)
        for power, units in ph["units"].items():
            game.set_units(power, units, reset=True)
        for power, centers in ph["centers"].items():
            game.set_centers(power, centers, reset=True)
        for power, orders in ph["orders"].items():
            game.set_orders(power, orders)
        t0 = time.process_time()
        game.process()
        times.append(time.process_time() - t0)
print(json.dumps(times))
"""


def mila_python() -> Path:
    """MILA's interpreter, installing `diplomacy` in its own venv on first use."""
    python = VENV / "bin" / "python"
    if not python.exists():
        print(f"installing diplomacy {MILA_VERSION} in {VENV} (first run only)...", flush=True)
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
        subprocess.run(
            [str(python), "-m", "pip", "install", "-q", f"diplomacy=={MILA_VERSION}"],
            check=True,
            stderr=subprocess.DEVNULL,
        )
    return python


def phases(n: int, units: int, seed: int) -> tuple[list[str], list[dict[str, object]]]:
    """The --jsonl lines, and the same phases as MILA takes them."""
    gm = load_map("standard")
    idx = map_index(gm)
    rng = random.Random(seed)
    lines, mila = [], []
    for _ in range(n):
        pos = random_position(rng, gm, units)
        orders: dict[str, list[str]] = {}
        for o in random_orders(rng, pos, idx):
            assert o.power is not None
            orders.setdefault(str(o.power), []).append(o.canonical())
        doc = position_to_json(pos)
        lines.append(json.dumps({"position": doc, "orders": orders}))
        mila.append({"units": doc["units"], "centers": doc["centers"], "orders": orders})
    return lines, mila


def _stamped(lines: list[str], stamps: list[float]) -> Iterator[str]:
    """The lines, the CPU clock read as each is taken (and once after the last)."""
    for line in lines:
        stamps.append(time.process_time())
        yield line
    stamps.append(time.process_time())


def parley_times(lines: list[str]) -> tuple[list[float], int]:
    """CPU seconds of each line through `run_jsonl` (the best of three passes per line), and
    the output's size: the lines are handed to it one by one and the clock read between."""
    engine = make_engine("datc")
    run_jsonl(engine, lines[:50], io.StringIO())  # warm-up: parser tables, map index
    best = [float("inf")] * len(lines)
    size = 0
    for _ in range(3):
        engine = make_engine("datc")  # a fresh engine: no parse cache carried over
        stamps: list[float] = []

        out = io.StringIO()
        errors = run_jsonl(engine, _stamped(lines, stamps), out)
        assert errors == 0, f"{errors} error lines"
        best = [min(b, t1 - t0) for b, t0, t1 in zip(best, stamps, stamps[1:], strict=False)]
        size = len(out.getvalue())
    return best, size


def stages(lines: list[str]) -> dict[str, float]:
    """CPU seconds per line in each stage of `Engine.line_text`, a fresh engine's one pass:
    JSON decoding, reading (position and orders), adjudication (interpretation included) and
    writing the output line; for the profile of where the time goes."""
    engine = make_engine("datc")
    clock = time.process_time_ns
    spent = dict.fromkeys(("json", "read", "adjudicate", "write"), 0)
    for line in lines:
        t0 = clock()
        doc = json.loads(line)
        t1 = clock()
        position, orders, unparsed = engine.read(doc)
        t2 = clock()
        outcome, decisions = engine._run_phase(position, orders, engine.rules, engine.game_map)
        t3 = clock()
        assert not unparsed
        engine._writer.text(outcome, [], [d.text for d in decisions if not d.dropped])
        t4 = clock()
        for key, dt in zip(spent, (t1 - t0, t2 - t1, t3 - t2, t4 - t3), strict=True):
            spent[key] += dt
    return {k: v / 1e9 / len(lines) for k, v in spent.items()}


def parallel_wall(lines: list[str], jobs: int) -> float:
    """Wall seconds per line through `run_jsonl_jobs` (best of three runs)."""
    data = [line.encode() for line in lines]
    best = float("inf")
    for _ in range(3):
        out = io.StringIO()
        t0 = time.perf_counter()
        errors = run_jsonl_jobs(
            make_engine("datc"), data, out, jobs=jobs, rules_name="datc", map_name="standard"
        )
        best = min(best, time.perf_counter() - t0)
        assert errors == 0, f"{errors} error lines"
    return best / len(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--phases", type=int, default=2000)
    ap.add_argument("--units", type=int, default=28)
    ap.add_argument("--seed", type=int, default=1901)
    ap.add_argument("--jobs", type=int, default=0, help="workers (default: one per CPU)")
    args = ap.parse_args()
    jobs = args.jobs or default_jobs()
    lines, mila = phases(args.phases, args.units, args.seed)
    n_orders = sum(len(v) for m in mila for v in m["orders"].values())  # type: ignore[attr-defined]
    python = mila_python()
    parley, size = parley_times(lines)
    split = stages(lines)
    wall = parallel_wall(lines, jobs)
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as fh:
        json.dump(mila, fh)
    try:
        done = subprocess.run(
            [str(python), "-c", MILA_SCRIPT, fh.name], check=True, capture_output=True, text=True
        )
    finally:
        Path(fh.name).unlink()
    mila_times: list[float] = json.loads(done.stdout)
    print(f"{args.phases} movement phases, {n_orders / args.phases:.1f} orders each")
    print("CPU time per phase (the machine is shared)      mean    median")
    for label, times in (
        ("parley adjudicate --jsonl (JSON in, parse, JSON out)", parley),
        (f"MILA diplomacy {MILA_VERSION} process() alone", mila_times),
    ):
        mean, median = statistics.mean(times) * 1e6, statistics.median(times) * 1e6
        print(f"{label:52s} {mean:7,.0f} us {median:7,.0f} us")
    ratio = statistics.mean(mila_times) / statistics.mean(parley)
    ratio_median = statistics.median(mila_times) / statistics.median(parley)
    print(f"ratio MILA / parley --jobs 1: {ratio:.1f}x (medians {ratio_median:.1f}x; target >= 8x)")
    print(
        f"--jobs {jobs}: {wall * 1e6:,.0f} us WALL per phase (best of 3, load average"
        f" {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs);"
        f" ratio MILA CPU / parley --jobs {jobs} wall: {statistics.mean(mila_times) / wall:.1f}x"
    )
    total = sum(split.values())
    print(
        "where --jobs 1's time goes (one pass, CPU per phase): "
        + ", ".join(f"{k} {v * 1e6:,.0f} us ({v / total:.0%})" for k, v in split.items())
    )
    print(f"output: {size / args.phases / 1024:.1f} KiB per phase")


if __name__ == "__main__":
    main()
