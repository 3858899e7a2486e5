"""The table service: games, secret orders, the phase clock, adjudication, events, recovery.

Everything durable is in the SQLite store; the service object only caches what it can re-read.
A phase row moves pending (reading of the previous phase) -> open (negotiation, then writing)
-> adjudicating (closed, orders frozen) -> done. Each move is one `BEGIN IMMEDIATE`
transaction that also writes the events announcing it to the outbox; events are delivered
after the commit. A process that dies anywhere restarts from the rows: an `adjudicating` phase
is adjudicated again from its frozen orders (its results row is the idempotence key), a
deadline that passed while down fires once, and undelivered events are delivered.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import sqlite3
import time
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import Any

from bot.core import catalogue
from bot.core.jsonio import FormatError, position_from_json, position_to_json
from bot.core.map import GameMap
from bot.core.messages import OneOf
from bot.core.messages import render as render_message
from bot.core.model import (
    Location,
    ModelError,
    Phase,
    PhaseKind,
    Position,
    Power,
    Season,
    Unit,
    UnitType,
)
from bot.core.names import NameTable
from bot.core.orders import Build, Disband, Order, UnitOrder, Waive
from bot.core.outcome import Outcome
from bot.core.outcome import describe as describe_result
from bot.core.rules import DuplicateOrders, RuleSet
from bot.core.submission import Combine, accepts_orders, combine_mode
from bot.service import access, codec, intake
from bot.service.clock import ClockPreset, SystemClock, load_clock
from bot.service.deliveries import Deliveries
from bot.service.engine import CoreEngine, Engine, bundled_variants
from bot.service.errors import (
    ConfigError,
    CorruptGameError,
    InvalidStateError,
    LateSubmissionError,
    NotFoundError,
    PermissionDeniedError,
    ServiceError,
    StoreError,
    StoreUnavailableError,
    VoteRefusedError,
)
from bot.service.events import Event, EventKind, Notifier, NullNotifier, TransientDeliveryError
from bot.service.store import Store, Tx
from bot.service.texts import named, t
from bot.service.unreadable import broken_key, unreadable_reason

log = logging.getLogger(__name__)

FaultHook = Callable[[str], None]
RETRY = 30.0  # seconds before a failed clock step of a game is tried again
NOTIFY_TIMEOUT = 120.0  # seconds a notifier may take on one event before it is retried


# --- public value types -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GameStatus:
    id: int
    name: str
    gm: str
    variant: str
    rules: str
    clock: str
    lang: str
    status: str  # forming, active, paused, over
    phase: str | None  # "S1901M"
    phase_id: int | None
    phase_status: str | None  # pending, open, adjudicating, done, final
    window: str | None  # reading, negotiation, writing, closed
    opens_at: float | None
    writing_at: float | None
    deadline: float | None
    press_open: bool
    players: dict[Power, str]
    submitted: list[Power]  # powers with standing orders (who, never what)
    ready: list[Power]
    to_order: list[Power]  # powers that have something to order in this phase
    centers: dict[Power, int]
    units: dict[Power, int]
    early_adjudication: bool
    end_reason: str | None
    meta: dict[str, Any]
    broken: str | None = None  # why this game cannot be read, if it cannot
    error: str | None = None  # the last failed clock step (retried every 30 s)


@dataclass(frozen=True, slots=True)
class SubmitReply:
    accepted: bool
    game_id: int
    phase: str
    power: Power
    orders: list[str]  # the canonical reading of each order, in the game's language
    errors: list[str]  # "text: reason" for every order that could not be read
    warnings: list[str]  # units without an order, orders for units not yours, ...
    message: str  # one summary line in the game's language
    submitted_at: float
    submission_id: int


@dataclass(frozen=True, slots=True)
class OrdersView:
    game_id: int
    phase: str
    power: Power
    orders: list[str]
    submitted_at: float | None
    warnings: list[str]


@dataclass(frozen=True, slots=True)
class Submission:
    id: int
    phase: str
    power: Power
    user: str
    kind: str
    text: str
    accepted: bool
    orders: list[str]
    reply: dict[str, Any]
    submitted_at: float


@dataclass(frozen=True, slots=True)
class PhaseResults:
    game_id: int
    phase_id: int
    phase: str
    outcome: Outcome
    orders: dict[Power, list[str]]
    lines: list[dict[str, Any]]
    png: bytes | None
    adjudicated_at: float


@dataclass(frozen=True, slots=True)
class PhaseInfo:
    id: int  # phase_id for results(), phase_orders()
    phase: str
    status: str  # pending, open, adjudicating, done, skipped, rolled_back, final
    adjudicated_at: float | None


@dataclass(frozen=True, slots=True)
class AuditEntry:
    id: int
    at: float
    actor: str
    action: str
    detail: dict[str, Any]


@dataclass
class _Ctx:
    game_map: GameMap
    rules: RuleSet
    clock: ClockPreset
    lang: str
    variant: str
    rules_name: str
    early: bool
    first_year: int


@dataclass
class _Phase:
    id: int
    game_id: int
    phase: Phase
    position_json: str
    status: str
    window: str
    opens_at: float | None
    writing_at: float | None
    deadline: float | None

    @property
    def name(self) -> str:
        return str(self.phase)


# --- helpers ------------------------------------------------------------------------------


def _power(value: Power | str, game_map: GameMap) -> Power:
    if isinstance(value, Power):
        return value
    try:
        return game_map.parse_power(value)
    except ModelError:
        raise ServiceError.of("unknown_power", value=value) from None


def _dumps(doc: Any) -> str:
    return json.dumps(doc, ensure_ascii=False, sort_keys=True)


def to_order_powers(position: Position, game_map: GameMap) -> list[Power]:
    """Powers with something to order in this position's phase."""
    kind = position.phase.kind
    if kind is PhaseKind.MOVEMENT:
        return [p for p in game_map.powers if position.units_of(p)]
    if kind is PhaseKind.RETREAT:
        return [p for p in game_map.powers if any(d.unit.power is p for d in position.dislodged)]
    return [p for p in game_map.powers if _adjustment(position, game_map, p) != 0]


def _adjustment(position: Position, game_map: GameMap, power: Power) -> int:
    """Builds (>0) the power can actually make, or removals (<0) it owes."""
    diff = len(position.centers_of(power)) - len(position.units_of(power))
    if diff <= 0:
        return diff
    free = [
        pid
        for pid in game_map.home_centers(power)
        if position.centers.get(pid) is power and pid not in position.units
    ]
    return min(diff, len(free))


def nothing_to_do(position: Position, game_map: GameMap) -> bool:
    if position.phase.kind is PhaseKind.MOVEMENT:
        return False
    return not to_order_powers(position, game_map)


def _reminder_key(game_id: int, phase_id: int, offset: float, deadline: float) -> str:
    # The deadline is part of the key: after an extension the reminders come again.
    return f"{game_id}:{phase_id}:reminder:{offset:g}:{deadline:.0f}"


def _unit_text(names: NameTable, utype: UnitType | None, loc: Location, lang: str) -> str:
    """`A TOU`, `F STP/CS`: a unit in the game's nomenclature."""
    where = names.abbreviation(loc.province, lang)
    if loc.coast is not None:
        where += "/" + names.coast_abbreviation(loc.coast, lang)
    return f"{utype.value} {where}" if utype is not None else where


def _order_key(order: Order) -> str | None:
    if isinstance(order, UnitOrder):
        return order.unit.province
    return None


_RULES: dict[tuple[Engine, str], RuleSet] = {}


def _cached_rules(engine: Engine, name: str) -> RuleSet:
    """Rule sets by (engine, name), loaded once per process (also in pool workers)."""
    key = (engine, name)
    rules = _RULES.get(key)
    if rules is None:
        rules = _RULES[key] = engine.load_rules(name)
    return rules


def compute_phase(  # noqa: PLR0917 - internal helper
    engine: Engine,
    map_name: str,
    rules_name: str,
    position_doc: dict[str, Any],
    orders_doc: list[dict[str, Any]],
    lang: str,
    render: bool = True,
) -> dict[str, Any]:
    """Adjudicate (and render) one phase, then skip phases with nothing to do.

    Pure function of JSON-able arguments, so it can run in a thread or another process.
    """
    t0 = time.perf_counter()
    game_map = engine.load_map(map_name)
    rules = _cached_rules(engine, rules_name)
    position = position_from_json(position_doc)
    orders = codec.orders_from_json(orders_doc)
    outcome = engine.adjudicate(position, orders, rules, game_map)
    t1 = time.perf_counter()
    png = None
    map_error = ""
    if render:
        # A map that cannot be drawn must never hold back the results.
        try:
            png = engine.render(game_map, position, orders, outcome, lang)
        except Exception as exc:  # noqa: BLE001 - any renderer failure
            map_error = f"{type(exc).__name__}: {exc}"
    t2 = time.perf_counter()
    skipped: list[dict[str, Any]] = []
    nxt = outcome.position
    while nothing_to_do(nxt, game_map) and len(skipped) < 5:
        extra = engine.adjudicate(nxt, [], rules, game_map)
        skipped.append(codec.outcome_to_json(extra))
        nxt = extra.position
    return {
        "outcome": codec.outcome_to_json(outcome),
        "skipped": skipped,
        "next": position_to_json(nxt),
        "png": png,
        "map_error": map_error,
        "adjudicate_seconds": t1 - t0,
        "render_seconds": t2 - t1,
    }


# --- the service --------------------------------------------------------------------------


