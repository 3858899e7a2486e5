"""Movement-phase adjudication speed on seeded random positions (~28 units, many supports
and convoys) and on real games' movement phases.

    python3 bench/adjudicate.py [--phases N] [--units U] [--seed S] [--corpus N] [FILE]

Prints median and p95 microseconds per movement phase, phases per second, and the same for a
baseline measured in the same process (the same positions with no orders: every unit holds),
so the ratio says how much the orders cost over the fixed per-phase work.
Target (issue 3): median <= 100 us for ~28 units.

Fast path against the general resolver (issue 18), in the same process, CPU time per phase
(best of --reps passes over all the phases): the random boards as they are (with convoys), the
same boards without convoys, and the movement phases of the first --corpus records of FILE
(default the shared Droidippy corpus, else the sample in tests/data), read by
`parley adjudicate --jsonl`'s engine and interpreted first; for those, interpretation +
adjudication per phase too (the batch path's share of a movement record).

The batch path's adjudication stage (issue 18), in the same process: `adjudicate_interpreted`
(the legality step first: when every order names its units as they stand, the interpretation
is skipped) against interpretation then adjudication, on the random boards and the corpus.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import itertools
import json
import os
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

# Run as a script: this checkout's code first. Imported (bench/batch.py --installed): last, so
# that an installed Parley is the one measured.
sys.path.insert(
    0 if __name__ == "__main__" else len(sys.path), str(Path(__file__).resolve().parents[1])
)
from bot.core.adjudicator import adjudicate
from bot.core.adjudicator.mapindex import MapIndex, map_index
from bot.core.adjudicator.movement_phase import adjudicate_movement
from bot.core.adjudicator.random_phases import random_orders, random_position
from bot.core.language.interpret import adjudicate_interpreted, interpret
from bot.core.language.parser import OrderSyntaxError, parse_order
from bot.core.map import GameMap, load_map
from bot.core.model import Phase, PhaseKind, Position, Power, Unit
from bot.core.orders import Order
from bot.core.rules import DATC, RuleSet

__all__ = ["random_orders", "random_position"]  # bench/batch.py takes them from here
_ROOT = Path(__file__).resolve().parents[1]
_SHARED = os.environ.get("PARLEY_SHARED") or _ROOT.parent / "shared"
CORPUS = Path(_SHARED) / "games" / "droidippy.jsonl.gz"
SAMPLE = _ROOT / "tests" / "data" / "droidippy_sample.jsonl.gz"
Case = tuple[Position, list[Order]]


def _time(cases: list[tuple[Position, list[Order]]], gm: GameMap, reps: int) -> list[float]:
    out = []
    for pos, orders in cases:
        best = float("inf")
        for _ in range(reps):
            t0 = time.perf_counter()
            adjudicate(pos, orders, DATC, gm)
            best = min(best, time.perf_counter() - t0)
        out.append(best * 1e6)
    return out


DATC_FILE = Path(_SHARED) / "datc" / "datc_v3.0_cases.json"


def stage_vs_reference(
    label: str, cases: list[Case], rules: RuleSet, gm: GameMap, reps: int
) -> None:
    """`adjudicate_interpreted` against interpretation then adjudication, alternated passes."""

    def stage(pos: Position, orders: list[Order]) -> object:
        return adjudicate_interpreted(pos, orders, rules, gm)

    def reference(pos: Position, orders: list[Order]) -> object:
        return adjudicate(pos, list(interpret(pos, orders, rules, gm).orders), rules, gm)

    cpu_per_phase(cases[:100], stage, 1)  # warm-up
    s = r = float("inf")
    for _ in range(reps):
        r = min(r, cpu_per_phase(cases, reference, 1))
        s = min(s, cpu_per_phase(cases, stage, 1))
    print(
        f"{label}: interpretation then adjudication {r:.1f} us CPU,"
        f" adjudicate_interpreted {s:.1f} us CPU, ratio {r / s:.2f}"
    )


def cpu_per_phase(
    cases: list[Case], run: Callable[[Position, list[Order]], object], reps: int
) -> float:
    """CPU microseconds per phase, the best of `reps` passes over every case."""
    best = float("inf")
    for _ in range(reps):
        t0 = time.process_time()
        for pos, orders in cases:
            run(pos, orders)
        best = min(best, time.process_time() - t0)
    return best / max(len(cases), 1) * 1e6


def corpus_cases(path: Path, limit: int) -> tuple[list[Case], RuleSet, GameMap]:
    """The movement phases of the first `limit` records, as the batch path reads them."""
    from bot.cli.adjudicate import make_engine  # noqa: PLC0415 - only with --corpus

    engine = make_engine()
    cases: list[Case] = []
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        for line in itertools.islice(fh, limit):
            pos, orders, _ = engine.read(json.loads(line))
            if pos.phase.kind is PhaseKind.MOVEMENT:
                cases.append((pos, orders))
    return cases, engine.rules, engine.game_map


def fast_vs_general(
    label: str, cases: list[Case], rules: RuleSet, idx: MapIndex, reps: int
) -> None:
    def fast(pos: Position, orders: list[Order]) -> object:
        return adjudicate_movement(pos, orders, rules, idx)

    def general(pos: Position, orders: list[Order]) -> object:
        return adjudicate_movement(pos, orders, rules, idx, fast=False)

    cpu_per_phase(cases[:100], fast, 1)  # warm-up
    # alternated passes, the best of each kept: the load of the machine hits both alike
    g = f = float("inf")
    for _ in range(reps):
        g = min(g, cpu_per_phase(cases, general, 1))
        f = min(f, cpu_per_phase(cases, fast, 1))
    print(f"{label}: general {g:.1f} us CPU, fast path {f:.1f} us CPU, ratio {g / f:.2f}")


def datc_seconds() -> tuple[int, float, float]:
    """Every DATC case and step: (steps, seconds parsing the texts, seconds adjudicating)."""
    cases = json.loads(DATC_FILE.read_text(encoding="utf-8"))["cases"]
    gm = load_map("standard")
    steps = 0
    t_parse = t_adj = 0.0
    for case in cases:
        pre = case["prestate"]
        units = [Unit.parse(Power.of(p), u) for p, us in pre["units"].items() for u in us]
        centers = {
            c.upper(): Power.of(p) for p, cs in pre.get("supply_centers", {}).items() for c in cs
        }
        pos = Position.build(Phase.parse(pre["phase"]), units, centers)
        for step in case["steps"]:
            t0 = time.perf_counter()
            orders: list[Order] = []
            for o in step["orders"]:
                with contextlib.suppress(OrderSyntaxError):  # DATC 6.B.1: no order
                    orders.append(
                        parse_order(
                            o["text"], power=Power.of(o["power"]), position=pos, game_map=gm
                        )
                    )
            t1 = time.perf_counter()
            pos = adjudicate(pos, orders, DATC, gm).position
            t_adj += time.perf_counter() - t1
            t_parse += t1 - t0
            steps += 1
    return steps, t_parse, t_adj


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--phases", type=int, default=2000)
    ap.add_argument("--units", type=int, default=28)
    ap.add_argument("--seed", type=int, default=1901)
    ap.add_argument("--reps", type=int, default=3, help="timings per phase (the best is kept)")
    ap.add_argument("--corpus", type=int, default=20000, metavar="N", help="corpus records read")
    ap.add_argument("file", nargs="?", help="corpus file (default: shared, else the sample)")
    args = ap.parse_args()
    gm = load_map("standard")
    idx = map_index(gm)
    rng = random.Random(args.seed)
    cases = []
    kinds: Counter[str] = Counter()
    for _ in range(args.phases):
        pos = random_position(rng, gm, args.units)
        orders = random_orders(rng, pos, idx)
        kinds.update(type(o).__name__ for o in orders)
        cases.append((pos, orders))
    illegal = sum(
        1
        for pos, orders in cases[:200]
        for r in adjudicate(pos, orders, DATC, gm).results
        if r.reason.value == "illegal"
    )
    for pos, orders in cases[:50]:  # warm-up
        adjudicate(pos, orders, DATC, gm)
    t = _time(cases, gm, args.reps)
    base = _time([(pos, []) for pos, _ in cases], gm, args.reps)

    def p95(xs: list[float]) -> float:
        return sorted(xs)[int(0.95 * (len(xs) - 1))]

    med, bmed = statistics.median(t), statistics.median(base)
    print(f"{args.phases} movement phases, {args.units} units, seed {args.seed}")
    print("orders per phase:", {k: round(v / args.phases, 1) for k, v in kinds.items()})
    print(
        f"illegal orders in the first 200 phases: {illegal}"
        " (convoys by fleets that a shorter route does not need: DATC 6.G.19)"
    )
    rate, brate = 1e6 / statistics.mean(t), 1e6 / statistics.mean(base)
    print(f"adjudicate: median {med:.0f} us, p95 {p95(t):.0f} us, {rate:.0f} phases/s")
    print(
        f"baseline (all hold): median {bmed:.0f} us, p95 {p95(base):.0f} us, {brate:.0f} phases/s"
    )
    print(f"ratio median/baseline: {med / bmed:.2f}")
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} ")
    fast_vs_general("random boards (convoys too)", cases, DATC, idx, args.reps)
    rng = random.Random(args.seed)
    plain = []
    for _ in range(args.phases):
        pos = random_position(rng, gm, args.units)
        plain.append((pos, random_orders(rng, pos, idx, convoys=False)))
    fast_vs_general("random boards, no convoy", plain, DATC, idx, args.reps)
    stage_vs_reference("random boards, the batch stage", cases, DATC, gm, args.reps)
    path = Path(args.file) if args.file else CORPUS if CORPUS.exists() else SAMPLE
    if args.corpus and path.exists():
        real, rules, cgm = corpus_cases(path, args.corpus)
        cidx = map_index(cgm)
        read = [(p, list(interpret(p, o, rules, cgm).orders)) for p, o in real]
        fast_vs_general(f"{path.name}, {len(read)} movement phases", read, rules, cidx, args.reps)

        def both(pos: Position, orders: list[Order]) -> object:
            it = interpret(pos, orders, rules, cgm)
            return adjudicate_movement(pos, list(it.orders), rules, cidx)

        i_cpu = cpu_per_phase(real, lambda p, o: interpret(p, o, rules, cgm), args.reps)
        b_cpu = cpu_per_phase(real, both, args.reps)
        print(f"  interpretation {i_cpu:.1f} us CPU; interpretation + adjudication {b_cpu:.1f} us")
        stage_vs_reference(f"{path.name}, the batch stage", real, rules, cgm, args.reps)
    if DATC_FILE.exists():
        datc_seconds()  # warm-up (parser tables, map index)
        steps, tp, ta = datc_seconds()
        print(
            f"DATC v3.0: {steps} steps adjudicated in {ta * 1e3:.1f} ms"
            f" (+ {tp * 1e3:.0f} ms parsing the order texts)"
        )
    print(f"load average at the end {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
