"""Fixtures for the service tests: a real SQLite file per test, a fake clock, and a tiny
deterministic engine (holds and moves only) so the recovery tests do not depend on the core's
speed; `test_core_integration.py` runs the real parser, adjudicator and renderer."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.core.map import GameMap, load_map
from bot.core.model import Location, ModelError, Phase, PhaseKind, Position, Power, Season, Unit
from bot.core.orders import Hold, Move, Order, UnitRef
from bot.core.outcome import OrderResult, Outcome, Reason, Verdict
from bot.core.presets import load_rules
from bot.core.rules import RuleSet
from bot.service import FakeClock, MemoryNotifier, TableService
from bot.service.engine import Parsed
from bot.service.storage import SqliteStorage, Storage
from bot.service.storage.postgres import PgStorage
from tests.bot.service.faults import FaultyEngine, FaultyNotifier, FaultyStorage
from tests.bot.service.pg import dsn as pg_dsn
from tests.bot.service.pg import fresh_schema
from tests.bot.service.pg import settings as pg_settings
from tests.standard import STANDARD

PNG = b"\x89PNG\r\n\x1a\nfake"


class SimpleEngine:
    """`A PAR - BUR` and `A PAR H` only; a move succeeds when it is the only move to an
    empty province. Spring and fall only (no retreats, no adjustments)."""

    def load_map(self, name: str) -> GameMap:
        return load_map(name)

    def load_rules(self, name: str) -> RuleSet:
        return load_rules(name)

    def parse(
        self,
        text: str,
        *,
        lang: str,
        power: Power,
        position: Position,
        game_map: GameMap,
        as_set: bool = False,
    ) -> Parsed:
        orders: list[Order] = []
        errors: list[tuple[str, str]] = []
        for raw in text.replace(";", "\n").splitlines():
            line = raw.strip()
            if not line:
                continue
            parts = line.upper().split()
            try:
                ref = UnitRef.of(Unit.parse(power, " ".join(parts[:2])))
                if parts[2:] == ["H"]:
                    orders.append(Hold(power, ref, source=line))
                elif len(parts) == 4 and parts[2] == "-":
                    orders.append(Move(power, ref, Location.parse(parts[3]), source=line))
                else:
                    raise ModelError("cannot read")
            except (ModelError, IndexError):
                errors.append((line, "cannot read this order"))
        return Parsed(orders, errors)

    def check(
        self,
        position: Position,
        orders: list[Order],
        rules: RuleSet,
        game_map: GameMap,
        lang: str = "en",
    ) -> list[str]:
        return [
            f"{o.canonical()}: no such unit"
            for o in orders
            if isinstance(o, Hold | Move)
            and ((u := position.units.get(o.unit.province)) is None or u.power is not o.power)
        ]

    def render_order(self, order: Order, lang: str, game_map: GameMap) -> str:
        return order.canonical() if lang == "en" else order.canonical().replace(" H", " T")

    def adjudicate(
        self, position: Position, orders: list[Order], rules: RuleSet, game_map: GameMap
    ) -> Outcome:
        by_prov = {
            o.unit.province: o
            for o in orders
            if isinstance(o, Hold | Move)
            and (u := position.units.get(o.unit.province)) is not None
            and u.power is o.power
        }
        targets: dict[str, int] = {}
        for o in by_prov.values():
            if isinstance(o, Move):
                targets[o.dest.province] = targets.get(o.dest.province, 0) + 1
        results = []
        units = dict(position.units)
        for prov, o in sorted(by_prov.items()):
            ok = True
            if isinstance(o, Move):
                d = o.dest.province
                ok = (
                    targets[d] == 1
                    and d not in position.units
                    and game_map.adjacent(units[prov].type, units[prov].location, o.dest)
                )
                if ok:
                    u = units.pop(prov)
                    units[d] = Unit(u.power, u.type, o.dest)
            results.append(
                OrderResult(
                    o.power,
                    o,
                    Verdict.SUCCEEDS if ok else Verdict.FAILS,
                    Reason.NONE if ok else Reason.BOUNCED,
                )
            )
        for prov, u in sorted(position.units.items()):
            if prov not in by_prov:
                results.append(
                    OrderResult(
                        u.power, Hold(u.power, UnitRef.of(u)), Verdict.SUCCEEDS, implied=True
                    )
                )
        centers = dict(position.centers)
        ph = position.phase
        if ph.season is Season.FALL:
            for prov, u in units.items():
                if prov in game_map.supply_centers:
                    centers[prov] = u.power
            nxt = Phase(ph.year + 1, Season.SPRING, PhaseKind.MOVEMENT)
        else:
            nxt = Phase(ph.year, Season.FALL, PhaseKind.MOVEMENT)
        return Outcome(ph, tuple(results), (), (), Position(nxt, units, centers))

    def render(
        self,
        game_map: GameMap,
        position: Position,
        orders: list[Order],
        outcome: Outcome,
        lang: str,
        *,
        palette: str = "default",
        game_over: bool = False,
    ) -> bytes | None:
        return PNG + b" game over" if game_over else PNG


@dataclass
class Crash(BaseException):
    """A simulated process death at a named point."""

    point: str


class Faults:
    def __init__(self) -> None:
        self.armed: dict[str, int] = {}
        self.seen: list[str] = []

    def arm(self, point: str, after: int = 0) -> None:
        self.armed[point] = after

    def __call__(self, point: str) -> None:
        self.seen.append(point)
        if point in self.armed:
            if self.armed[point] == 0:
                del self.armed[point]
                raise Crash(point)
            self.armed[point] -= 1


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "parley.db"


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


OpenFn = Callable[..., Any]
StorageOpener = Callable[[], Awaitable[Storage]]


@pytest.fixture(params=["sqlite", "postgres"])
async def backend(request: pytest.FixtureRequest, db_path: Path) -> AsyncIterator[StorageOpener]:
    """Opens the test's storage: a SQLite file, or a fresh schema on the PostgreSQL server
    (see `pg.py`); every service test runs on both."""
    if request.param == "sqlite":
        yield lambda: SqliteStorage.open(db_path)
        return
    async with fresh_schema() as schema:
        yield lambda: PgStorage.open(pg_dsn(), server_settings=pg_settings(schema))


# For the tests about the SQLite file itself (its bytes, its permissions, its disk).
sqlite_only = pytest.mark.parametrize("backend", ["sqlite"], indirect=True)


@pytest.fixture
async def opener(backend: StorageOpener, clock: FakeClock) -> AsyncIterator[OpenFn]:
    """`await opener(notifier=..., faults=...)` opens a service on the test's storage."""
    opened: list[TableService] = []

    async def open_service(**kw: Any) -> TableService:
        kw.setdefault("engine", SimpleEngine())
        kw.setdefault("notifier", MemoryNotifier())
        kw.setdefault("run", False)
        # Tests step the clock to a deadline and expect it closed; the grace after it for
        # orders sent in time is tested on its own (test_lateness.py).
        kw.setdefault("grace", 0.0)
        faults = kw.pop("faults", None)
        storage = await backend()
        kw["storage"] = storage
        if faults is not None:  # the kill points, in wrappers (tests/bot/service/faults.py)
            kw["storage"] = FaultyStorage(storage, faults)
            kw["engine"] = FaultyEngine(kw["engine"], faults)
            kw["notifier"] = FaultyNotifier(kw["notifier"], faults)
        svc = await TableService.open(clock=clock, **kw)
        opened.append(svc)
        return svc

    yield open_service
    for svc in opened:
        if not svc.scheduler.closed:
            await svc.close()
        else:
            await svc.storage.close()


SEVEN = [f"user-{p.value.lower()}" for p in STANDARD.powers]


async def seven_player_game(svc: TableService, **kw: Any) -> int:
    kw.setdefault("clock", "edc2023")
    status = await svc.create_game("gm", name="table 1", **kw)
    for user, power in zip(SEVEN, STANDARD.powers, strict=True):
        await svc.join(status.id, user, power)
    await svc.start_game(status.id, "gm")
    await svc.run_due()  # opens Spring 1901
    return status.id


async def run_until(svc: TableService, clock: FakeClock, game_id: int, done: Any) -> None:
    """Move the fake clock from one due time to the next until `await done()` is true."""
    for _ in range(500):
        if await done():
            return
        due = await svc.next_due(game_id)
        if due is None:
            raise AssertionError("the game's clock has nothing left to do")
        clock.set(due)
        await svc.run_due()
    raise AssertionError("too many steps")