class TableService:
    """Open with `await TableService.open(path, ...)`; see the package docstring for the API."""

    def __init__(
        self,
        store: Store,
        *,
        clock: Any = None,
        notifier: Notifier | None = None,
        engine: Engine | None = None,
        executor: Executor | str | None = None,
        render: bool = True,
        faults: FaultHook | None = None,
    ) -> None:
        self.store = store
        self.clock = clock or SystemClock()
        self.deliveries = Deliveries(store, self.clock)
        self.notifier: Notifier = notifier or NullNotifier()
        self.engine: Engine = engine or CoreEngine()
        # Adjudication and rendering run off the loop: in the default thread pool, in the
        # given executor, or with "process" in a pool of processes (one per CPU) that the
        # service owns: rendering is CPU-bound and a process pool uses every core.
        self._own_executor = isinstance(executor, str)
        if isinstance(executor, str) and executor != "process":
            raise ConfigError(f"unknown executor {executor!r} (use 'process' or an Executor)")
        self.executor: Executor | None = (
            ProcessPoolExecutor() if isinstance(executor, str) else executor
        )
        self.render_maps = render
        self.faults = faults
        self._ctx: dict[int, _Ctx] = {}
        self._broken: dict[int, str] = {}
        self._errors: dict[int, str] = {}  # last failed clock step per game (retried)
        self._due: dict[int, float] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._delivering = False
        self._deliver_again = False
        self._wake = asyncio.Event()
        self._pass_done = asyncio.Event()  # a background delivery pass ended
        self._task: asyncio.Task[None] | None = None
        self._retry_delivery_at: float | None = None
        self._delivery_task: asyncio.Task[None] | None = None
        self._started_at = self.clock.now()  # openings due before this were missed while down
        self._closed = False
        self.timings: list[dict[str, float]] = []  # per adjudication, for bench/deadline.py

    # --- life cycle -------------------------------------------------------------------

    @classmethod
    async def open(
        cls,
        path: str | Path | None = None,
        *,
        clock: Any = None,
        notifier: Notifier | None = None,
        engine: Engine | None = None,
        executor: Executor | str | None = None,
        render: bool = True,
        run: bool = True,
        faults: FaultHook | None = None,
        init_db: bool = False,
    ) -> TableService:
        """Open (and migrate) the database, check the data files, recover, and with `run`
        start the scheduler. Errors: StoreError (bad database), ConfigError (data files).
        `init_db`: an existing empty file may become a new database (else it is refused)."""
        engine = engine or CoreEngine()
        # The bundled presets and variants (what /game create offers) must load before anything
        # else happens; each game's own variant is checked with the game (`_recover`): a
        # broken one stops only its games.
        for variant in bundled_variants():
            engine.load_map(variant)
        engine.load_rules("datc")
        for name in ("edc2023", "casual"):
            load_clock(name)
        store = await Store.open(path, init=init_db)
        svc = cls(
            store,
            clock=clock,
            notifier=notifier,
            engine=engine,
            executor=executor,
            render=render,
            faults=faults,
        )
        try:
            await svc._recover()
        except StoreUnavailableError as exc:
            await store.close()
            raise StoreError(
                f"{store.path} cannot be read at start-up ({exc.__cause__}); nothing was "
                "changed: restore the file from a backup or repair it"
            ) from None
        except BaseException:
            await store.close()
            raise
        if run:
            svc.start()
        return svc

    def start(self) -> None:
        """Start the scheduler task (deadlines, reminders, delivery)."""
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._scheduler())

    async def close(self) -> None:
        self._closed = True
        for task in (self._task, self._delivery_task):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        self._task = self._delivery_task = None
        if self._own_executor and self.executor is not None:
            self.executor.shutdown(wait=False, cancel_futures=True)
        await self.store.close()

    def abandon(self) -> None:
        """Drop the service as a crash would (tests): stop the scheduler, keep nothing."""
        self._closed = True
        self.store.release_file_lock()  # the OS drops a dead process's lock
        for task in (self._task, self._delivery_task):
            if task is not None:
                task.cancel()
        self._task = self._delivery_task = None

    def _fault(self, point: str) -> None:
        if self.faults is not None:
            self.faults(point)

    async def _recover(self) -> None:
        # Forming games too: their variant must load for them to start.
        rows = await self.store.fetchall(
            "SELECT id FROM games WHERE status IN ('forming','active','paused')"
        )
        for row in rows:
            gid = int(row["id"])
            try:
                # status reads the settings and the game's own variant, players, current phase
                # and position, and turns an unreadable one into `broken`.
                st = await self.status(gid)
                if st.broken:
                    await self._mark_broken(gid, st.broken)
                    continue
                await self._reschedule(gid)
            except Exception as exc:  # noqa: BLE001 - one damaged game must not stop the others
                await self._mark_broken(gid, unreadable_reason(gid, exc))

    async def _mark_broken(self, game_id: int, why: str) -> None:
        """Stop this game (its commands raise CorruptGameError), tell the operator (log) and
        its GM (a game_broken event, once per reason); the other games run on."""
        self._broken[game_id] = why
        self._due.pop(game_id, None)
        log.error("game %s is stopped, its data cannot be read: %s", game_id, why)
        try:
            async with self.store.tx() as tx:
                kind = EventKind.GAME_BROKEN
                key = broken_key(game_id, why)
                await self._emit(tx, key, game_id, kind, self.clock.now(), {"why": why})
        except (ServiceError, sqlite3.Error) as exc:
            log.error("game %s: cannot record the notice to its GM: %s", game_id, exc)
        pending = await self.store.fetchone(
            "SELECT COUNT(*) FROM outbox WHERE delivered_at IS NULL"
        )
        if pending and pending[0]:
            self._retry_delivery_at = self.clock.now()

    # --- context and rows -------------------------------------------------------------

    def _lock(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    async def _game_row(self, game_id: int) -> Any:
        row = await self.store.fetchone("SELECT * FROM games WHERE id = ?", (game_id,))
        if row is None:
            raise NotFoundError.of("no_game", game=game_id)
        if game_id in self._broken:
            why = self._broken[game_id]
            raise CorruptGameError.of("game_unreadable", row["lang"], game=game_id, why=why)
        return row

    async def _load_ctx(self, game_id: int) -> _Ctx:
        ctx = self._ctx.get(game_id)
        if ctx is not None:
            return ctx
        row = await self.store.fetchone("SELECT * FROM games WHERE id = ?", (game_id,))
        if row is None:
            raise NotFoundError.of("no_game", game=game_id)
        try:
            clock = ClockPreset.from_json(json.loads(row["clock_json"]))
            options = json.loads(row["options_json"])
        except (ValueError, TypeError, KeyError, ConfigError) as exc:
            raise CorruptGameError(f"game #{game_id}: stored settings unreadable ({exc})") from None
        game_map = self.engine.load_map(row["variant"])
        rules = _cached_rules(self.engine, row["rules"])
        early = bool(options.get("early_adjudication", clock.early_adjudication))
        ctx = _Ctx(
            game_map,
            rules,
            clock,
            row["lang"],
            row["variant"],
            row["rules"],
            early,
            int(options.get("first_year", game_map.start.phase.year)),
        )
        self._ctx[game_id] = ctx
        return ctx

    @staticmethod
    def _phase_from_row(row: Any) -> _Phase:
        try:
            phase = Phase.parse(row["phase"])
        except ModelError as exc:
            raise CorruptGameError(f"game #{row['game_id']}: bad phase row ({exc})") from None
        return _Phase(
            int(row["id"]),
            int(row["game_id"]),
            phase,
            row["position_json"],
            row["status"],
            row["window"],
            row["opens_at"],
            row["writing_at"],
            row["deadline"],
        )

    async def _current_phase(self, game_id: int, tx: Tx | None = None) -> _Phase | None:
        sql = "SELECT p.* FROM phases p JOIN games g ON g.current_phase_id = p.id WHERE g.id = ?"
        row = await (tx or self.store).fetchone(sql, (game_id,))
        return None if row is None else self._phase_from_row(row)

    def _position(self, ph: _Phase) -> Position:
        try:
            ctx = self._ctx.get(ph.game_id)
            return position_from_json(json.loads(ph.position_json), ctx.game_map if ctx else None)
        except (ValueError, FormatError) as exc:
            raise CorruptGameError(
                f"game #{ph.game_id}: the stored position of {ph.name} is unreadable ({exc})"
            ) from None

    @staticmethod
    async def _players(tx: Tx | Store, game_id: int) -> dict[Power, str]:
        rows = await tx.fetchall(
            "SELECT power, user_id FROM players WHERE game_id = ? ORDER BY power", (game_id,)
        )
        return {Power(r["power"]): r["user_id"] for r in rows}

    async def _player_power(self, game_id: int, user: str) -> Power:
        row = await self.store.fetchone(
            "SELECT power FROM players WHERE game_id = ? AND user_id = ?", (game_id, user)
        )
        if row is None:
            lang = await self._lang_of(game_id)
            raise PermissionDeniedError.of("not_player", lang, game=game_id)
        return Power(row["power"])

    async def _lang_of(self, game_id: int) -> str:
        """The game's language for an error message ("en" for a game that does not exist)."""
        ctx = self._ctx.get(game_id)
        if ctx is not None:
            return ctx.lang
        row = await self.store.fetchone("SELECT lang FROM games WHERE id = ?", (game_id,))
        return str(row["lang"]) if row is not None else "en"

    async def _require_gm(self, game_id: int, user: str) -> Any:
        row = await self._game_row(game_id)
        if row["gm"] != user:
            raise PermissionDeniedError.of("gm_only", row["lang"], game=game_id)
        return row

    @staticmethod
    async def _audit(
        tx: Tx, game_id: int, at: float, actor: str, action: str, **detail: Any
    ) -> int:
        return await tx.execute(
            "INSERT INTO audit (game_id, at, actor, action, detail_json) VALUES (?,?,?,?,?)",
            (game_id, at, actor, action, _dumps(detail)),
        )

    @staticmethod
    async def _emit(  # noqa: PLR0917 - internal helper
        tx: Tx,
        key: str,
        game_id: int,
        kind: EventKind,
        at: float,
        payload: dict[str, Any],
        phase_id: int | None = None,
    ) -> None:
        await tx.execute(
            "INSERT OR IGNORE INTO outbox (key, game_id, kind, payload_json, phase_id, created_at)"
            " VALUES (?,?,?,?,?,?)",
            (key, game_id, kind.value, _dumps(payload), phase_id, at),
        )

    async def _set_press(  # noqa: PLR0917 - internal helper
        self,
        tx: Tx,
        game_id: int,
        press_open: bool,
        key: str,
        at: float,
        phase_id: int | None,
        window: str,
    ) -> None:
        row = await tx.fetchone("SELECT press_open FROM games WHERE id = ?", (game_id,))
        if row is not None and bool(row["press_open"]) != press_open:
            await tx.execute("UPDATE games SET press_open = ? WHERE id = ?", (press_open, game_id))
            kind = EventKind.PRESS_UNLOCKED if press_open else EventKind.PRESS_LOCKED
            await self._emit(
                tx, f"{key}:{kind.value}", game_id, kind, at, {"window": window}, phase_id
            )

    # --- games ------------------------------------------------------------------------

    async def create_game(
        self,
        gm: str,
        *,
        name: str = "",
        clock: str = "casual",
        rules: str = "datc",
        lang: str = "en",
        variant: str = "standard",
        clock_overrides: dict[str, Any] | None = None,
        early_adjudication: bool | None = None,
        meta: dict[str, Any] | None = None,
    ) -> GameStatus:
        if lang not in catalogue.languages():
            raise ServiceError.of("unknown_lang", value=lang, known=OneOf(catalogue.languages()))
        try:
            preset = load_clock(clock)
            if clock_overrides:
                preset = preset.with_overrides(clock_overrides)
        except ServiceError as exc:
            exc.lang = lang  # the new game's language
            raise
        game_map = self.engine.load_map(variant)
        _cached_rules(self.engine, rules)
        options: dict[str, Any] = {"first_year": game_map.start.phase.year}
        if early_adjudication is not None:
            options["early_adjudication"] = early_adjudication
        now = self.clock.now()
        async with self.store.tx() as tx:
            gid = await tx.execute(
                "INSERT INTO games (name, gm, variant, rules, clock_name, clock_json, lang,"
                " status, options_json, meta_json, created_at) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                (
                    name,
                    gm,
                    variant,
                    rules,
                    preset.name,
                    _dumps(preset.to_json()),
                    lang,
                    "forming",
                    _dumps(options),
                    _dumps(meta or {}),
                    now,
                ),
            )
            if not name:
                await tx.execute("UPDATE games SET name = ? WHERE id = ?", (f"game-{gid}", gid))
            await self._audit(
                tx,
                gid,
                now,
                gm,
                "create",
                clock=preset.name,
                rules=rules,
                lang=lang,
                variant=variant,
                overrides=clock_overrides or {},
            )
        return await self.status(gid)

    async def join(self, game_id: int, user: str, power: Power | str | None = None) -> Power:
        """Take a power (by name, or None / "random" for a random free one) in a forming game.
        After the start only the GM seats a player (`replace_player`)."""
        row = await self._game_row(game_id)
        if row["status"] == "over":
            raise InvalidStateError.of("game_over", row["lang"], game=game_id)
        ctx = await self._load_ctx(game_id)
        now = self.clock.now()
        async with self.store.tx() as tx:
            # Checked in the transaction: a start committed meanwhile is seen.
            state = await tx.fetchone("SELECT status FROM games WHERE id = ?", (game_id,))
            if state is None or state["status"] != "forming":
                raise InvalidStateError.of("join_started", ctx.lang, game=game_id)
            taken = await self._players(tx, game_id)
            if user in taken.values():
                mine = next(p for p, u in taken.items() if u == user)
                raise InvalidStateError.of(
                    "already_play", ctx.lang, power=named(ctx.game_map, mine), game=game_id
                )
            free = [p for p in ctx.game_map.powers if p not in taken]
            if not free:
                raise InvalidStateError.of("all_taken", ctx.lang, game=game_id)
            if power is None or (isinstance(power, str) and power.lower() == "random"):
                chosen = random.choice(free)
            else:
                chosen = _power(power, ctx.game_map)
                if chosen in taken:
                    raise InvalidStateError.of(
                        "power_taken", ctx.lang, power=named(ctx.game_map, chosen), game=game_id
                    )
                if chosen not in ctx.game_map.powers:
                    raise InvalidStateError.of("power_not_in_variant", ctx.lang, power=chosen)
            await tx.execute(
                "INSERT INTO players (game_id, power, user_id, joined_at) VALUES (?,?,?,?)",
                (game_id, chosen.value, user, now),
            )
            await self._audit(tx, game_id, now, user, "join", power=chosen.value)
        return chosen

    async def assign(self, game_id: int, gm: str, user: str, power: Power | str) -> Power:
        """GM: give `power` to `user` (moving them from another power if they had one)."""
        row = await self._require_gm(game_id, gm)
        game_map = self.engine.load_map(row["variant"])
        chosen = _power(power, game_map)
        now = self.clock.now()
        async with self.store.tx() as tx:
            holder = await tx.fetchone(
                "SELECT user_id FROM players WHERE game_id = ? AND power = ?",
                (game_id, chosen.value),
            )
            if holder is not None and holder["user_id"] != user:
                raise InvalidStateError.of(
                    "played_by_other", row["lang"], power=named(game_map, chosen)
                )
            await tx.execute(
                "DELETE FROM players WHERE game_id = ? AND user_id = ?", (game_id, user)
            )
            await tx.execute(
                "INSERT INTO players (game_id, power, user_id, joined_at) VALUES (?,?,?,?)",
                (game_id, chosen.value, user, now),
            )
            await self._audit(tx, game_id, now, gm, "assign", power=chosen.value, user=user)
        return chosen

    async def leave(self, game_id: int, user: str) -> Power:
        """Leave a game; once it has started the power is left in civil disorder (its standing
        orders stay) until the GM seats someone. Refused once the game is over: the record
        keeps who played what."""
        row = await self._game_row(game_id)
        if row["status"] == "over":
            raise InvalidStateError.of("game_over", row["lang"], game=game_id)
        power = await self._player_power(game_id, user)
        now = self.clock.now()
        async with self.store.tx() as tx:
            await tx.execute(
                "DELETE FROM players WHERE game_id = ? AND user_id = ?", (game_id, user)
            )
            await self._audit(tx, game_id, now, user, "leave", power=power.value)
        return power

    async def start_game(self, game_id: int, gm: str) -> GameStatus:
        row = await self._require_gm(game_id, gm)
        if row["status"] != "forming":
            raise InvalidStateError.of("already_started", row["lang"], game=game_id)
        ctx = await self._load_ctx(game_id)
        now = self.clock.now()
        async with self.store.tx() as tx:
            players = {p.value: u for p, u in (await self._players(tx, game_id)).items()}
            pid = await tx.execute(
                "INSERT INTO phases (game_id, phase, position_json, status, window, opens_at,"
                " created_at) VALUES (?,?,?,?,?,?,?)",
                (
                    game_id,
                    str(ctx.game_map.start.phase),
                    _dumps(position_to_json(ctx.game_map.start)),
                    "pending",
                    "reading",
                    now,
                    now,
                ),
            )
            await tx.execute(
                "UPDATE games SET status='active', started_at=?, current_phase_id=? WHERE id=?",
                (now, pid, game_id),
            )
            await self._audit(tx, game_id, now, gm, "start", players=players)
            await self._emit(
                tx,
                f"{game_id}:started",
                game_id,
                EventKind.GAME_STARTED,
                now,
                {"players": players, "clock": ctx.clock.name, "rules": ctx.rules_name},
                pid,
            )
        await self._reschedule(game_id)
        return await self.status(game_id)

    async def status(self, game_id: int) -> GameStatus:
        row = await self.store.fetchone("SELECT * FROM games WHERE id = ?", (game_id,))
        if row is None:
            raise NotFoundError.of("no_game", game=game_id)
        try:
            players = await self._players(self.store, game_id)
            meta = json.loads(row["meta_json"] or "{}")
            if not isinstance(meta, dict):
                raise TypeError(f"meta is a {type(meta).__name__}")
        except (ValueError, TypeError) as exc:
            self._broken.setdefault(game_id, unreadable_reason(game_id, exc))
            players, meta = {}, {}
        base: dict[str, Any] = {
            "id": game_id,
            "name": row["name"],
            "gm": row["gm"],
            "variant": row["variant"],
            "rules": row["rules"],
            "clock": row["clock_name"],
            "lang": row["lang"],
            "status": row["status"],
            "press_open": bool(row["press_open"]),
            "players": players,
            "end_reason": row["end_reason"],
            "meta": meta,
        }
        empty: dict[str, Any] = {
            "phase": None,
            "phase_id": None,
            "phase_status": None,
            "window": None,
            "opens_at": None,
            "writing_at": None,
            "deadline": None,
            "submitted": [],
            "ready": [],
            "to_order": [],
            "centers": {},
            "units": {},
            "early_adjudication": False,
        }
        if game_id in self._broken:
            return GameStatus(**base, **empty, broken=self._broken[game_id])
        try:
            ctx = await self._load_ctx(game_id)
            ph = await self._current_phase(game_id)
            position = self._position(ph) if ph else None
        except StoreUnavailableError:
            raise  # the storage, not this game
        except Exception as exc:  # noqa: BLE001 - one damaged game must not stop the others
            why = unreadable_reason(game_id, exc)
            if game_id not in self._broken:
                log.error("game %s cannot be read: %s", game_id, why)
            self._broken[game_id] = why
            return GameStatus(**base, **empty, broken=why)
        if ph is None or position is None:
            return GameStatus(**base, **{**empty, "early_adjudication": ctx.early})
        standing = await self._standing(ph.id)
        ready = await self.store.fetchall(
            "SELECT power FROM ready WHERE phase_id = ? ORDER BY power", (ph.id,)
        )
        return GameStatus(
            **base,
            phase=ph.name,
            phase_id=ph.id,
            phase_status=ph.status,
            window=ph.window,
            opens_at=ph.opens_at,
            writing_at=ph.writing_at,
            deadline=ph.deadline,
            submitted=sorted(standing),
            ready=[Power(r["power"]) for r in ready],
            to_order=to_order_powers(position, ctx.game_map),
            centers={
                p: len(position.centers_of(p)) for p in position.powers() if position.centers_of(p)
            },
            units={p: len(position.units_of(p)) for p in position.powers() if position.units_of(p)},
            early_adjudication=ctx.early,
            error=self._errors.get(game_id),
        )

    async def list_games(self, *, include_over: bool = False) -> list[GameStatus]:
        rows = await self.store.fetchall(
            "SELECT id FROM games WHERE ? OR status != 'over' ORDER BY id", (include_over,)
        )
        return [await self.status(int(r["id"])) for r in rows]

    async def games_of(self, user: str, *, include_over: bool = False) -> list[GameStatus]:
        """Games where `user` plays or is GM (the bot uses it to pick the game of a DM)."""
        rows = await self.store.fetchall(
            "SELECT DISTINCT g.id FROM games g LEFT JOIN players p ON p.game_id = g.id"
            " WHERE (p.user_id = ? OR g.gm = ?) AND (? OR g.status != 'over') ORDER BY g.id",
            (user, user, include_over),
        )
        return [await self.status(int(r["id"])) for r in rows]

    async def set_meta(self, game_id: int, key: str, value: Any, *, by: str) -> None:
        """Free key-value data for the bot (channel ids...), kept with the game. `by` asks:
        the GM (any key), a player ("spectators"), or the bot itself (`access.BOT`: only
        its own bookkeeping, "press_lock"); anyone else PermissionDeniedError."""
        row = await self._game_row(game_id)
        players = set((await self._players(self.store, game_id)).values())
        refusal = access.meta_refusal(key, by, gm=row["gm"], players=players)
        if refusal is not None:
            raise PermissionDeniedError.of(refusal, row["lang"], game=game_id)
        async with self.store.tx() as tx:
            if by != access.BOT:  # the bot's own bookkeeping is not a decision to audit
                await self._audit(tx, game_id, self.clock.now(), by, "meta", key=key)
            row = await tx.fetchone("SELECT meta_json FROM games WHERE id = ?", (game_id,))
            meta = json.loads(row["meta_json"] or "{}") if row else {}
            meta[key] = value
            await tx.execute("UPDATE games SET meta_json = ? WHERE id = ?", (_dumps(meta), game_id))

    # --- orders -----------------------------------------------------------------------

    async def _standing(self, phase_id: int, tx: Tx | None = None) -> dict[Power, Any]:
        """The latest accepted submission of each power in a phase (what stands)."""
        rows = await (tx or self.store).fetchall(
            "SELECT s.* FROM submissions s WHERE s.id IN ("
            " SELECT MAX(id) FROM submissions WHERE phase_id = ? AND accepted = 1"
            " GROUP BY power)",
            (phase_id,),
        )
        return {Power(r["power"]): r for r in rows if json.loads(r["orders_json"])}

    def _warnings(
        self, ctx: _Ctx, position: Position, power: Power, orders: list[Order]
    ) -> list[str]:
        lang = ctx.lang
        names = ctx.game_map.names()

        def unit(u: Unit) -> str:  # in the game's nomenclature: French MAR is North Africa
            return _unit_text(names, u.type, u.location, lang)

        out: list[str] = []
        kind = position.phase.kind
        ordered = {_order_key(o) for o in orders}
        if kind is PhaseKind.MOVEMENT:
            for u in sorted(position.units_of(power), key=lambda u: u.province):
                if u.province not in ordered:
                    out.append(t("no_order", lang, unit=unit(u)))
            mine = {u.province for u in position.units_of(power)}
        elif kind is PhaseKind.RETREAT:
            for d in position.dislodged:
                if d.unit.power is power and d.unit.province not in ordered:
                    out.append(t("no_retreat", lang, unit=unit(d.unit)))
            mine = {d.unit.province for d in position.dislodged if d.unit.power is power}
        else:
            n = _adjustment(position, ctx.game_map, power)
            if n > 0:
                given = sum(isinstance(o, Build | Waive) for o in orders)
                if given < n:
                    out.append(t("builds_unused", lang, n=n - given))
            elif n < 0:
                given = sum(isinstance(o, Disband) for o in orders)
                if given < -n:
                    out.append(t("removals_missing", lang, n=-n - given))
            mine = {u.province for u in position.units_of(power)}
        out += self._build_coasts(ctx, names, orders)
        for o in orders:
            key = _order_key(o)
            if key is not None and not isinstance(o, Build) and key not in mine:
                out.append(
                    t(
                        "not_yours",
                        lang,
                        order=self.engine.render_order(o, lang, ctx.game_map),
                        province=names.abbreviation(key, lang),
                    )
                )
        out += self._several_orders(ctx, names, orders)
        return out

    def _build_coasts(self, ctx: _Ctx, names: NameTable, orders: list[Order]) -> list[str]:
        """`F STP B`: a fleet built in a province with two coasts must name one (DATC 6.B.14,
        4.B.7); the order parses and would fail at the deadline, so the player is told now."""
        out: list[str] = []
        for o in orders:
            if not isinstance(o, Build) or o.unit.type is not UnitType.FLEET:
                continue
            loc = o.unit.location
            coasts = ctx.game_map.province(loc.province).coasts
            if loc.coast is not None or len(coasts) < 2:
                continue
            refs = [replace(o.unit, location=Location(loc.province, c)) for c in coasts]
            ways = [
                self.engine.render_order(replace(o, unit=r), ctx.lang, ctx.game_map) for r in refs
            ]
            out.append(
                t(
                    "build_coast" if len(ways) == 2 else "build_coasts",
                    ctx.lang,
                    name=names.full_name(loc.province, ctx.lang),
                    n=len(ways),
                    ways=t("or", ctx.lang).join(ways),
                )
            )
        return out

    def _several_orders(self, ctx: _Ctx, names: NameTable, orders: list[Order]) -> list[str]:
        """A unit given several orders: which one counts, or that it holds (DATC 4.D.3)."""
        by_unit: dict[str, list[UnitOrder]] = {}
        for o in orders:
            if isinstance(o, UnitOrder):
                by_unit.setdefault(o.unit.province, []).append(o)
        then = {
            DuplicateOrders.FIRST: "several_first",
            DuplicateOrders.LAST: "several_last",
            DuplicateOrders.HOLD: "several_hold",
            DuplicateOrders.CIVIL_DISORDER: "several_disorder",
        }[ctx.rules.duplicate_orders]
        out = []
        for given in by_unit.values():
            if len(given) > 1:
                ref = given[0].unit
                texts = [self.engine.render_order(o, ctx.lang, ctx.game_map) for o in given]
                out.append(
                    t(
                        "several_orders",
                        ctx.lang,
                        unit=_unit_text(names, ref.type, ref.location, ctx.lang),
                        n=len(given),
                        orders=", ".join(texts),
                        then=t(then, ctx.lang),
                    )
                )
        return out

    async def submit(
        self, game_id: int, user: str, text: str, *, merge: bool = False
    ) -> SubmitReply:
        """Submit orders (one per line or `;`-separated) for the caller's power.

        The whole set replaces the standing one (with `merge`, it replaces only the orders of
        the units it names). A set with an unreadable order, or one the rule set refuses
        (Stabbeurfou), is not saved and the previous orders stand. After the deadline:
        LateSubmissionError, nothing saved."""
        power = await self._player_power(game_id, user)
        return await self._submit(game_id, user, power, text, kind="submit", merge=merge)

    async def submit_for(self, game_id: int, gm: str, power: Power | str, text: str) -> SubmitReply:
        """GM: enter a power's orders for it (paper orders transcribed at a table)."""
        row = await self._require_gm(game_id, gm)
        chosen = _power(power, self.engine.load_map(row["variant"]))
        return await self._submit(game_id, gm, chosen, text, kind="gm", merge=False)

    async def clear_orders(self, game_id: int, user: str) -> SubmitReply:
        power = await self._player_power(game_id, user)
        return await self._submit(game_id, user, power, "", kind="clear", merge=False)

    async def _open_phase_for_orders(self, game_id: int) -> tuple[Any, _Ctx, _Phase]:
        row = await self._game_row(game_id)
        if row["status"] in ("forming", "over"):
            key = "not_started" if row["status"] == "forming" else "game_over"
            raise InvalidStateError.of(key, row["lang"], game=game_id)
        ctx = await self._load_ctx(game_id)
        ph = await self._current_phase(game_id)
        if ph is None:
            raise InvalidStateError.of("no_phase_open", ctx.lang, game=game_id)
        return row, ctx, ph

    def _late_error(self, ctx: _Ctx, ph: _Phase) -> LateSubmissionError:
        if ph.status == "pending":
            return LateSubmissionError(t("not_open", ctx.lang, phase=ph.phase.describe(ctx.lang)))
        return LateSubmissionError(t("late", ctx.lang, phase=ph.phase.describe(ctx.lang)))

    async def _submit(
        self, game_id: int, user: str, power: Power, text: str, *, kind: str, merge: bool
    ) -> SubmitReply:
        _, ctx, ph = await self._open_phase_for_orders(game_id)
        lang = ctx.lang
        position = self._position(ph)
        describe = ph.phase.describe(lang)
        errors: list[str] = []
        orders: list[Order] = []
        refused_strict: list[str] = []
        voided: list[str] = []
        if kind != "clear":
            intake.check_size(text, lang)
            # Reading is pure and CPU-bound: off the event loop.
            read = await asyncio.to_thread(
                intake.read_set, self.engine, text, lang, power, position, ctx.game_map, ctx.rules
            )
            orders, errors, refused_strict = read.orders, read.errors, read.refused
            voided = [t("voided_line", lang, error=e) for e in read.voided]
        accepted = not errors and not refused_strict
        mode = combine_mode(ctx.rules, merge_requested=merge and kind == "submit")
        if mode is Combine.REFUSE and accepted:
            errors, accepted = [t("whole_sets_only", lang, rules=ctx.rules_name)], False
        if mode in (Combine.BY_UNIT, Combine.APPEND) and accepted and kind != "clear":
            standing = await self._standing(ph.id)
            if power in standing:
                old = codec.orders_from_json(json.loads(standing[power]["orders_json"]))
                names = {_order_key(o) for o in orders} if mode is Combine.BY_UNIT else set()
                kept = [o for o in old if _order_key(o) is not None and _order_key(o) not in names]
                orders = kept + orders
        readings = [self.engine.render_order(o, lang, ctx.game_map) for o in orders]
        warnings = self._warnings(ctx, position, power, orders) if accepted else []
        warnings = voided + warnings if accepted else warnings
        late: LateSubmissionError | None = None
        async with self.store.tx() as tx:
            cur = await self._current_phase(game_id, tx)
            grow = await tx.fetchone("SELECT status, paused_at FROM games WHERE id = ?", (game_id,))
            now = self.clock.now()
            paused_at = grow["paused_at"] if grow and grow["status"] == "paused" else None
            if cur is None or not accepts_orders(
                ctx.rules,
                status=cur.status if cur.id == ph.id else "",
                now=now,
                deadline=cur.deadline,
                paused_at=paused_at,
            ):
                late = self._late_error(ctx, cur or ph)
                accepted = False
            had = await self._standing(ph.id, tx)
            previous = t("previous_stand" if power in had else "previous_none", lang)
            if late is not None:
                message = late.message
            elif errors:
                message = t("refused_errors", lang, previous=previous)
            elif refused_strict:
                message = t("refused_strict", lang, rules=ctx.rules_name, previous=previous)
                errors = refused_strict
            elif kind == "clear":
                message = t("cleared", lang, phase=describe)
            else:
                message = t("saved", lang, n=len(orders), phase=describe)
            reply = {
                "orders": readings,
                "errors": errors,
                "warnings": warnings,
                "message": message,
                "late": late is not None,
            }
            sid = await tx.execute(
                "INSERT INTO submissions (phase_id, power, user_id, kind, text, accepted,"
                " orders_json, reply_json, submitted_at) VALUES (?,?,?,?,?,?,?,?,?)",
                (
                    ph.id,
                    power.value,
                    user,
                    kind,
                    text,
                    int(accepted),
                    _dumps(codec.orders_to_json(orders) if accepted else []),
                    _dumps(reply),
                    now,
                ),
            )
            # Secrecy: the audit log records that orders came, never what they say.
            await self._audit(
                tx,
                game_id,
                now,
                user,
                f"orders.{kind}",
                power=power.value,
                phase=ph.name,
                accepted=accepted,
                submission=sid,
                late=late is not None,
            )
            if accepted:
                await tx.execute(
                    "DELETE FROM ready WHERE phase_id = ? AND power = ?", (ph.id, power.value)
                )
            self._fault("submit.before_commit")
        self._fault("submit.after_commit")
        if late is not None:
            raise late
        return SubmitReply(
            accepted, game_id, ph.name, power, readings, errors, warnings, message, now, sid
        )

    async def my_orders(self, game_id: int, user: str) -> OrdersView:
        power = await self._player_power(game_id, user)
        _, ctx, ph = await self._open_phase_for_orders(game_id)
        standing = await self._standing(ph.id)
        orders: list[Order] = []
        at = None
        if power in standing:
            orders = codec.orders_from_json(json.loads(standing[power]["orders_json"]))
            at = float(standing[power]["submitted_at"])
        position = self._position(ph)
        return OrdersView(
            game_id,
            ph.name,
            power,
            [self.engine.render_order(o, ctx.lang, ctx.game_map) for o in orders],
            at,
            self._warnings(ctx, position, power, orders),
        )

    async def set_ready(self, game_id: int, user: str, ready: bool = True) -> bool:
        """Mark the caller ready; returns True if that made the phase adjudicate early."""
        power = await self._player_power(game_id, user)
        row, ctx, ph = await self._open_phase_for_orders(game_id)
        if ph.status != "open":
            raise self._late_error(ctx, ph)
        now = self.clock.now()
        early = False
        async with self.store.tx() as tx:
            if ready:
                await tx.execute(
                    "INSERT OR REPLACE INTO ready (phase_id, power, at) VALUES (?,?,?)",
                    (ph.id, power.value, now),
                )
            else:
                await tx.execute(
                    "DELETE FROM ready WHERE phase_id = ? AND power = ?", (ph.id, power.value)
                )
            await self._audit(
                tx,
                game_id,
                now,
                user,
                "ready" if ready else "unready",
                power=power.value,
                phase=ph.name,
            )
            if ready and ctx.early and row["status"] == "active":
                players = set(await self._players(tx, game_id))
                need = set(to_order_powers(self._position(ph), ctx.game_map)) & players
                done = {
                    Power(r["power"])
                    for r in await tx.fetchall(
                        "SELECT power FROM ready WHERE phase_id = ?", (ph.id,)
                    )
                }
                if need and need <= done:
                    early = True
                    await tx.execute(
                        "UPDATE phases SET deadline = ?, writing_at = MIN(writing_at, ?)"
                        " WHERE id = ? AND status = 'open'",
                        (now, now, ph.id),
                    )
                    await self._audit(
                        tx, game_id, now, "clock", "early_adjudication", phase=ph.name
                    )
        if early:
            await self._reschedule(game_id)
            await self._advance(game_id)
            await self.deliver()
        return early

    async def phase_orders(
        self, game_id: int, viewer: str, phase_id: int | None = None
    ) -> dict[Power, list[str]]:
        """Orders of a phase: all of them once adjudicated; before that only the viewer's."""
        await self._game_row(game_id)
        ctx = await self._load_ctx(game_id)
        if phase_id is None:
            ph = await self._current_phase(game_id)
            if ph is None:
                return {}
            phase_id = ph.id
        row = await self.store.fetchone(
            "SELECT orders_json FROM results WHERE phase_id = ?", (phase_id,)
        )
        if row is not None:
            orders = codec.orders_from_json(json.loads(row["orders_json"]))
            out: dict[Power, list[str]] = {}
            for o in orders:
                if o.power is not None:
                    out.setdefault(o.power, []).append(
                        self.engine.render_order(o, ctx.lang, ctx.game_map)
                    )
            return out
        prow = await self.store.fetchone(
            "SELECT power FROM players WHERE game_id = ? AND user_id = ?", (game_id, viewer)
        )
        if prow is None:
            return {}
        power = Power(prow["power"])
        standing = await self._standing(phase_id)
        if power not in standing:
            return {}
        orders = codec.orders_from_json(json.loads(standing[power]["orders_json"]))
        return {power: [self.engine.render_order(o, ctx.lang, ctx.game_map) for o in orders]}

    async def history(
        self, game_id: int, viewer: str, *, power: Power | str | None = None
    ) -> list[Submission]:
        """Every submission with its UTC time (disputes). A player sees their own power's;
        the GM sees every power's, but only for phases already adjudicated (secrecy)."""
        row = await self._game_row(game_id)
        is_gm = row["gm"] == viewer
        prow = await self.store.fetchone(
            "SELECT power FROM players WHERE game_id = ? AND user_id = ?", (game_id, viewer)
        )
        own = Power(prow["power"]) if prow else None
        if not is_gm and own is None:
            raise PermissionDeniedError.of("not_player", row["lang"], game=game_id)
        want = _power(power, self.engine.load_map(row["variant"])) if power is not None else None
        rows = await self.store.fetchall(
            "SELECT s.*, p.phase, EXISTS (SELECT 1 FROM results r WHERE r.phase_id = p.id)"
            " AS adjudicated FROM submissions s"
            " JOIN phases p ON p.id = s.phase_id WHERE p.game_id = ? ORDER BY s.id",
            (game_id,),
        )
        out = []
        for r in rows:
            p = Power(r["power"])
            if want is not None and p is not want:
                continue
            visible = p is own or (is_gm and bool(r["adjudicated"]))
            if not visible:
                continue
            orders = codec.orders_from_json(json.loads(r["orders_json"]))
            out.append(
                Submission(
                    int(r["id"]),
                    r["phase"],
                    p,
                    r["user_id"],
                    r["kind"],
                    r["text"],
                    bool(r["accepted"]),
                    [o.canonical() for o in orders],
                    json.loads(r["reply_json"]),
                    float(r["submitted_at"]),
                )
            )
        return out

    async def results(self, game_id: int, phase_id: int | None = None) -> PhaseResults | None:
        """Results of an adjudicated phase (the latest if `phase_id` is None); public."""
        await self._game_row(game_id)
        ctx = await self._load_ctx(game_id)
        if phase_id is None:
            row = await self.store.fetchone(
                "SELECT r.*, p.phase FROM results r JOIN phases p ON p.id = r.phase_id"
                " WHERE p.game_id = ? AND p.status = 'done' ORDER BY r.phase_id DESC LIMIT 1",
                (game_id,),
            )
        else:
            row = await self.store.fetchone(
                "SELECT r.*, p.phase FROM results r JOIN phases p ON p.id = r.phase_id"
                " WHERE p.game_id = ? AND r.phase_id = ?",
                (game_id, phase_id),
            )
        if row is None:
            return None
        outcome = codec.outcome_from_json(json.loads(row["outcome_json"]))
        orders = codec.orders_from_json(json.loads(row["orders_json"]))
        by_power: dict[Power, list[str]] = {}
        for o in orders:
            if o.power is not None:
                by_power.setdefault(o.power, []).append(
                    self.engine.render_order(o, ctx.lang, ctx.game_map)
                )
        return PhaseResults(
            game_id,
            int(row["phase_id"]),
            row["phase"],
            outcome,
            by_power,
            self._result_lines(ctx, outcome),
            row["png"],
            float(row["adjudicated_at"]),
        )

    def _result_lines(self, ctx: _Ctx, outcome: Outcome) -> list[dict[str, Any]]:
        return [
            {
                "power": r.power.value if r.power else None,
                "order": self.engine.render_order(r.order, ctx.lang, ctx.game_map),
                "succeeded": r.succeeded,
                "reason": r.reason.value,
                "detail": describe_result(r, ctx.lang, ctx.game_map),
                "implied": r.implied,
            }
            for r in outcome.results
        ]

    async def power_of(self, game_id: int, user: str) -> Power | None:
        """The power `user` plays in the game, if any."""
        row = await self.store.fetchone(
            "SELECT power FROM players WHERE game_id = ? AND user_id = ?", (game_id, user)
        )
        return Power(row["power"]) if row else None

    async def phases(self, game_id: int) -> list[PhaseInfo]:
        """Every phase played, in order (rolled-back and skipped ones included, marked)."""
        await self._game_row(game_id)
        rows = await self.store.fetchall(
            "SELECT p.id, p.phase, p.status, r.adjudicated_at FROM phases p"
            " LEFT JOIN results r ON r.phase_id = p.id WHERE p.game_id = ? ORDER BY p.id",
            (game_id,),
        )
        return [PhaseInfo(int(r["id"]), r["phase"], r["status"], r["adjudicated_at"]) for r in rows]

    async def audit_log(self, game_id: int, viewer: str) -> list[AuditEntry]:
        await self._require_gm(game_id, viewer)
        rows = await self.store.fetchall(
            "SELECT * FROM audit WHERE game_id = ? ORDER BY id", (game_id,)
        )
        return [
            AuditEntry(
                int(r["id"]), float(r["at"]), r["actor"], r["action"], json.loads(r["detail_json"])
            )
            for r in rows
        ]

    # --- the clock --------------------------------------------------------------------

    async def _reminders_sent(self, game_id: int, phase_id: int) -> set[str]:
        rows = await self.store.fetchall(
            "SELECT key FROM outbox WHERE game_id = ? AND phase_id = ? AND kind = ?",
            (game_id, phase_id, EventKind.REMINDER_DUE.value),
        )
        return {r["key"] for r in rows}

    async def _next_due(self, game_id: int) -> float | None:
        row = await self.store.fetchone("SELECT status FROM games WHERE id = ?", (game_id,))
        if row is None or row["status"] != "active" or game_id in self._broken:
            return None
        ph = await self._current_phase(game_id)
        if ph is None:
            return None
        if ph.status == "pending":
            return ph.opens_at
        if ph.status == "adjudicating":
            return self.clock.now()
        if ph.status != "open" or ph.deadline is None:
            return None
        times = [ph.deadline]
        if ph.window == "negotiation" and ph.writing_at is not None:
            times.append(ph.writing_at)
        ctx = await self._load_ctx(game_id)
        sent = await self._reminders_sent(game_id, ph.id)
        for off in ctx.clock.reminders:
            key = _reminder_key(game_id, ph.id, off, ph.deadline)
            if key not in sent and ph.deadline - off > (ph.opens_at or 0):
                times.append(ph.deadline - off)
        return min(times)

    async def _reschedule(self, game_id: int) -> None:
        due = await self._next_due(game_id)
        if due is None:
            self._due.pop(game_id, None)
        else:
            self._due[game_id] = due
        self._wake.set()

    async def next_due(self, game_id: int) -> float | None:
        """When this game's clock next has something to do (UTC seconds), if ever."""
        return await self._next_due(game_id)

    async def run_due(self) -> int:
        """Do everything due now (windows, reminders, adjudications), then deliver events.
        The scheduler calls this; tests and the demo call it after moving a fake clock."""
        n = await self._run_clock()
        await self.deliver()
        return n

    async def _run_clock(self) -> int:
        now = self.clock.now()
        due = [g for g, when in self._due.items() if when <= now]
        if due:
            await asyncio.gather(*(self._advance(g, deliver=False) for g in due))
        return len(due)

    def _kick_delivery(self) -> None:
        """Deliver in a task of its own: a slow or absent Discord never holds the clock."""
        self._retry_delivery_at = None  # (set again by a pass that fails)
        if self._delivery_task is None or self._delivery_task.done():
            self._delivery_task = asyncio.get_running_loop().create_task(self._deliver_task())
        else:
            self._deliver_again = True

    async def _deliver_task(self) -> None:
        try:
            await self.deliver()
        except Exception:
            log.exception("delivery pass failed")
            self._retry_delivery_at = self.clock.now() + 5.0
        finally:
            self._pass_done.set()  # the scheduler's timer takes in a retry time

    async def _scheduler(self) -> None:
        poked = True  # at start, and whenever an operation woke the scheduler (new events)
        while not self._closed:
            poked = poked or self._wake.is_set()
            self._wake.clear()
            self._pass_done.clear()
            try:
                stepped = await self._run_clock()
                retry = self._retry_delivery_at
                if poked or stepped or (retry is not None and retry <= self.clock.now()):
                    self._kick_delivery()
                poked = False
            except ServiceError as exc:
                log.error("scheduler: %s", exc.message)
            except Exception:
                log.exception("scheduler step failed")
            now = self.clock.now()
            times = list(self._due.values())
            if self._retry_delivery_at is not None:
                times.append(self._retry_delivery_at)
            nxt = min(times, default=None)
            if nxt is not None and nxt <= now:
                await asyncio.sleep(0)
                continue
            waiters: list[asyncio.Future[Any]] = [
                asyncio.ensure_future(self._wake.wait()),
                asyncio.ensure_future(self._pass_done.wait()),
            ]
            if nxt is not None:
                waiters.append(asyncio.ensure_future(self.clock.sleep_until(nxt)))
            try:
                await asyncio.wait(waiters, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for w in waiters:
                    w.cancel()

    async def _advance(self, game_id: int, *, deliver: bool = True) -> None:
        """One step of a game's clock: open a window, send a reminder, or adjudicate."""
        async with self._lock(game_id):
            try:
                await self._advance_locked(game_id)
            except CorruptGameError as exc:
                await self._mark_broken(game_id, exc.message)
                return
            except Exception as exc:
                # A bug or a missing file must not spin the scheduler: retry this game
                # later; the other games go on.
                log.exception("game %s: clock step failed; retrying in %ss", game_id, RETRY)
                self._errors[game_id] = f"{type(exc).__name__}: {exc}"
                self._due[game_id] = self.clock.now() + RETRY
                self._wake.set()
                return
            self._errors.pop(game_id, None)
            await self._reschedule(game_id)
        # Deliver this game's events now rather than after every due game is done.
        if deliver:
            await self.deliver()
        elif self._task is not None:
            self._kick_delivery()

    async def _advance_locked(self, game_id: int) -> None:
        row = await self.store.fetchone("SELECT status FROM games WHERE id = ?", (game_id,))
        if row is None or row["status"] != "active":
            return
        ctx = await self._load_ctx(game_id)
        ph = await self._current_phase(game_id)
        if ph is None:
            return
        now = self.clock.now()
        if ph.status == "pending" and ph.opens_at is not None and now >= ph.opens_at:
            await self._open(game_id, ctx, ph, now)
            ph = await self._current_phase(game_id)
            if ph is None:
                return
        if ph.status == "open" and ph.deadline is not None:
            if now >= ph.deadline:
                await self._adjudicate(game_id, ctx, ph)
                return
            if ph.window == "negotiation" and ph.writing_at is not None and now >= ph.writing_at:
                await self._to_writing(game_id, ctx, ph, now)
            await self._remind(game_id, ctx, ph, now)
        elif ph.status == "adjudicating":
            await self._adjudicate(game_id, ctx, ph)

    async def _open(self, game_id: int, ctx: _Ctx, ph: _Phase, now: float) -> None:
        times = ctx.clock.times(ph.phase)
        # The clock runs from the adjudication (opens_at = its time + reading): a late step
        # (a busy loop, a slow Discord) must not push the deadline back. Only an opening
        # missed while the process was down starts from now, not to eat the players' window.
        missed = ph.opens_at is None or ph.opens_at < self._started_at
        start = now if missed else min(now, float(ph.opens_at or now))
        writing_at = start + times.negotiation
        deadline = writing_at + times.writing
        window = "negotiation" if times.negotiation > 0 else "writing"
        async with self.store.tx() as tx:
            n = await tx.execute(
                "UPDATE phases SET status='open', window=?, opens_at=?, writing_at=?,"
                " deadline=? WHERE id=? AND status='pending'",
                (window, start, writing_at, deadline, ph.id),
            )
            if not n:
                return
            key = f"{game_id}:{ph.id}:{window}"
            await self._emit(
                tx,
                f"{key}:window",
                game_id,
                EventKind.WINDOW_OPENED,
                now,
                {
                    "window": window,
                    "writing_at": writing_at,
                    "deadline": deadline,
                    "press_open": ctx.clock.press_open(ph.phase, window),
                    "to_order": [
                        p.value for p in to_order_powers(self._position(ph), ctx.game_map)
                    ],
                },
                ph.id,
            )
            await self._set_press(
                tx, game_id, ctx.clock.press_open(ph.phase, window), key, now, ph.id, window
            )

    async def _to_writing(self, game_id: int, ctx: _Ctx, ph: _Phase, now: float) -> None:
        async with self.store.tx() as tx:
            n = await tx.execute(
                "UPDATE phases SET window='writing' WHERE id=? AND window='negotiation'"
                " AND status='open'",
                (ph.id,),
            )
            if not n:
                return
            key = f"{game_id}:{ph.id}:writing"
            await self._emit(
                tx,
                f"{key}:window",
                game_id,
                EventKind.WINDOW_OPENED,
                now,
                {
                    "window": "writing",
                    "writing_at": ph.writing_at,
                    "deadline": ph.deadline,
                    "press_open": ctx.clock.press_open(ph.phase, "writing"),
                },
                ph.id,
            )
            await self._set_press(
                tx, game_id, ctx.clock.press_open(ph.phase, "writing"), key, now, ph.id, "writing"
            )

    async def _remind(self, game_id: int, ctx: _Ctx, ph: _Phase, now: float) -> None:
        assert ph.deadline is not None
        due = [
            off
            for off in ctx.clock.reminders
            if ph.deadline - off <= now < ph.deadline and ph.deadline - off > (ph.opens_at or 0)
        ]
        if not due:
            return
        off = min(due)  # only the latest one due: a missed earlier reminder is not sent late
        async with self.store.tx() as tx:
            standing = await self._standing(ph.id, tx)
            players = await self._players(tx, game_id)
            need = [
                p
                for p in to_order_powers(self._position(ph), ctx.game_map)
                if p in players and p not in standing
            ]
            for o in due:
                key = _reminder_key(game_id, ph.id, o, ph.deadline)
                payload = {
                    "deadline": ph.deadline,
                    "seconds_left": ph.deadline - now,
                    "offset": o,
                    "powers": [p.value for p in need],
                    "users": [players[p] for p in need],
                }
                if o == off and need:
                    await self._emit(tx, key, game_id, EventKind.REMINDER_DUE, now, payload, ph.id)
                else:  # nothing to remind: record it as handled, delivered at once
                    await tx.execute(
                        "INSERT OR IGNORE INTO outbox (key, game_id, kind, payload_json,"
                        " phase_id, created_at, delivered_at) VALUES (?,?,?,?,?,?,?)",
                        (
                            key,
                            game_id,
                            EventKind.REMINDER_DUE.value,
                            _dumps(payload),
                            ph.id,
                            now,
                            now,
                        ),
                    )

    async def _adjudicate(
        self, game_id: int, ctx: _Ctx, ph: _Phase, *, force: bool = False
    ) -> None:
        """Close the phase (orders frozen), adjudicate off the loop, commit results and the
        next phase and their events in one transaction. Idempotent per phase row."""
        now = self.clock.now()
        vote_row = await self.store.fetchone(
            "SELECT state_json FROM votebooks WHERE game_id = ?", (game_id,)
        )
        vote_open = vote_row is not None and '"open"' in vote_row["state_json"]
        # Without a vote to decide, closing is redone harmlessly after a power cut.
        async with self.store.tx(durable=vote_open) as tx:
            cur = await tx.fetchone("SELECT status, deadline FROM phases WHERE id = ?", (ph.id,))
            if cur is None:
                return
            if cur["status"] == "open":
                if not force and (cur["deadline"] is None or now < cur["deadline"]):
                    return
                await tx.execute(
                    "UPDATE phases SET status='adjudicating', window='closed', closed_at=?"
                    " WHERE id=?",
                    (now, ph.id),
                )
                # house IX(4): a passed vote is published instead of the adjudication.
                if vote_open and await self._close_votes_due(tx, game_id, ctx, ph, now):
                    return
            elif cur["status"] != "adjudicating":
                return
        self._fault("adjudicate.after_close")
        standing = await self._standing(ph.id)
        orders_doc: list[dict[str, Any]] = []
        for power in sorted(standing):
            orders_doc.extend(json.loads(standing[power]["orders_json"]))
        position_doc = json.loads(ph.position_json)
        t0 = time.perf_counter()
        job = partial(
            compute_phase,
            self.engine,
            ctx.variant,
            ctx.rules_name,
            position_doc,
            orders_doc,
            ctx.lang,
            self.render_maps,
        )
        if self.executor is not None:
            result = await asyncio.get_running_loop().run_in_executor(self.executor, job)
        else:
            result = await asyncio.to_thread(job)
        compute = time.perf_counter() - t0
        self._fault("adjudicate.after_compute")
        outcome = codec.outcome_from_json(result["outcome"])
        nxt = position_from_json(result["next"])
        done_at = self.clock.now()
        async with self.store.tx() as tx:
            cur = await tx.fetchone("SELECT status FROM phases WHERE id = ?", (ph.id,))
            if cur is None or cur["status"] != "adjudicating":
                return
            await tx.execute(
                "INSERT INTO results (phase_id, outcome_json, orders_json, png, adjudicated_at,"
                " compute_seconds) VALUES (?,?,?,?,?,?)",
                (
                    ph.id,
                    _dumps(result["outcome"]),
                    _dumps(orders_doc),
                    result["png"],
                    done_at,
                    compute,
                ),
            )
            await tx.execute("UPDATE phases SET status='done' WHERE id=?", (ph.id,))
            start = result["outcome"]["position"]
            for skipped in result["skipped"]:
                sid = await tx.execute(
                    "INSERT INTO phases (game_id, phase, position_json, status, window,"
                    " created_at) VALUES (?,?,?,?,?,?)",
                    (game_id, skipped["phase"], _dumps(start), "skipped", "closed", done_at),
                )
                start = skipped["position"]
                await tx.execute(
                    "INSERT INTO results (phase_id, outcome_json, orders_json, png,"
                    " adjudicated_at, compute_seconds) VALUES (?,?,?,?,?,?)",
                    (sid, _dumps(skipped), "[]", None, done_at, 0.0),
                )
            over_reason, winner, why = await self._game_over(tx, game_id, ctx, nxt)
            reading = ctx.clock.times(ph.phase).reading
            status = "final" if over_reason else "pending"
            nid = await tx.execute(
                "INSERT INTO phases (game_id, phase, position_json, status, window, opens_at,"
                " created_at) VALUES (?,?,?,?,?,?,?)",
                (
                    game_id,
                    str(nxt.phase),
                    _dumps(result["next"]),
                    status,
                    "closed" if over_reason else "reading",
                    done_at + reading,
                    done_at,
                ),
            )
            await tx.execute("UPDATE games SET current_phase_id=? WHERE id=?", (nid, game_id))
            await self._audit(
                tx,
                game_id,
                done_at,
                "clock",
                "adjudicated",
                phase=ph.name,
                next=str(nxt.phase),
                orders=len(orders_doc),
            )
            centers = {p.value: len(nxt.centers_of(p)) for p in nxt.powers() if nxt.centers_of(p)}
            key = f"{game_id}:{ph.id}"
            await self._emit(
                tx,
                f"{key}:results",
                game_id,
                EventKind.RESULTS_READY,
                done_at,
                {
                    "lines": self._result_lines(ctx, outcome),
                    "next_phase": str(nxt.phase),
                    "centers": centers,
                    "reading_until": done_at + reading,
                    "map_error": result["map_error"],
                    "skipped": [s["phase"] for s in result["skipped"]],
                },
                ph.id,
            )
            if over_reason:
                await self._finish(tx, game_id, done_at, over_reason, winner, centers, "clock", why)
            elif why:  # house: the GM may now declare a draw (after a warning)
                await self._emit(
                    tx,
                    f"{key}:draw_available",
                    game_id,
                    EventKind.DRAW_AVAILABLE,
                    done_at,
                    {"reason": why},
                    ph.id,
                )
            else:
                await self._set_press(
                    tx,
                    game_id,
                    ctx.clock.press_open(ph.phase, "reading"),
                    f"{key}:reading",
                    done_at,
                    ph.id,
                    "reading",
                )
            self._fault("adjudicate.before_commit")
        self.timings.append(
            {
                "adjudicate": result["adjudicate_seconds"],
                "render": result["render_seconds"],
                "compute": compute,
            }
        )
        self._fault("adjudicate.after_commit")

    async def _game_over(
        self, tx: Tx, game_id: int, ctx: _Ctx, nxt: Position
    ) -> tuple[str | None, str | None, str]:
        """(end kind, winner, reason) at the end of a game year, by the rule set's end
        conditions (bot.core.endgame): solo, the clock's last year, stalemate."""
        if not (nxt.phase.kind is PhaseKind.MOVEMENT and nxt.phase.season is Season.SPRING):
            return None, None, ""
        from bot.core.endgame import EndKind, check_end, end_rules_for  # noqa: PLC0415

        rows = await tx.fetchall(
            "SELECT phase, position_json FROM phases WHERE game_id = ? AND status IN"
            " ('done', 'final', 'pending', 'open', 'adjudicating') ORDER BY id",
            (game_id,),
        )
        history = [
            position_from_json(json.loads(r["position_json"]))
            for r in rows
            if r["phase"].startswith("S") and r["phase"].endswith("M")
        ]
        history.append(nxt)
        rules = end_rules_for(ctx.rules, years=ctx.clock.years, first_year=ctx.first_year)
        state = check_end(history, rules, ctx.game_map)
        why = (
            render_message(state.message, ctx.lang, ctx.game_map) if state.message else state.reason
        )
        if state.kind is EndKind.DRAW_AVAILABLE:
            return None, None, why
        if not state.ended:
            return None, None, ""
        return state.kind.value, state.winner.value if state.winner else None, why

    async def _finish(  # noqa: PLR0917 - internal helper
        self,
        tx: Tx,
        game_id: int,
        at: float,
        reason: str,
        winner: str | None,
        centers: dict[str, int],
        actor: str,
        why: str = "",
    ) -> None:
        await tx.execute(
            "UPDATE games SET status='over', ended_at=?, end_reason=? WHERE id=?",
            (at, reason, game_id),
        )
        await self._audit(tx, game_id, at, actor, "game_over", reason=reason, winner=winner)
        await self._emit(
            tx,
            f"{game_id}:over",
            game_id,
            EventKind.GAME_OVER,
            at,
            {"reason": reason, "winner": winner, "centers": centers, "explanation": why},
        )
        await self._set_press(tx, game_id, True, f"{game_id}:over", at, None, "over")

    # --- delivery ---------------------------------------------------------------------

    async def deliver(self) -> int:
        """Deliver undelivered events in order; returns how many were delivered. A failing
        notifier holds back that game's later events until the next try.

        One delivery runs at a time; a call made while one runs (from another game's step,
        or from the notifier itself calling the service) only asks it to look again, so a
        notifier may call any service method without deadlock."""
        if self._delivering:
            self._deliver_again = True
            return 0
        self._delivering = True
        total = 0
        try:
            while True:
                self._deliver_again = False
                total += await self._deliver_pending()
                if not self._deliver_again:
                    return total
        finally:
            self._delivering = False

    async def _deliver_pending(self) -> int:
        """One pass over the events pending now."""
        delivered = 0
        self._retry_delivery_at = None
        rows = await self.store.fetchall(
            "SELECT * FROM outbox WHERE delivered_at IS NULL ORDER BY id"
        )
        blocked: set[int] = set()
        for r in rows:
            gid = int(r["game_id"])
            if gid in blocked:
                continue
            try:
                event = await self._event(r)
            except (CorruptGameError, ValueError, KeyError) as exc:
                log.error("event %s unreadable: %s", r["key"], exc)
                blocked.add(gid)
                continue
            async with self.store.tx(durable=False) as tx:
                await tx.execute(
                    "UPDATE outbox SET attempts = attempts + 1 WHERE id = ?", (r["id"],)
                )
            try:
                # A notifier that hangs must not hold every other game's events.
                await asyncio.wait_for(self.notifier.notify(event), NOTIFY_TIMEOUT)
            except (TransientDeliveryError, TimeoutError) as exc:
                # An outage: one line, no traceback (it is retried, nothing is lost).
                why = str(exc) or type(exc).__name__
                log.warning("delivery of %s deferred (%s); retrying in 5 s", event.key, why)
                blocked.add(gid)
                self._retry_delivery_at = self.clock.now() + 5.0
                continue
            except Exception:
                log.exception("notifier failed on %s; will retry", event.key)
                blocked.add(gid)
                self._retry_delivery_at = self.clock.now() + 5.0
                continue
            self._fault("deliver.after_notify")
            async with self.store.tx(durable=False) as tx:
                await tx.execute(
                    "UPDATE outbox SET delivered_at=? WHERE id=?", (self.clock.now(), r["id"])
                )
            delivered += 1
        return delivered

    async def _event(self, r: Any) -> Event:
        png = None
        outcome = None
        phase_name = None
        if r["phase_id"] is not None:
            prow = await self.store.fetchone(
                "SELECT phase FROM phases WHERE id=?", (r["phase_id"],)
            )
            phase_name = prow["phase"] if prow else None
        kind = EventKind(r["kind"])
        if kind is EventKind.RESULTS_READY:
            res = await self.store.fetchone(
                "SELECT outcome_json, png FROM results WHERE phase_id=?", (r["phase_id"],)
            )
            if res is not None:
                png = res["png"]
                outcome = codec.outcome_from_json(json.loads(res["outcome_json"]))
        return Event(
            int(r["id"]),
            r["key"],
            int(r["game_id"]),
            kind,
            phase_name,
            json.loads(r["payload_json"]),
            float(r["created_at"]),
            png,
            outcome,
            int(r["attempts"]),
        )

    # --- end-game votes (bot.core.votes) ---------------------------------------------

    async def _votebook(self, tx: Tx, game_id: int, ctx: _Ctx) -> Any:
        from bot.core.votes import VoteBook, VoteError, policy_for_rules  # noqa: PLC0415

        row = await tx.fetchone("SELECT state_json FROM votebooks WHERE game_id = ?", (game_id,))
        policy = policy_for_rules(ctx.rules)
        if row is None:
            years = ctx.clock.years or ctx.rules.end.years
            last = ctx.first_year + years - 1 if years else None
            return VoteBook(policy, (), last)
        try:
            return VoteBook.from_state(json.loads(row["state_json"]), policy)
        except (ValueError, VoteError) as exc:
            raise CorruptGameError(f"game #{game_id}: stored votes unreadable ({exc})") from None

    @staticmethod
    async def _save_book(tx: Tx, game_id: int, book: Any, now: float) -> None:
        await tx.execute(
            "INSERT OR REPLACE INTO votebooks (game_id, state_json, updated_at) VALUES (?,?,?)",
            (game_id, _dumps(book.to_state()), now),
        )

    async def _moment(self, tx: Tx, game_id: int, ph: _Phase) -> Any:
        """Where the game stands for the vote rules: during the reading window the moment is
        the phase just adjudicated, its orders read."""
        from bot.core.votes import Moment  # noqa: PLC0415

        if ph.status == "pending":
            prev = await tx.fetchone(
                "SELECT phase FROM phases WHERE game_id = ? AND id < ? AND status = 'done'"
                " ORDER BY id DESC LIMIT 1",
                (game_id, ph.id),
            )
            if prev is not None:
                return Moment(Phase.parse(prev["phase"]), orders_read=True)
        return Moment(ph.phase, orders_read=ph.status in ("adjudicating", "done"))

    async def _vote_changed(  # noqa: PLR0917 - internal helper
        self,
        tx: Tx,
        game_id: int,
        ctx: _Ctx,
        book: Any,
        vote: Any,
        now: float,
        ph: _Phase | None,
    ) -> None:
        """Announce a vote's state; a passed vote ends the game (bot.core.endgame)."""
        from bot.core.endgame import end_by_vote  # noqa: PLC0415
        from bot.core.votes import announce  # noqa: PLC0415

        kind = EventKind.VOTE_OPENED if vote.is_open else EventKind.VOTE_CLOSED
        await self._emit(
            tx,
            f"{game_id}:vote:{vote.id}:{kind.value}",
            game_id,
            kind,
            now,
            {
                "record": vote.public_record(book.policy),
                "text": announce(vote, book.policy, ctx.lang, ctx.game_map),
            },
            ph.id if ph else None,
        )
        if vote.status.value != "passed":
            return
        state = end_by_vote(vote, vote.closed.year if vote.closed else None)
        centers: dict[str, int] = {}
        if ph is not None:
            position = self._position(ph)
            centers = {
                p.value: len(position.centers_of(p))
                for p in position.powers()
                if position.centers_of(p)
            }
            await tx.execute(
                "UPDATE phases SET status='final', window='closed' WHERE id=?"
                " AND status IN ('pending', 'open', 'adjudicating')",
                (ph.id,),
            )
        await self._finish(
            tx,
            game_id,
            now,
            state.kind.value,
            state.winner.value if state.winner else None,
            centers,
            "vote",
            render_message(state.message, ctx.lang, ctx.game_map)
            if state.message
            else state.reason,
        )

    async def _vote_step(
        self,
        game_id: int,
        actor: str,
        action: str,
        step: Callable[[Tx, _Phase, Any, Any], Awaitable[Any]],
        **detail: Any,
    ) -> dict[str, Any]:
        """One change to the game's votes, in one transaction with its audit entry (never a
        ballot's content) and its events; returns the vote's public record."""
        from bot.core.votes import VoteError  # noqa: PLC0415

        ctx = await self._load_ctx(game_id)
        async with self._lock(game_id):
            now = self.clock.now()
            async with self.store.tx() as tx:
                ph = await self._current_phase(game_id, tx)
                if ph is None:
                    raise InvalidStateError.of("no_phase", ctx.lang, game=game_id)
                book = await self._votebook(tx, game_id, ctx)
                try:
                    book, vote = await step(tx, ph, book, await self._moment(tx, game_id, ph))
                except VoteError as exc:
                    text = exc.localized(ctx.lang, ctx.game_map)
                    raise VoteRefusedError.rendered(exc.message, text, ctx.lang) from None
                await self._save_book(tx, game_id, book, now)
                await self._audit(tx, game_id, now, actor, action, vote=vote.id, **detail)
                if action != "vote.ballot" or not vote.is_open:
                    await self._vote_changed(tx, game_id, ctx, book, vote, now, ph)
            await self._reschedule(game_id)
        await self.deliver()
        return dict(vote.public_record(book.policy))

    async def propose_vote(
        self, game_id: int, user: str, kind: str, powers: Sequence[Power | str] = ()
    ) -> dict[str, Any]:
        """Propose a draw (of all survivors, or of `powers` where the rules allow) or a
        concession (`powers` = the one winner). Returns the public record (no author)."""
        from bot.core.endgame import survivors  # noqa: PLC0415
        from bot.core.votes import VoteKind  # noqa: PLC0415

        power = await self._player_power(game_id, user)
        row, ctx, _ph = await self._open_phase_for_orders(game_id)
        try:
            vote_kind = VoteKind(kind)
        except ValueError:
            raise VoteRefusedError.of("unknown_vote", row["lang"], kind=kind) from None
        named = [_power(p, ctx.game_map) for p in powers]

        async def step(tx: Tx, ph: _Phase, book: Any, moment: Any) -> Any:
            players = set(await self._players(tx, game_id))
            alive = [p for p in survivors(self._position(ph)) if p in players]
            return book.propose(power, vote_kind, moment=moment, survivors=alive, powers=named)

        return await self._vote_step(game_id, user, "vote.propose", step, kind=vote_kind.value)

    async def cast_ballot(
        self, game_id: int, user: str, vote_id: int, ballot: str
    ) -> dict[str, Any]:
        """Vote yes / no / abstain (secret: only the tally is ever published, where the
        rules say so). Returns the vote's public record."""
        from bot.core.votes import Ballot  # noqa: PLC0415

        power = await self._player_power(game_id, user)
        row, _ctx, _ph = await self._open_phase_for_orders(game_id)
        try:
            choice = Ballot(ballot)
        except ValueError:
            raise VoteRefusedError.of("unknown_ballot", row["lang"], ballot=ballot) from None

        async def step(_tx: Tx, _ph: _Phase, book: Any, moment: Any) -> Any:
            return book.cast(vote_id, power, choice, moment=moment)

        return await self._vote_step(game_id, user, "vote.ballot", step)

    async def refuse_vote(self, game_id: int, gm: str, vote_id: int, reason: str) -> dict[str, Any]:
        """GM: decline a repetitive or humorous proposal (house-rules IX(5))."""
        await self._require_gm(game_id, gm)

        async def step(_tx: Tx, ph: _Phase, book: Any, _moment: Any) -> Any:
            return book.refuse(vote_id, reason, phase=ph.phase)

        return await self._vote_step(game_id, gm, "vote.refuse", step, reason=reason)

    async def votes(self, game_id: int) -> list[dict[str, Any]]:
        """Every vote of the game as its public record (no author, no voter)."""
        await self._game_row(game_id)
        ctx = await self._load_ctx(game_id)
        async with self.store.tx() as tx:
            book = await self._votebook(tx, game_id, ctx)
        return [dict(r) for r in book.public_records()]

    async def _close_votes_due(
        self, tx: Tx, game_id: int, ctx: _Ctx, ph: _Phase, now: float
    ) -> bool:
        """Votes are due with the orders (house IX(4)): at the deadline the open vote is
        decided, an uncast ballot counting against. True if a passed vote ended the game."""
        row = await tx.fetchone("SELECT state_json FROM votebooks WHERE game_id = ?", (game_id,))
        if row is None or '"open"' not in row["state_json"]:
            return False
        book = await self._votebook(tx, game_id, ctx)
        book, vote = book.close_due(ph.phase)
        if vote is None:
            return False
        await self._save_book(tx, game_id, book, now)
        await self._vote_changed(tx, game_id, ctx, book, vote, now, ph)
        return bool(vote.status.value == "passed")

    # --- GM and tournament-director operations ---------------------------------------

    async def _gm_event(  # noqa: PLR0917 - internal helper
        self,
        tx: Tx,
        game_id: int,
        at: float,
        gm: str,
        action: str,
        kind: EventKind | None,
        payload: dict[str, Any],
        phase_id: int | None = None,
    ) -> None:
        aid = await self._audit(tx, game_id, at, gm, action, **payload)
        if kind is not None:
            await self._emit(tx, f"{game_id}:audit:{aid}", game_id, kind, at, payload, phase_id)

    async def pause(self, game_id: int, gm: str) -> None:
        row = await self._require_gm(game_id, gm)
        if row["status"] != "active":
            raise InvalidStateError.of(
                "not_running_is", row["lang"], game=game_id, status=row["status"]
            )
        async with self._lock(game_id):
            now = self.clock.now()
            async with self.store.tx() as tx:
                await tx.execute(
                    "UPDATE games SET status='paused', paused_at=? WHERE id=?", (now, game_id)
                )
                await self._gm_event(tx, game_id, now, gm, "pause", EventKind.GAME_PAUSED, {})
            await self._reschedule(game_id)
        await self.deliver()

    async def resume(self, game_id: int, gm: str) -> None:
        """Resume a paused game; the clock restarts with the time that was left."""
        row = await self._require_gm(game_id, gm)
        if row["status"] != "paused":
            raise InvalidStateError.of("not_paused", row["lang"], game=game_id)
        async with self._lock(game_id):
            now = self.clock.now()
            shift = now - float(row["paused_at"])
            async with self.store.tx() as tx:
                ph = await self._current_phase(game_id, tx)
                if ph is not None:
                    await tx.execute(
                        "UPDATE phases SET opens_at=opens_at+?, writing_at=writing_at+?,"
                        " deadline=deadline+? WHERE id=?",
                        (shift, shift, shift, ph.id),
                    )
                await tx.execute(
                    "UPDATE games SET status='active', paused_at=NULL WHERE id=?", (game_id,)
                )
                deadline = (ph.deadline + shift) if ph and ph.deadline is not None else None
                await self._gm_event(
                    tx,
                    game_id,
                    now,
                    gm,
                    "resume",
                    EventKind.GAME_RESUMED,
                    {"deadline": deadline, "paused_for": shift},
                )
            await self._reschedule(game_id)
        await self.deliver()

    async def extend(self, game_id: int, gm: str, seconds: float) -> float | None:
        """Give the current window `seconds` more (negative shortens); returns the deadline."""
        row = await self._require_gm(game_id, gm)
        async with self._lock(game_id):
            now = self.clock.now()
            async with self.store.tx() as tx:
                ph = await self._current_phase(game_id, tx)
                if ph is None or ph.status not in ("pending", "open"):
                    raise InvalidStateError.of("no_window", row["lang"], game=game_id)
                if ph.status == "pending":
                    await tx.execute(
                        "UPDATE phases SET opens_at=opens_at+? WHERE id=?", (seconds, ph.id)
                    )
                elif ph.window == "negotiation":
                    await tx.execute(
                        "UPDATE phases SET writing_at=writing_at+?, deadline=deadline+? WHERE id=?",
                        (seconds, seconds, ph.id),
                    )
                else:
                    await tx.execute(
                        "UPDATE phases SET deadline=deadline+? WHERE id=?", (seconds, ph.id)
                    )
                new = await tx.fetchone(
                    "SELECT opens_at, writing_at, deadline FROM phases WHERE id=?", (ph.id,)
                )
                assert new is not None
                await self._gm_event(
                    tx,
                    game_id,
                    now,
                    gm,
                    "extend",
                    EventKind.DEADLINE_CHANGED,
                    {
                        "seconds": seconds,
                        "opens_at": new["opens_at"],
                        "writing_at": new["writing_at"],
                        "deadline": new["deadline"],
                    },
                    ph.id,
                )
            await self._reschedule(game_id)
        await self.deliver()
        return None if new["deadline"] is None else float(new["deadline"])

    async def adjudicate_now(self, game_id: int, gm: str) -> None:
        """Close the open phase now and adjudicate it (or open a pending one now)."""
        row = await self._require_gm(game_id, gm)
        if row["status"] not in ("active", "paused"):
            raise InvalidStateError.of("not_running", row["lang"], game=game_id)
        ctx = await self._load_ctx(game_id)
        async with self._lock(game_id):
            now = self.clock.now()
            ph = await self._current_phase(game_id)
            if ph is None:
                raise InvalidStateError.of("no_phase", row["lang"], game=game_id)
            async with self.store.tx() as tx:
                await self._gm_event(
                    tx, game_id, now, gm, "adjudicate_now", None, {"phase": ph.name}
                )
                if ph.status == "pending":
                    await tx.execute("UPDATE phases SET opens_at=? WHERE id=?", (now, ph.id))
            if ph.status == "pending":
                await self._advance_locked(game_id)
            else:
                await self._adjudicate(game_id, ctx, ph, force=True)
            await self._reschedule(game_id)
        await self.deliver()

    async def rollback(self, game_id: int, gm: str) -> str:
        """Reopen the last adjudicated phase (its standing orders carried over); returns it."""
        row = await self._require_gm(game_id, gm)
        async with self._lock(game_id):
            now = self.clock.now()
            async with self.store.tx() as tx:
                cur = await self._current_phase(game_id, tx)
                if cur is None:
                    raise InvalidStateError.of("no_rollback", row["lang"], game=game_id)
                if cur.status == "adjudicating":
                    raise InvalidStateError.of("adjudicating", row["lang"])
                prev = await tx.fetchone(
                    "SELECT * FROM phases WHERE game_id=? AND id<? AND status='done'"
                    " ORDER BY id DESC LIMIT 1",
                    (game_id, cur.id),
                )
                if prev is None:
                    raise InvalidStateError.of("nothing_adjudicated", row["lang"], game=game_id)
                await tx.execute(
                    "UPDATE phases SET status='rolled_back', window='closed'"
                    " WHERE game_id=? AND id>=?",
                    (game_id, prev["id"]),
                )
                nid = await tx.execute(
                    "INSERT INTO phases (game_id, phase, position_json, status, window,"
                    " opens_at, created_at) VALUES (?,?,?,?,?,?,?)",
                    (game_id, prev["phase"], prev["position_json"], "pending", "reading", now, now),
                )
                for s in (await self._standing(int(prev["id"]), tx)).values():
                    await tx.execute(
                        "INSERT INTO submissions (phase_id, power, user_id, kind, text,"
                        " accepted, orders_json, reply_json, submitted_at)"
                        " VALUES (?,?,?,?,?,?,?,?,?)",
                        (
                            nid,
                            s["power"],
                            s["user_id"],
                            "carried",
                            s["text"],
                            1,
                            s["orders_json"],
                            s["reply_json"],
                            now,
                        ),
                    )
                await tx.execute(
                    "UPDATE games SET current_phase_id=?, status=CASE WHEN status='over'"
                    " THEN 'active' ELSE status END, end_reason=NULL, ended_at=NULL WHERE id=?",
                    (nid, game_id),
                )
                await self._gm_event(
                    tx,
                    game_id,
                    now,
                    gm,
                    "rollback",
                    EventKind.PHASE_ROLLED_BACK,
                    {"phase": prev["phase"], "from": cur.name},
                    nid,
                )
            await self._reschedule(game_id)
        await self.deliver()
        return str(prev["phase"])

    async def replace_player(self, game_id: int, gm: str, power: Power | str, user: str) -> None:
        row = await self._require_gm(game_id, gm)
        game_map = self.engine.load_map(row["variant"])
        chosen = _power(power, game_map)
        now = self.clock.now()
        async with self.store.tx() as tx:
            other = await tx.fetchone(
                "SELECT power FROM players WHERE game_id=? AND user_id=?", (game_id, user)
            )
            if other is not None and other["power"] != chosen.value:
                mine = named(game_map, Power(other["power"]))
                raise InvalidStateError.of("user_plays", row["lang"], power=mine)
            old = await tx.fetchone(
                "SELECT user_id FROM players WHERE game_id=? AND power=?", (game_id, chosen.value)
            )
            await tx.execute(
                "DELETE FROM players WHERE game_id=? AND power=?", (game_id, chosen.value)
            )
            await tx.execute(
                "INSERT INTO players (game_id, power, user_id, joined_at) VALUES (?,?,?,?)",
                (game_id, chosen.value, user, now),
            )
            await self._gm_event(
                tx,
                game_id,
                now,
                gm,
                "replace_player",
                EventKind.PLAYER_REPLACED,
                {
                    "power": chosen.value,
                    "old_user": old["user_id"] if old else None,
                    "new_user": user,
                },
            )
        await self.deliver()

    async def end_game(self, game_id: int, gm: str, reason: str = "ended by the GM") -> None:
        row = await self._require_gm(game_id, gm)
        if row["status"] == "over":
            raise InvalidStateError.of("game_already_over", row["lang"], game=game_id)
        async with self._lock(game_id):
            now = self.clock.now()
            async with self.store.tx() as tx:
                ph = await self._current_phase(game_id, tx)
                centers: dict[str, int] = {}
                if ph is not None:
                    position = self._position(ph)
                    centers = {
                        p.value: len(position.centers_of(p))
                        for p in position.powers()
                        if position.centers_of(p)
                    }
                    if ph.status in ("pending", "open"):
                        await tx.execute(
                            "UPDATE phases SET status='final', window='closed' WHERE id=?", (ph.id,)
                        )
                await self._finish(tx, game_id, now, reason, None, centers, gm)
            await self._reschedule(game_id)
        await self.deliver()
