"""The shared kernel of the table service (see `Table`) and its small pure helpers."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import socket
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from bot.core.map import GameMap
from bot.core.model import (
    Location,
    ModelError,
    Phase,
    Position,
    Power,
    UnitType,
)
from bot.core.names import NameTable
from bot.core.outcome import Outcome
from bot.core.outcome import describe as describe_result
from bot.core.records.jsonio import FormatError, position_from_json
from bot.core.rules import RuleSet
from bot.service.clock.clocks import Clock
from bot.service.clock.lateness import GRACE, HOLD, POLL, Intake
from bot.service.clock.presets import ClockPreset
from bot.service.engine import Engine
from bot.service.errors import (
    ConfigError,
    CorruptGameError,
    InvalidStateError,
    LateSubmissionError,
    NotFoundError,
    PermissionDeniedError,
    ServiceError,
)
from bot.service.events import EventKind
from bot.service.storage import Repository, Storage
from bot.service.storage.rows import GameRow, PhaseRow, SubmissionRow
from bot.service.texts import t

log = logging.getLogger(__name__)

GAME_LOCK_POLL = 0.02  # seconds between tries for a game another process has locked
FRESH_RESULTS = 64  # results kept for their delivery (`Table.fresh_results`): ~10 MB
LEASE = 30.0  # seconds a claim lasts unless its process renews it (a dead one's runs out)


@dataclass
class GameCtx:
    game_map: GameMap
    rules: RuleSet
    clock: ClockPreset
    lang: str
    variant: str
    rules_name: str
    early: bool
    first_year: int
    # A tournament table: its round's start, from which every table's movement deadlines
    # are computed (bot/service/clock/rounds.py, `round_times`); None for other games.
    round_start: float | None = None


@dataclass
class PhaseState:
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


def parse_power(value: Power | str, game_map: GameMap) -> Power:
    if isinstance(value, Power):
        return value
    try:
        return game_map.parse_power(value)
    except ModelError:
        raise ServiceError.of("unknown_power", value=value) from None


def dumps(doc: Any) -> str:
    return json.dumps(doc, ensure_ascii=False, sort_keys=True)


def reminder_key(game_id: int, phase_id: int, offset: float, deadline: float) -> str:
    # The deadline is part of the key: after an extension the reminders come again.
    return f"{game_id}:{phase_id}:reminder:{offset:g}:{deadline:.0f}"


def centre_counts(position: Position) -> dict[str, int]:
    """Centres per power that has any, in the board's power order: what the end of a game
    records."""
    return {
        p.value: len(position.centers_of(p)) for p in position.powers() if position.centers_of(p)
    }


def unit_text(names: NameTable, utype: UnitType | None, loc: Location, lang: str) -> str:
    """`A TOU`, `F STP/CS`: a unit in the game's nomenclature."""
    where = names.abbreviation(loc.province, lang)
    if loc.coast is not None:
        where += "/" + names.coast_abbreviation(loc.coast, lang)
    return f"{utype.value} {where}" if utype is not None else where


def result_lines(
    engine: Engine, game_map: GameMap, lang: str, outcome: Outcome
) -> list[dict[str, Any]]:
    """The results event's lines (pure: computed with the adjudication, off the loop)."""
    return [
        {
            "power": r.power.value if r.power else None,
            "order": engine.render_order(r.order, lang, game_map),
            "succeeded": r.succeeded,
            "reason": r.reason.value,
            "detail": describe_result(r, lang, game_map),
            "implied": r.implied,
        }
        for r in outcome.results
    ]


_RULES: dict[tuple[Engine, str], RuleSet] = {}


def cached_rules(engine: Engine, name: str) -> RuleSet:
    """Rule sets by (engine, name), loaded once per process (also in pool workers)."""
    key = (engine, name)
    rules = _RULES.get(key)
    if rules is None:
        rules = _RULES[key] = engine.load_rules(name)
    return rules


