"""Render timing: median and p95 ms for a full board (34 units, an order each, results).

    python3 bench/render.py [--width 1600] [--runs 60]

PNG encoding is included (zlib level 1: flat colours compress well at level 1 and level 6 costs
about three times the time for ~15% fewer bytes). The static layers are built once, before.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.core.map import load_map
from bot.core.model import Location, Phase, Position, ProvinceKind, Unit, UnitType
from bot.core.orders import Hold, Move, Order, SupportHold, SupportMove, UnitRef
from bot.core.outcome import OrderResult, Reason, Verdict
from renderer import Renderer

_SEVEN = load_map("standard").powers


def full_board() -> tuple[Position, list[Order], list[OrderResult]]:
    gm = load_map("standard")
    rng = random.Random(1901)
    powers = list(_SEVEN)
    units = []
    for i, pid in enumerate(sorted(gm.supply_centers)):
        prov = gm.province(pid)
        kind = UnitType.FLEET if prov.kind is ProvinceKind.COASTAL and i % 3 == 0 else UnitType.ARMY
        loc = gm.fleet_locations(pid)[0] if kind is UnitType.FLEET else Location(pid)
        units.append(Unit(powers[i % 7], kind, loc))
    pos = Position.build(Phase.parse("F1905M"), units, {u.province: u.power for u in units})
    orders: list[Order] = []
    for i, u in enumerate(units):
        ref = UnitRef.of(u)
        near = sorted(gm.neighbours(u.province))
        if u.type is UnitType.ARMY:
            near = [p for p in near if gm.province(p).kind is not ProvinceKind.SEA] or near
        other = units[(i + 1) % len(units)]
        if i % 4 == 3:
            orders.append(Hold(u.power, ref))
        elif i % 4 == 2 and other.province in gm.neighbours(u.province):
            orders.append(SupportHold(u.power, ref, UnitRef.of(other)))
        elif i % 4 == 1:
            dest = rng.choice(near)
            orders.append(SupportMove(u.power, ref, UnitRef.of(other), Location(dest)))
        else:
            orders.append(Move(u.power, ref, Location(rng.choice(near))))
    results = [
        OrderResult(
            o.power,
            o,
            Verdict.FAILS if k % 3 == 0 else Verdict.SUCCEEDS,
            Reason.BOUNCED if k % 3 == 0 else Reason.NONE,
        )
        for k, o in enumerate(orders)
    ]
    return pos, orders, results


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--width", type=int, default=1600)
    ap.add_argument("--runs", type=int, default=60)
    ap.add_argument("--compress-level", type=int, default=1)
    args = ap.parse_args()
    pos, orders, results = full_board()
    r = Renderer(load_map("standard"), width=args.width, compress_level=args.compress_level)
    t0 = time.perf_counter()
    png = r.render(pos, orders, results)
    first = (time.perf_counter() - t0) * 1000
    times = []
    for _ in range(args.runs):
        t = time.perf_counter()
        png = r.render(pos, orders, results)
        times.append((time.perf_counter() - t) * 1000)
    times.sort()
    p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
    print(
        f"render {len(pos.units)} units, {len(orders)} orders at {args.width}px "
        f"(zlib {args.compress_level}): first {first:.0f} ms (static layers), "
        f"median {statistics.median(times):.1f} ms, p95 {p95:.1f} ms, {len(png) // 1024} KiB"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
