"""`parley demo`: a short game through the table service, offline, no Discord, no token.

Seven powers play seeded random but plausible orders (moves to adjacent provinces, supports
of their own moves, retreats, builds and removals) on the EDC tournament clock, run by a fake
clock so that each 8-minute window passes at once. A notifier writes every announcement to
`events.log`, and each phase's results (`NN_PHASE.txt`) and map (`NN_PHASE.png`) to the
output folder.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

from bot.core.map import GameMap
from bot.core.model import Location, PhaseKind, Position, Power, UnitType
from bot.core.orders import Build, Disband, Hold, Move, Order, Retreat, SupportMove, UnitRef


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "demo",
        help="play a short seeded game offline and write results and maps to a folder",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--out", default="demo-out", help="output folder (default: demo-out)")
    p.add_argument("--years", type=int, default=3, help="game years to play (default: 3)")
    p.add_argument("--seed", type=int, default=1901, help="random seed (default: 1901)")
    p.add_argument("--lang", choices=("en", "fr"), default="en", help="nomenclature")
    p.add_argument("--rules", default="edc2023", help="rule set (default: edc2023)")
    p.set_defaults(func=run)


# --- plausible random orders ------------------------------------------------------------------


def _reach(game_map: GameMap, unit_type: UnitType, loc: Location) -> list[Location]:
    if unit_type is UnitType.ARMY:
        return [Location(p) for p in sorted(game_map.army_adj.get(loc.province, ()))]
    return sorted(game_map.fleet_adj.get(loc, ()))


def _can_reach(game_map: GameMap, unit_type: UnitType, loc: Location, province: str) -> bool:
    return any(d.province == province for d in _reach(game_map, unit_type, loc))


def random_orders(
    position: Position, power: Power, game_map: GameMap, rng: random.Random
) -> list[Order]:
    """Legal-looking orders for one power in any kind of phase."""
    kind = position.phase.kind
    if kind is PhaseKind.RETREAT:
        out: list[Order] = []
        for d in position.dislodged:
            if d.unit.power is not power:
                continue
            ref = UnitRef.of(d.unit)
            dests = [
                loc
                for loc in _reach(game_map, d.unit.type, d.unit.location)
                if loc.province in d.retreats
            ]
            out.append(Retreat(power, ref, rng.choice(dests)) if dests else Disband(power, ref))
        return out
    if kind is PhaseKind.ADJUSTMENT:
        units = position.units_of(power)
        diff = len(position.centers_of(power)) - len(units)
        if diff < 0:
            return [Disband(power, UnitRef.of(u)) for u in rng.sample(units, -diff)]
        free = sorted(
            pid
            for pid in game_map.home_centers(power)
            if position.centers.get(pid) is power and pid not in position.units
        )
        builds: list[Order] = []
        for pid in rng.sample(free, min(diff, len(free))):
            fleets = game_map.fleet_locations(pid)
            if fleets and rng.random() < 0.4:
                builds.append(Build(power, UnitRef(UnitType.FLEET, rng.choice(fleets), power)))
            else:
                builds.append(Build(power, UnitRef(UnitType.ARMY, Location(pid), power)))
        return builds
    orders: dict[str, Order] = {}
    units = sorted(position.units_of(power), key=lambda u: u.province)
    taken: set[str] = set()
    for u in units:
        dests = [d for d in _reach(game_map, u.type, u.location) if d.province not in taken]
        ref = UnitRef.of(u)
        if dests and rng.random() < 0.75:
            dest = rng.choice(dests)
            taken.add(dest.province)
            orders[u.province] = Move(power, ref, dest)
        else:
            orders[u.province] = Hold(power, ref)
    # Some units support a move of another of their own units instead of moving.
    moves = [o for o in orders.values() if isinstance(o, Move)]
    for u in units:
        if rng.random() < 0.35 and moves:
            target = rng.choice(moves)
            if target.unit.province != u.province and _can_reach(
                game_map, u.type, u.location, target.dest.province
            ):
                mine = orders[u.province]
                if isinstance(mine, Move) and any(
                    isinstance(o, SupportMove) and o.target == mine.unit for o in orders.values()
                ):
                    continue
                orders[u.province] = SupportMove(
                    power, UnitRef.of(u), target.unit, Location(target.dest.province)
                )
    return list(orders.values())


# --- the notifier -----------------------------------------------------------------------------


class FolderNotifier:
    """Writes events to `events.log`, results as text and maps as PNG."""

    def __init__(self, out: Path, lang: str) -> None:
        self.out = out
        self.lang = lang
        self.count = 0
        self.written: list[Path] = []
        self.over: dict[str, Any] | None = None

    async def notify(self, event: Any) -> None:
        from bot.service import EventKind  # noqa: PLC0415

        with (self.out / "events.log").open("a", encoding="utf-8") as log:
            log.write(f"{event.id:4d} {event.phase or '-':8s} {event.kind.value} ")
            log.write(f"{_short(event.payload)}\n")
        if event.kind is EventKind.RESULTS_READY:
            self.count += 1
            stem = f"{self.count:02d}_{event.phase}"
            text = self.out / f"{stem}.txt"
            text.write_text(self._results_text(event), encoding="utf-8")
            self.written.append(text)
            if event.png:
                png = self.out / f"{stem}.png"
                png.write_bytes(event.png)
                self.written.append(png)
        elif event.kind is EventKind.GAME_OVER:
            self.over = event.payload

    def _results_text(self, event: Any) -> str:
        title = "Résultats de" if self.lang == "fr" else "Results of"
        lines = [f"{title} {event.phase}", ""]
        try:
            from bot.core.notation import notation_lines  # noqa: PLC0415

            body = notation_lines(event.outcome, self.lang) if event.outcome else []
        except ImportError:
            body = []
        if not body:
            body = [
                f"{r['power'] or '':8s} {r['order']}"
                + ("" if r["succeeded"] else f"  ({r['reason'] or 'failed'})")
                for r in event.payload["lines"]
            ]
        lines.extend(body)
        lines.append("")
        centers = ", ".join(f"{p} {n}" for p, n in sorted(event.payload["centers"].items()))
        lines.append(f"Centres: {centers}")
        lines.append(f"Next: {event.payload['next_phase']}")
        return "\n".join(lines) + "\n"


def _short(payload: dict[str, Any]) -> str:
    keep = {k: v for k, v in payload.items() if k not in ("lines",)}
    text = ", ".join(f"{k}={v}" for k, v in sorted(keep.items()))
    return text[:200]


# --- the game ---------------------------------------------------------------------------------


async def play(out: Path, years: int, seed: int, lang: str, rules: str) -> int:
    from bot.core.jsonio import position_from_json  # noqa: PLC0415
    from bot.service import FakeClock, ServiceError, TableService  # noqa: PLC0415

    db = out / "parley-demo.db"
    rng = random.Random(seed)
    clock = FakeClock(start=time.time())
    notifier = FolderNotifier(out, lang)
    try:
        svc = await TableService.open(db, clock=clock, notifier=notifier, run=False)
    except ServiceError as exc:
        print(f"parley demo: {exc.message}", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    try:
        game = await svc.create_game(
            "demo-gm",
            name="Parley demo",
            clock="edc2023",
            rules=rules,
            lang=lang,
            clock_overrides={"years": years},
        )
        for power in Power:
            await svc.join(game.id, f"demo-{power.value.lower()}", power)
        await svc.start_game(game.id, "demo-gm")
        await svc.run_due()
        ordered: set[int] = set()
        from bot.core.parser import render_order  # noqa: PLC0415

        game_map = svc.engine.load_map("standard")
        for _ in range(10_000):
            st = await svc.status(game.id)
            if st.status == "over":
                break
            if st.phase_status == "open" and st.phase_id and st.phase_id not in ordered:
                ordered.add(st.phase_id)
                row = await svc.store.fetchone(
                    "SELECT position_json FROM phases WHERE id = ?", (st.phase_id,)
                )
                assert row is not None
                position = position_from_json(json.loads(row["position_json"]))
                for power, user in st.players.items():
                    orders = random_orders(position, power, game_map, rng)
                    if orders:
                        text = "\n".join(render_order(o, lang) for o in orders)
                        await svc.submit(game.id, user, text)
            due = await svc.next_due(game.id)
            if due is None:
                break
            clock.set(due)
            await svc.run_due()
        st = await svc.status(game.id)
    finally:
        await svc.close()
    elapsed = time.perf_counter() - t0
    print(f"Parley demo: {notifier.count} phases adjudicated in {elapsed:.1f} s ({st.status}).")
    if notifier.over:
        print(f"Game over: {notifier.over.get('explanation') or notifier.over.get('reason')}")
    centers = ", ".join(f"{p.value.title()} {n}" for p, n in sorted(st.centers.items()))
    print(f"Centres: {centers}")
    print(f"Wrote results (.txt) and maps (.png) to {out}/")
    print(f"  events: {out / 'events.log'}")
    print(f"  database: {db}")
    return 0


def _prepare(out: Path) -> Path:
    """Create the folder and remove what a previous demo wrote there (only that)."""
    out = out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    db = out / "parley-demo.db"
    for stale in (db, db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm")):
        stale.unlink(missing_ok=True)
    (out / "events.log").unlink(missing_ok=True)
    for old in [*out.glob("[0-9][0-9]_*.txt"), *out.glob("[0-9][0-9]_*.png")]:
        old.unlink()
    return out


def run(args: argparse.Namespace) -> int:
    if args.years < 1:
        print("parley demo: --years must be at least 1", file=sys.stderr)
        return 2
    out = _prepare(Path(args.out))
    return asyncio.run(play(out, args.years, args.seed, args.lang, args.rules))