class Table:
    """What every part of the service shares: the storage, the clock, the engine, the
    cached settings of each game, the per-game locks and the due times; and the small steps
    they all take (read a game, its phase, its players; audit; emit an event)."""

    def __init__(
        self, storage: Storage, clock: Clock, engine: Engine, grace: float = GRACE
    ) -> None:
        self.storage = storage
        # seconds a phase stays open after its deadline (bot.service.clock.lateness)
        self.grace = grace
        self.intake = Intake(clock)  # the sets being read (a phase waits for those in time)
        self.intake.then = self._caught_up
        self._after_catch_up: set[int] = set()  # games whose close waits for the catch-up
        self.clock = clock
        self.engine = engine
        self._ctx: dict[int, GameCtx] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self.broken: dict[int, str] = {}  # games stopped: why their rows cannot be read
        self.errors: dict[int, str] = {}  # last failed clock step per game (retried)
        self.due: dict[int, float] = {}  # when each game's clock next has something to do
        self.wake = asyncio.Event()  # set when `due` changed: the scheduler looks again
        self.started_at = clock.now()  # openings due before this were missed while down
        # This process among those sharing the database (claims name it, notices carry it).
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"
        self.lease = LEASE
        # phase id -> (map, outcome JSON) just committed, for the results event's delivery
        # (not read back); FRESH_RESULTS at most (one delivered elsewhere stays till pushed out).
        self.fresh_results: dict[int, tuple[bytes | None, str]] = {}

    @asynccontextmanager
    async def lock(self, game_id: int) -> AsyncIterator[None]:
        """This game alone: within the process (an asyncio lock) and, on a shared database,
        across processes (the storage's advisory lock per game, issue 17)."""
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        async with lock:
            if not self.storage.shared:
                yield
                return
            # Another process is on this game: its lock is the server's, nothing to wait on
            # here but the next try.
            while not await self.storage.lock_game(game_id):  # noqa: ASYNC110
                await asyncio.sleep(GAME_LOCK_POLL)
            try:
                yield
            finally:
                with contextlib.suppress(ServiceError):  # (a lost connection dropped it)
                    await self.storage.unlock_game(game_id)

    def keep_fresh(self, phase_id: int, png: bytes | None, outcome_json: str) -> None:
        """The results of a phase just committed, for its delivery (`fresh_results`)."""
        while len(self.fresh_results) >= FRESH_RESULTS:
            self.fresh_results.pop(next(iter(self.fresh_results)))
        self.fresh_results[phase_id] = (png, outcome_json)

    async def game_row(self, game_id: int) -> GameRow:
        row = await self.storage.game(game_id)
        if row is None:
            raise NotFoundError.of("no_game", game=game_id)
        if game_id in self.broken:
            why = self.broken[game_id]
            raise CorruptGameError.of("game_unreadable", row.lang, game=game_id, why=why)
        return row

    async def load_ctx(self, game_id: int) -> GameCtx:
        ctx = self._ctx.get(game_id)
        if ctx is not None:
            return ctx
        row = await self.storage.game(game_id)
        if row is None:
            raise NotFoundError.of("no_game", game=game_id)
        try:
            clock = ClockPreset.from_json(json.loads(row.clock_json))
            options = json.loads(row.options_json)
        except (ValueError, TypeError, KeyError, ConfigError) as exc:
            raise CorruptGameError(f"game #{game_id}: stored settings unreadable ({exc})") from None
        game_map = self.engine.load_map(row.variant)
        rules = cached_rules(self.engine, row.rules)
        early = bool(options.get("early_adjudication", clock.early_adjudication))
        ctx = GameCtx(
            game_map,
            rules,
            clock,
            row.lang,
            row.variant,
            row.rules,
            early,
            int(options.get("first_year", game_map.start.phase.year)),
            _round_start(row.meta_json),
        )
        self._ctx[game_id] = ctx
        return ctx

    @staticmethod
    def phase_from_row(row: PhaseRow) -> PhaseState:
        try:
            phase = Phase.parse(row.phase)
        except ModelError as exc:
            raise CorruptGameError(f"game #{row.game_id}: bad phase row ({exc})") from None
        return PhaseState(
            row.id,
            row.game_id,
            phase,
            row.position_json,
            row.status,
            row.window,
            row.opens_at,
            row.writing_at,
            row.deadline,
        )

    async def current_phase(self, game_id: int, tx: Repository | None = None) -> PhaseState | None:
        row = await (tx or self.storage).current_phase(game_id)
        return None if row is None else self.phase_from_row(row)

    def position_of(self, ph: PhaseState) -> Position:
        try:
            ctx = self._ctx.get(ph.game_id)
            return position_from_json(json.loads(ph.position_json), ctx.game_map if ctx else None)
        except (ValueError, FormatError) as exc:
            raise CorruptGameError(
                f"game #{ph.game_id}: the stored position of {ph.name} is unreadable ({exc})"
            ) from None

    @staticmethod
    async def players(tx: Repository, game_id: int) -> dict[Power, str]:
        return {Power(p): u for p, u in (await tx.players(game_id)).items()}

    async def player_power(self, game_id: int, user: str) -> Power:
        power = await self.storage.power_of(game_id, user)
        if power is None:
            lang = await self.lang_of(game_id)
            raise PermissionDeniedError.of("not_player", lang, game=game_id)
        return Power(power)

    async def lang_of(self, game_id: int) -> str:
        """The game's language for an error message ("en" for a game that does not exist)."""
        ctx = self._ctx.get(game_id)
        if ctx is not None:
            return ctx.lang
        row = await self.storage.game(game_id)
        return row.lang if row is not None else "en"

    async def require_gm(self, game_id: int, user: str) -> GameRow:
        row = await self.game_row(game_id)
        if row.gm != user:
            raise PermissionDeniedError.of("gm_only", row.lang, game=game_id)
        return row

    @staticmethod
    async def audit(
        tx: Repository, game_id: int, at: float, actor: str, action: str, **detail: Any
    ) -> int:
        return await tx.add_audit(game_id, at, actor, action, dumps(detail))

    @staticmethod
    async def emit(  # noqa: PLR0917 - internal helper
        tx: Repository,
        key: str,
        game_id: int,
        kind: EventKind,
        at: float,
        payload: dict[str, Any],
        phase_id: int | None = None,
    ) -> None:
        await tx.add_event(key, game_id, kind.value, dumps(payload), phase_id, at)

    async def set_press(  # noqa: PLR0917 - internal helper
        self,
        tx: Repository,
        game_id: int,
        press_open: bool,
        key: str,
        at: float,
        phase_id: int | None,
        window: str,
    ) -> None:
        row = await tx.game(game_id)
        if row is not None and row.press_open != press_open:
            await tx.set_press_open(game_id, press_open)
            kind = EventKind.PRESS_UNLOCKED if press_open else EventKind.PRESS_LOCKED
            await self.emit(
                tx, f"{key}:{kind.value}", game_id, kind, at, {"window": window}, phase_id
            )

    async def standing(
        self, phase_id: int, tx: Repository | None = None
    ) -> dict[Power, SubmissionRow]:
        """The latest accepted submission of each power in a phase (what stands)."""
        rows = await (tx or self.storage).standing(phase_id)
        return {Power(r.power): r for r in rows if json.loads(r.orders_json)}

    async def open_phase_for_orders(self, game_id: int) -> tuple[GameRow, GameCtx, PhaseState]:
        row = await self.game_row(game_id)
        if row.status in ("forming", "over"):
            key = "not_started" if row.status == "forming" else "game_over"
            raise InvalidStateError.of(key, row.lang, game=game_id)
        ctx = await self.load_ctx(game_id)
        ph = await self.current_phase(game_id)
        if ph is None:
            raise InvalidStateError.of("no_phase_open", ctx.lang, game=game_id)
        return row, ctx, ph

    def closes_at(self, deadline: float) -> float:
        """When a phase with this deadline stops taking sets sent before it."""
        return deadline + self.grace

    async def held(self, game_id: int, deadline: float, now: float) -> bool:
        """Whether the phase, due to close, waits for the bot to catch up with its gateway or
        for a set that arrived in time and is still being read (bot.service.clock.lateness.Intake;
        at most HOLD seconds after the grace)."""
        closes = self.closes_at(deadline)
        if not closes <= now < closes + HOLD:
            return False
        # With a grace, until the bot has read its gateway up to then (bot.service.clock.lateness)
        mark = self.intake.caught_up(closes) if self.grace > 0 else 0
        if mark is None:
            return True
        if not self.intake:
            return False
        users = set((await self.storage.players(game_id)).values())
        return self.intake.holds(users, deadline, closes, mark)

    async def _closing(self, game_id: int, deadline: float, now: float) -> float:
        """When to look again at a phase's close: at its close, POLL seconds later while a
        set is being read, or once the bot has caught up with its gateway (no polling)."""
        closes = self.closes_at(deadline)
        if not await self.held(game_id, deadline, now):
            return closes
        if self.grace > 0 and self.intake.caught_up(closes) is None:
            self._after_catch_up.add(game_id)
            return closes + HOLD
        return now + POLL

    def _caught_up(self) -> None:
        """The bot has caught up with its gateway: the phases waiting for it are due now."""
        now = self.clock.now()
        for game_id in self._after_catch_up:
            if game_id in self.due:
                self.due[game_id] = min(self.due[game_id], now)
        self._after_catch_up.clear()  # (`reschedule` sees a catch-up ended while it read)
        self.wake.set()

    def late_error(self, ctx: GameCtx, ph: PhaseState) -> LateSubmissionError:
        if ph.status == "pending":
            return LateSubmissionError(t("not_open", ctx.lang, phase=ph.phase.describe(ctx.lang)))
        return LateSubmissionError(t("late", ctx.lang, phase=ph.phase.describe(ctx.lang)))

    def result_lines(self, ctx: GameCtx, outcome: Outcome) -> list[dict[str, Any]]:
        return result_lines(self.engine, ctx.game_map, ctx.lang, outcome)

    async def finish(  # noqa: PLR0917 - internal helper
        self,
        tx: Repository,
        game_id: int,
        at: float,
        reason: str,
        winner: str | None,
        centers: dict[str, int],
        actor: str,
        why: str = "",
    ) -> None:
        await tx.end_game(game_id, at, reason)
        await self.audit(tx, game_id, at, actor, "game_over", reason=reason, winner=winner)
        await self.emit(
            tx,
            f"{game_id}:over",
            game_id,
            EventKind.GAME_OVER,
            at,
            {"reason": reason, "winner": winner, "centers": centers, "explanation": why},
        )
        await self.set_press(tx, game_id, True, f"{game_id}:over", at, None, "over")

    async def reminders_sent(self, game_id: int, phase_id: int) -> set[str]:
        return await self.storage.event_keys(game_id, phase_id, EventKind.REMINDER_DUE.value)

    async def next_due(self, game_id: int) -> float | None:
        row = await self.storage.game(game_id)
        if row is None or row.status != "active" or game_id in self.broken:
            return None
        ph = await self.current_phase(game_id)
        if ph is None:
            return None
        if ph.status == "pending":
            return ph.opens_at
        if ph.status == "adjudicating":
            return self.clock.now()
        if ph.status != "open" or ph.deadline is None:
            return None
        now = self.clock.now()
        times = [await self._closing(game_id, ph.deadline, now)]
        if ph.window == "negotiation" and ph.writing_at is not None:
            times.append(ph.writing_at)
        ctx = await self.load_ctx(game_id)
        sent = await self.reminders_sent(game_id, ph.id)
        # Once the deadline passed (the grace), a reminder not sent never will be: not due.
        for off in ctx.clock.reminders if now < ph.deadline else ():
            key = reminder_key(game_id, ph.id, off, ph.deadline)
            if key not in sent and ph.deadline - off > (ph.opens_at or 0):
                times.append(ph.deadline - off)
        return min(times)

    async def reschedule(self, game_id: int, *, announce: bool = True) -> None:
        """Read when this game's clock is next due; with `announce`, tell the other
        processes sharing the database to read it again too (LISTEN/NOTIFY)."""
        catch_ups = self.intake.catch_ups
        due = await self.next_due(game_id)
        if due is not None and self.intake.catch_ups != catch_ups:
            due = min(due, self.clock.now())  # caught up with the gateway meanwhile: look again
        if due is None:
            self.due.pop(game_id, None)
        else:
            self.due[game_id] = due
        self.wake.set()
        if announce and self.storage.shared:
            await self.storage.announce(game_id, self.owner, due)

    async def claim(self, game_id: int, kind: str, phase_id: int | None = None) -> float | None:
        """Take this game's `kind` claim for this process (None), or learn when to look
        again (another live process has it). Always free on a database of one process."""
        if not self.storage.shared:
            return None
        now = self.clock.now()
        # Not durable: a claim lost with the server is taken again (the work it guards has
        # its own locks and keys).
        async with self.storage.tx(durable=False) as tx:
            return await tx.claim(
                game_id, kind, self.owner, now=now, until=now + self.lease, phase_id=phase_id
            )

    async def release(self, game_id: int, kind: str) -> None:
        if self.storage.shared:
            async with self.storage.tx(durable=False) as tx:
                await tx.release_claim(game_id, kind, self.owner)

    def changed_elsewhere(self, game_id: int, due: float | None) -> None:
        """Another process changed this game and says when it is next due: its settings are
        read again when needed, its due time is taken as told (no read: a burst of notices
        must not become a burst of queries in every process)."""
        self._ctx.pop(game_id, None)
        if due is None:
            self.due.pop(game_id, None)
        else:
            self.due[game_id] = due
        self.wake.set()


def _round_start(meta_json: str) -> float | None:
    """The round's start a tournament table was created with (its meta `round_start`)."""
    try:
        value = json.loads(meta_json or "{}").get("round_start")
    except (ValueError, AttributeError):
        return None
    return float(value) if isinstance(value, int | float) else None
