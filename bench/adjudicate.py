"""Movement-phase adjudication speed on seeded random positions (~28 units, many supports
and convoys).

    python3 bench/adjudicate.py [--phases N] [--units U] [--seed S]

Prints median and p95 microseconds per movement phase, phases per second, and the same for a
baseline measured in the same process (the same positions with no orders: every unit holds),
so the ratio says how much the orders cost over the fixed per-phase work.
Target (issue 3): median <= 100 us for ~28 units.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import statistics
import time
from collections import Counter
from pathlib import Path

from bot.core.adjudicator import adjudicate
from bot.core.adjudicator.mapindex import MapIndex, map_index
from bot.core.map import GameMap, load_map
from bot.core.model import Location, Phase, Position, Power, Unit, UnitType
from bot.core.orders import Convoy, Hold, Move, Order, SupportHold, SupportMove, UnitRef
from bot.core.parser import OrderSyntaxError, parse_order
from bot.core.rules import DATC

_SEVEN = load_map("standard").powers


def random_position(rng: random.Random, gm: GameMap, n_units: int) -> Position:
    # seas first in a random share, so that a third or so of the units are fleets at sea
    provs = sorted(
        gm.provinces, key=lambda p: rng.random() - (gm.provinces[p].kind.value == "sea") * 0.35
    )
    units = []
    for pid in provs[:n_units]:
        kind = gm.provinces[pid].kind.value
        if kind == "land" or (kind == "coastal" and rng.random() < 0.5):
            units.append(Unit(rng.choice(list(_SEVEN)), UnitType.ARMY, Location(pid)))
        else:
            loc = rng.choice(gm.fleet_locations(pid))
            units.append(Unit(rng.choice(list(_SEVEN)), UnitType.FLEET, loc))
    return Position.build(Phase.parse("S1901M"), units, gm.start.centers)


def random_orders(rng: random.Random, pos: Position, idx: MapIndex) -> list[Order]:
    """Legal orders: moves first, then supports of those moves or holds, then convoys.
    Every set is sorted before a choice, so a seed gives the same phases in every process."""
    units = list(pos.units.values())
    fleets_at_sea = {
        u.province for u in units if u.type is UnitType.FLEET and u.province in idx.sea
    }
    moves: dict[str, Move] = {}
    convoyed: list[tuple[Move, list[str]]] = []
    for u in units:
        if rng.random() < 0.45:
            if u.type is UnitType.ARMY:
                coastal = sorted(s for s in fleets_at_sea if u.province in idx.sea_shores[s])
                if coastal and rng.random() < 0.6:
                    # a convoy along a random walk of fleets at sea
                    walk = [rng.choice(coastal)]
                    for _ in range(rng.randrange(3)):
                        nxt = [
                            s
                            for s in sorted(idx.sea_seas[walk[-1]])
                            if s in fleets_at_sea and s not in walk
                        ]
                        if not nxt:
                            break
                        walk.append(rng.choice(nxt))
                    shores = sorted(p for p in idx.sea_shores[walk[-1]] if p != u.province)
                    if shores:
                        m = Move(u.power, UnitRef.of(u), Location(rng.choice(shores)), True)
                        moves[u.province] = m
                        convoyed.append((m, walk))
                        continue
                dest = rng.choice(sorted(idx.army_adj[u.province]))
                moves[u.province] = Move(u.power, UnitRef.of(u), Location(dest))
            else:
                dest_loc = rng.choice(sorted(idx.fleet_adj[u.location]))
                moves[u.province] = Move(u.power, UnitRef.of(u), dest_loc)
    orders: list[Order] = list(moves.values())
    convoying: set[str] = set()
    for m, walk in convoyed:
        for s in walk:
            if s not in moves and s not in convoying:
                convoying.add(s)
                f = pos.units[s]
                orders.append(Convoy(f.power, UnitRef.of(f), m.unit, m.dest))
    for u in units:
        if u.province in moves or u.province in convoying:
            continue
        reach = (
            idx.army_adj[u.province] if u.type is UnitType.ARMY else idx.fleet_adj_prov[u.location]
        )
        options: list[Order] = [
            SupportMove(u.power, UnitRef.of(u), m.unit, Location(m.dest.province))
            for p, m in moves.items()
            if m.dest.province in reach and u.province not in (p, m.dest.province)
        ]
        options += [
            SupportHold(u.power, UnitRef.of(u), UnitRef.of(pos.units[p]))
            for p in sorted(reach)
            if p in pos.units and p not in moves
        ]
        if options and rng.random() < 0.85:
            orders.append(rng.choice(options))
        else:
            orders.append(Hold(u.power, UnitRef.of(u)))
    rng.shuffle(orders)
    return orders


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


DATC_FILE = Path(__file__).resolve().parents[2] / "shared" / "datc" / "datc_v3.0_cases.json"


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
    if DATC_FILE.exists():
        datc_seconds()  # warm-up (parser tables, map index)
        steps, tp, ta = datc_seconds()
        print(
            f"DATC v3.0: {steps} steps adjudicated in {ta * 1e3:.1f} ms"
            f" (+ {tp * 1e3:.0f} ms parsing the order texts)"
        )


if __name__ == "__main__":
    main()
