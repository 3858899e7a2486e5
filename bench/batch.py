"""The batch path against MILA's engine: `parley adjudicate --jsonl` per movement phase, input
parsing and output writing included, beside MILA's `Game.process()` on the same phases, in one
run.

    python3 bench/batch.py [--phases N] [--units U] [--seed S] [--jobs N] [--installed]

Parley as imported here: in the README's venv, the checkout (pure Python, unless built in place
by tools/build_native.py). With --installed, this tree as a user installs it (`pip install .`,
whose wheel carries the batch path compiled), in its own venv (bench/.venv-parley, ignored by
git), installed again on every such run. The first line says which build ran.

The phases are bench/adjudicate.py's seeded random positions and legal orders (~28 units, many
supports and convoys), written as --jsonl lines in canonical notation (UTF-8 bytes, as the CLI
reads them).
Parley: the lines through `run_jsonl_jobs`, the function behind `parley adjudicate --jsonl
--jobs N` (JSON read, orders parsed, adjudicated, JSON written), with --jobs 1 (this process
alone) and --jobs N (default one per CPU), three runs of each taken in turn, each with a fresh
engine (its caches start empty, as a new CLI run's do): per phase, the WALL time (what a user
waits for) and the CPU time (this process's and its workers'), best and median of the three,
with the load average, since other processes take cores; and this process's own CPU (with
--jobs N: reading, handing out, writing, the first line). The --jobs 1 table also gives the
median of one line's CPU time in its best run.
MILA: `diplomacy` 1.1.2 from the package index, installed on first run in its own environment
(bench/.venv-mila, ignored by git); each phase's game is set up untimed and only `process()` is
timed (CPU time, second of two passes), so MILA's figure leaves out its order parsing
(`set_orders`), as in issue 18. MILA's pass runs at the start of each of the three rounds,
before Parley's runs of that round, and its mean over the rounds is MILA's figure.
Ratios: MILA's CPU per phase against --jobs N's wall time per phase (issue 18's figure: the
command as typed, whose --jobs default is one per CPU; best and median run, and round by round,
each round's MILA pass against its own --jobs N run), and against --jobs 1's CPU per phase (like
for like, one process).
Stages: one more pass split into JSON decoding, reading (position, orders), adjudication and
writing, CPU per phase, to show where the time goes.
Target (issue 18): the command's wall time per phase <= MILA's CPU per phase / 8.
"""

from __future__ import annotations

import argparse
import io
import itertools
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

# Appended, not put first: with --installed, the venv's installed (compiled) `bot` must win.
sys.path.append(str(Path(__file__).resolve().parents[1]))
import bot
from bench.adjudicate import random_orders, random_position
from bot.cli import build_name
from bot.cli.adjudicate import make_engine
from bot.cli.adjudicate_engine import run_jsonl
from bot.cli.adjudicate_jobs import default_jobs, run_jsonl_jobs
from bot.core.adjudicator.mapindex import map_index
from bot.core.map import load_map
from bot.core.records.jsonio import position_to_json

ROOT = Path(__file__).resolve().parents[1]
VENV = ROOT / "bench" / ".venv-mila"
PARLEY_VENV = ROOT / "bench" / ".venv-parley"
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


def run_installed(argv: list[str]) -> None:
    """Runs this bench again in bench/.venv-parley, where this tree is installed as a user
    installs it (`pip install .`: the wheel, its batch path compiled by setup.py)."""
    python = PARLEY_VENV / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(PARLEY_VENV)], check=True)
    print(f"installing this tree in {PARLEY_VENV} (pip install .: about a minute)...", flush=True)
    subprocess.run([str(python), "-m", "pip", "install", "-q", str(ROOT)], check=True)
    os.execv(python, [str(python), __file__, *argv])


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


def _stamped(lines: list[bytes], stamps: list[float]) -> Iterator[bytes]:
    """The lines, the CPU clock read as each is taken (and once after the last)."""
    for line in lines:
        stamps.append(time.process_time())
        yield line
    stamps.append(time.process_time())


@dataclass
class Runs:
    """Seconds per phase of each run through `run_jsonl_jobs` with one --jobs value."""

    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)  # this process's and its workers'
    here: list[float] = field(default_factory=list)  # this process's alone
    line_median: float = float("inf")  # --jobs 1: one line's median CPU time, best run
    size: int = 0  # the output's characters


def parley_runs(
    lines: list[str], jobs: int, rounds: int = 3, each_round: Callable[[], None] | None = None
) -> dict[int, Runs]:
    """`rounds` runs of the lines through `run_jsonl_jobs` with --jobs 1 and --jobs `jobs`,
    taken in turn (so that a change of load falls on both), each with a fresh engine;
    `each_round` is called at the start of each round (MILA's pass)."""
    data = [line.encode() for line in lines]
    run_jsonl(make_engine("datc"), data[:50], io.StringIO())  # warm-up: parser tables, map index
    runs = {n: Runs() for n in sorted({1, jobs})}
    for _ in range(rounds):
        if each_round is not None:
            each_round()
        for n, got in runs.items():
            stamps: list[float] = []
            out = io.StringIO()
            before, t0 = os.times(), time.perf_counter()
            errors = run_jsonl_jobs(
                make_engine("datc"),
                _stamped(data, stamps) if n == 1 else data,
                out,
                jobs=n,
            )
            wall, after = time.perf_counter() - t0, os.times()
            assert errors == 0, f"{errors} error lines"
            cpu = sum(after[:4]) - sum(before[:4])  # user, system, children's user and system
            got.wall.append(wall / len(data))
            got.cpu.append(cpu / len(data))
            got.here.append((sum(after[:2]) - sum(before[:2])) / len(data))
            got.size = len(out.getvalue())
            if n == 1 and cpu / len(data) <= min(got.cpu):
                got.line_median = statistics.median(b - a for a, b in itertools.pairwise(stamps))
    return runs


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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--phases", type=int, default=2000)
    ap.add_argument("--units", type=int, default=28)
    ap.add_argument("--seed", type=int, default=1901)
    ap.add_argument("--jobs", type=int, default=0, help="workers (default: one per CPU)")
    ap.add_argument(
        "--installed",
        action="store_true",
        help="measure this tree installed as a wheel (pip install ., compiled) in its own venv",
    )
    args = ap.parse_args()
    if args.installed:
        run_installed([a for a in sys.argv[1:] if a != "--installed"])
    jobs = args.jobs or default_jobs()
    lines, mila = phases(args.phases, args.units, args.seed)
    n_orders = sum(len(v) for m in mila for v in m["orders"].values())  # type: ignore[attr-defined,misc]
    python = mila_python()
    load = os.getloadavg()[0]
    mila_rounds: list[list[float]] = []
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as fh:
        json.dump(mila, fh)
    try:

        def mila_pass() -> None:
            done = subprocess.run(
                [str(python), "-c", MILA_SCRIPT, fh.name],
                check=True,
                capture_output=True,
                text=True,
            )
            mila_rounds.append(json.loads(done.stdout))

        # MILA's pass, then Parley's runs, round by round: a change of the machine's speed
        # (these shared machines drift by 1.5x within minutes) falls on both sides of a ratio.
        runs = parley_runs(lines, jobs, each_round=mila_pass)
    finally:
        Path(fh.name).unlink()
    split = stages(lines)
    mila_times = [t for times in mila_rounds for t in times]
    mila_mean = statistics.mean(mila_times)
    one, many = runs[1], runs[jobs]
    print(f"{args.phases} movement phases, {n_orders / args.phases:.1f} orders each")
    print(f"parley: {build_name()}, from {Path(bot.__file__).parent.parent}")
    print(
        f"load average {load:.1f} before, {os.getloadavg()[0]:.1f} after, on"
        f" {os.cpu_count()} CPUs (other processes take cores: compare figures of one run)"
    )
    print("CPU time per phase                                     mean    median")
    print(
        f"{'parley adjudicate --jsonl (JSON in, parse, JSON out)':52s}"
        f" {min(one.cpu) * 1e6:7,.0f} us {one.line_median * 1e6:7,.0f} us"
        "  (--jobs 1, best of 3 runs)"
    )
    print(
        f"{f'MILA diplomacy {MILA_VERSION} process() alone':52s}"
        f" {mila_mean * 1e6:7,.0f} us {statistics.median(mila_times) * 1e6:7,.0f} us"
    )
    print(
        f"like for like, one process: MILA / parley --jobs 1 (CPU): {mila_mean / min(one.cpu):.1f}x"
        f" (medians {statistics.median(mila_times) / one.line_median:.1f}x)"
    )
    print(
        "per phase, best / median of 3 runs        WALL              CPU (here + workers)"
        "   CPU here (median)"
    )
    for n, got in runs.items():
        print(
            f"  parley --jobs {n:<3d}                {min(got.wall) * 1e6:7,.0f} /"
            f" {statistics.median(got.wall) * 1e6:5,.0f} us"
            f"   {min(got.cpu) * 1e6:7,.0f} / {statistics.median(got.cpu) * 1e6:5,.0f} us"
            f"   {statistics.median(got.here) * 1e6:7,.1f} us"
        )
    print(f"--jobs {jobs} against --jobs 1 (best wall): {min(one.wall) / min(many.wall):.2f}x")
    # Issue 18's figure, as read in README ("The batch path's figures"): the command as typed
    # (its --jobs default is one per CPU), the wall time a user waits for, per phase.
    print(
        f"issue 18's ratio: MILA's CPU per phase / `parley adjudicate --jsonl` (--jobs {jobs},"
        f" one per CPU: the default) wall per phase: {mila_mean / min(many.wall):.1f}x best run,"
        f" {mila_mean / statistics.median(many.wall):.1f}x median run (target >= 8x)"
    )
    by_round = [statistics.mean(m) / w for m, w in zip(mila_rounds, many.wall, strict=True)]
    print(
        "the same, round by round (MILA's pass, then Parley's, in turn): "
        + " ".join(f"{r:.1f}x" for r in by_round)
        + f"; median {statistics.median(by_round):.1f}x"
    )
    size = one.size
    total = sum(split.values())
    print(
        "where --jobs 1's time goes (one pass, CPU per phase): "
        + ", ".join(f"{k} {v * 1e6:,.0f} us ({v / total:.0%})" for k, v in split.items())
    )
    print(f"output: {size / args.phases / 1024:.1f} KiB per phase")


if __name__ == "__main__":
    main()
