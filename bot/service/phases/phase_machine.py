"""The phase machine: pending (reading) -> open (negotiation, writing) -> adjudicating -> done,
each move one transaction with the events announcing it."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor
from dataclasses import replace
from functools import partial
from typing import Any

from bot.core.messages import render as render_message
from bot.core.model import (
    Phase,
    PhaseKind,
    Position,
    Power,
    Season,
)
from bot.core.records.jsonio import position_from_json
from bot.core.writing.advice import to_order_powers
from bot.service.clock.rounds import round_times
from bot.service.events import EventKind
from bot.service.games.missed import record_missed
from bot.service.games.palettes import public_palette
from bot.service.games.votes import Votes
from bot.service.hidden.views import hidden_mode, reveal_preferences
from bot.service.orders.early import EarlyOrders
from bot.service.phases.absences import moved_deadline
from bot.service.phases.compute import compute_phase, render_final_map
from bot.service.phases.workers import ComputePool
from bot.service.storage import Repository
from bot.service.storage.rows import GameRow, NewResult
from bot.service.table import (
    GameCtx,
    PhaseState,
    Table,
    dumps,
    reminder_key,
)

log = logging.getLogger(__name__)


Metrics = Callable[[dict[str, float]], None]

THREADS = 2  # adjudications at once without an executor (see PhaseMachine.__init__)
QUEUED = 2  # jobs given to each worker process at once (see PhaseMachine.__init__)


def _year_end(phase: Phase) -> bool:
    """A game ends only at a year's end: the next phase is a Spring movement."""
    return phase.kind is PhaseKind.MOVEMENT and phase.season is Season.SPRING


class PhaseMachine:
    """Moves a game's current phase along its timeline: opens it, starts the writing window,
    sends reminders, closes and adjudicates it, and ends the game when it is over."""

    def __init__(
        self,
        table: Table,
        votes: Votes,
        executor: Executor | None,
        render: bool,
        metrics: Metrics | None,
    ) -> None:
        self.table = table
        self.votes = votes
        self.executor = executor
        self.render_maps = render
        self.metrics = metrics  # called after each adjudication with its timings (seconds)
        self.early = EarlyOrders(table)
        # Tables due together are computed a few at a time, in turn, not all interleaved:
        # the first table's results are ready after its own work, not after everyone's
        # (issue 19). In threads, two: a map's PNG compression (a third of a render) runs
        # without the GIL, beside the other's drawing (bench/deadline.py: 1.36x for 60
        # tables on 2 cores; more threads only contend for the GIL).
        # A worker process gets its next job while it computes one (QUEUED per worker): it
        # never waits for the busy loop to hand it one; they finish in turn all the same.
        workers = getattr(executor, "_max_workers", 1) if executor is not None else THREADS
        depth = QUEUED if isinstance(executor, ProcessPoolExecutor | ComputePool) else 1
        self._computing = asyncio.Semaphore(max(1, int(workers)) * depth)

    async def advance_locked(self, game_id: int) -> None:
        row = await self.table.storage.game(game_id)
        if row is None or row.status != "active":
            return
        ctx = await self.table.load_ctx(game_id)
        ph = await self.table.current_phase(game_id)
        if ph is None:
            return
        now = self.table.clock.now()
        if ph.status == "pending" and ph.opens_at is not None and now >= ph.opens_at:
            await self._open(game_id, ctx, ph, now)
            ph = await self.table.current_phase(game_id)
            if ph is None:
                return
            await self.early.apply(game_id, ctx, ph)  # house II(5): orders sent early
        if ph.status == "open" and ph.deadline is not None:
            closes = self.table.closes_at(ph.deadline)
            if now >= closes and not await self.table.held(game_id, ph.deadline, now):
                await self.adjudicate(game_id, ctx, ph, row=row)
                return
            if ph.window == "negotiation" and ph.writing_at is not None and now >= ph.writing_at:
                await self._to_writing(game_id, ctx, ph, now)
            await self._remind(game_id, ctx, ph, now)
        elif ph.status == "adjudicating":
            await self.adjudicate(game_id, ctx, ph, row=row)

    async def _open(self, game_id: int, ctx: GameCtx, ph: PhaseState, now: float) -> None:
        times = ctx.clock.times(ph.phase)
        if ph.phase.season is Season.WINTER and ctx.clock.retreats_with_adjustments:
            # edc-2023 B: the Winter was written in the Fall retreat window: no second wait.
            prev = await self.table.storage.last_done_before(game_id, ph.id)
            if ctx.clock.shares_window(ph.phase, prev.phase if prev else None):
                times = replace(times, negotiation=0.0, writing=0.0)
        # The clock runs from the adjudication (opens_at = its time + reading): a late step
        # (a busy loop, a slow Discord) must not push the deadline back. Only an opening
        # missed while the process was down starts from now, not to eat the players' window.
        missed = ph.opens_at is None or ph.opens_at < self.table.started_at
        start = now if missed else min(now, float(ph.opens_at or now))
        writing_at = start + times.negotiation
        deadline = writing_at + times.writing
        if ctx.round_start is not None:  # a tournament table: the round's times, said once
            fixed = round_times(
                ctx.clock, ctx.round_start, ctx.first_year, ph.phase, start, times.writing
            )
            if fixed is not None:
                writing_at, deadline = fixed
        if ctx.clock.schedule is not None and deadline > start:  # a fixed local time
            movement = ph.phase.kind is PhaseKind.MOVEMENT
            writing_at, deadline = start, ctx.clock.schedule.deadline(start, movement=movement)
        why = None  # an approved absence moves the deadline to its end (phases/absences.py)
        if deadline > start:
            deadline, why = await moved_deadline(self.table, game_id, deadline, ctx.clock.schedule)
        window = "negotiation" if writing_at > start else "writing"
        async with self.table.storage.tx() as tx:
            if not await tx.open_phase(ph.id, window, start, writing_at, deadline):
                return
            key = f"{game_id}:{ph.id}:{window}"
            if deadline > start:  # (a Winter written in the Fall retreat window: no window)
                await self._announce(
                    tx, game_id, ctx, ph, now, key, window, writing_at, deadline, why
                )
            await self.table.set_press(
                tx, game_id, ctx.clock.press_open(ph.phase, window), key, now, ph.id, window
            )

    async def _announce(  # noqa: PLR0917 - the parts of a window's opening
        self,
        tx: Repository,
        game_id: int,
        ctx: GameCtx,
        ph: PhaseState,
        now: float,
        key: str,
        window: str,
        writing_at: float,
        deadline: float,
        absence: dict[str, Any] | None = None,
    ) -> None:
        await self.table.emit(
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
                    p.value for p in to_order_powers(self.table.position_of(ph), ctx.game_map)
                ],
                **({"absence": absence} if absence else {}),
            },
            ph.id,
        )

    async def _to_writing(self, game_id: int, ctx: GameCtx, ph: PhaseState, now: float) -> None:
        async with self.table.storage.tx() as tx:
            if not await tx.start_writing(ph.id):
                return
            key = f"{game_id}:{ph.id}:writing"
            await self.table.emit(
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
            await self.table.set_press(
                tx, game_id, ctx.clock.press_open(ph.phase, "writing"), key, now, ph.id, "writing"
            )

    async def _remind(self, game_id: int, ctx: GameCtx, ph: PhaseState, now: float) -> None:
        assert ph.deadline is not None
        due = [
            off
            for off in ctx.clock.reminders
            if ph.deadline - off <= now < ph.deadline and ph.deadline - off > (ph.opens_at or 0)
        ]
        if not due:
            return
        off = min(due)  # only the latest one due: a missed earlier reminder is not sent late
        async with self.table.storage.tx() as tx:
            standing = await self.table.standing(ph.id, tx)
            players = await self.table.players(tx, game_id)
            need = [
                p
                for p in to_order_powers(self.table.position_of(ph), ctx.game_map)
                if p in players and p not in standing
            ]
            for o in due:
                key = reminder_key(game_id, ph.id, o, ph.deadline)
                payload = {
                    "deadline": ph.deadline,
                    "seconds_left": ph.deadline - now,
                    "offset": o,
                    "powers": [p.value for p in need],
                    "users": [players[p] for p in need],
                }
                if o == off and need:
                    await self.table.emit(
                        tx, key, game_id, EventKind.REMINDER_DUE, now, payload, ph.id
                    )
                else:  # nothing to remind: record it as handled, delivered at once
                    kind = EventKind.REMINDER_DUE.value
                    await tx.add_event(key, game_id, kind, dumps(payload), ph.id, now, now)

    async def adjudicate(
        self,
        game_id: int,
        ctx: GameCtx,
        ph: PhaseState,
        *,
        force: bool = False,
        row: GameRow | None = None,
    ) -> None:
        """Close the phase (orders frozen), adjudicate off the loop, commit results and the
        next phase and their events in one transaction. Idempotent per phase row."""
        if ph.status == "open":  # sets kept for this phase and not read yet (a restart)
            await self.early.apply(game_id, ctx, ph)
        if not await self._close(game_id, ctx, ph, force=force):
            return
        standing = await self.table.standing(ph.id)
        orders_doc: list[dict[str, Any]] = []
        for power in sorted(standing):
            orders_doc.extend(json.loads(standing[power].orders_json))
        if row is None or game_id in self.table.broken:  # (`row`: the step's, just read)
            row = await self.table.game_row(game_id)
        palette = await public_palette(self.table.storage, row)  # game > server > default
        mode = await hidden_mode(self.table, game_id, ctx)
        preferences = (
            {p.value: v for p, v in (await reveal_preferences(self.table, ph.id, ctx)).items()}
            if mode
            else {}
        )
        job = partial(
            compute_phase,
            self.table.engine,
            ctx.variant,
            ctx.rules_name,
            ph.position_json,  # (text: decoded in the worker, not on the loop)
            orders_doc,
            ctx.lang,
            self.render_maps,
            palette,
            mode,
            preferences,
        )
        result, compute = await self._off_loop(job)
        # (Stab!: the stored map stays the public one; at the end each view opens instead.)
        if result["png"] is not None and not mode:
            result["png"] = await self._final_map(
                game_id, ctx, ph, result, orders_doc, palette, result["png"]
            )
        committed = await self._commit(
            game_id, ctx, ph, result, orders_doc, compute, mode, set(standing)
        )
        if not committed:
            return
        self.table.keep_fresh(ph.id, result["png"], result["outcome_json"])
        if self.metrics is not None:
            self.metrics(
                {
                    "adjudicate": result["adjudicate_seconds"],
                    "render": result["render_seconds"],
                    "compute": compute,
                }
            )

    async def _off_loop(self, job: Callable[[], Any]) -> tuple[Any, float]:
        """Run CPU-bound work in the executor (else a thread) when its turn comes; its
        result and the seconds of the work itself, not of the wait for a turn."""
        async with self._computing:
            t0 = time.perf_counter()
            if self.executor is None:
                return await asyncio.to_thread(job), time.perf_counter() - t0
            try:
                result = await asyncio.get_running_loop().run_in_executor(self.executor, job)
            except BrokenExecutor as exc:
                # A worker died (killed, out of memory): this phase is computed here, in a
                # thread, and a pool that can start again does so for the next ones.
                log.error("worker pool broken (%s): computing in a thread", exc)
                restart = getattr(self.executor, "restart", None)
                if restart is not None:
                    restart()
                result = await asyncio.to_thread(job)
            return result, time.perf_counter() - t0

    async def _final_map(  # noqa: PLR0917 - the pieces of one adjudication
        self,
        game_id: int,
        ctx: GameCtx,
        ph: PhaseState,
        result: dict[str, Any],
        orders_doc: list[dict[str, Any]],
        palette: str,
        png: bytes,
    ) -> bytes:
        """The phase's map, drawn again with "game over" in its title if this phase ends the
        game: the end is known only from the adjudicated position (`_game_over`, decided
        again in `_commit`'s transaction), so only a game's last map is drawn twice."""
        if not _year_end(Phase.parse(result["next_phase"])):
            return png  # a game ends only at a year's end (`_game_over`): no position to read
        nxt = position_from_json(json.loads(result["next_json"]))
        over, _, _ = await self._game_over(self.table.storage, game_id, ctx, nxt)
        if not over:
            return png
        job = partial(
            render_final_map,
            self.table.engine,
            ctx.variant,
            ph.position_json,
            orders_doc,
            result["outcome_json"],
            ctx.lang,
            palette,
        )
        try:
            final, _ = await self._off_loop(job)
        except Exception:  # the map without its title is still the map: never hold results
            log.exception("game %s: the final map could not be drawn again", game_id)
            return png
        return final or png

    async def _close(self, game_id: int, ctx: GameCtx, ph: PhaseState, *, force: bool) -> bool:
        """Freeze the orders (open -> adjudicating) once the deadline and its grace passed
        (bot.service.clock.lateness), or with `force`;
        True if the phase is now to be adjudicated."""
        now = self.table.clock.now()
        vote_state = await self.table.storage.votebook(game_id)
        vote_open = vote_state is not None and '"open"' in vote_state
        # Without a vote to decide, closing is redone harmlessly after a power cut.
        async with self.table.storage.tx(durable=vote_open) as tx:
            cur = await tx.phase(ph.id)
            if cur is None:
                return False
            if cur.status == "open":
                if not force and (cur.deadline is None or now < self.table.closes_at(cur.deadline)):
                    return False
                await tx.close_phase(ph.id, now)
                # house IX(4): a passed vote is published instead of the adjudication.
                return not (vote_open and await self.votes.close_due(tx, game_id, ctx, ph, now))
            return cur.status == "adjudicating"

    async def _commit(  # noqa: PLR0917 - the steps of one adjudication
        self,
        game_id: int,
        ctx: GameCtx,
        ph: PhaseState,
        result: dict[str, Any],
        orders_doc: list[dict[str, Any]],
        compute: float,
        mode: str = "",
        standing: set[Power] | None = None,
    ) -> bool:
        """Results, skipped phases, the next phase and their events, in one transaction;
        False if another step already did it. `standing`: the powers whose orders stand
        (read at the close: the orders were frozen then)."""
        done_at = self.table.clock.now()
        next_phase = Phase.parse(result["next_phase"])
        async with self.table.storage.tx() as tx:
            cur = await tx.phase(ph.id)
            if cur is None or cur.status != "adjudicating":
                return False
            await tx.add_result(
                NewResult(
                    ph.id,
                    result["outcome_json"],
                    dumps(orders_doc),
                    result["png"],
                    done_at,
                    compute,
                )
            )
            await tx.mark_phase_done(ph.id)
            for name, outcome_json, start_json in result["skipped"]:
                sid = await tx.add_phase(
                    game_id, name, start_json, "skipped", "closed", None, done_at
                )
                await tx.add_result(NewResult(sid, outcome_json, "[]", None, done_at, 0.0))
            over_reason, winner, why = None, None, ""
            if _year_end(next_phase):  # (the only time a game can end: see `_game_over`)
                nxt = position_from_json(json.loads(result["next_json"]))
                over_reason, winner, why = await self._game_over(tx, game_id, ctx, nxt)
            reading = ctx.clock.times(ph.phase).reading
            nid = await tx.add_phase(
                game_id,
                result["next_phase"],
                result["next_json"],
                "final" if over_reason else "pending",
                "closed" if over_reason else "reading",
                done_at + reading,
                done_at,
            )
            await tx.set_current_phase(game_id, nid)
            await self.table.audit(
                tx,
                game_id,
                done_at,
                "clock",
                "adjudicated",
                phase=ph.name,
                next=result["next_phase"],
                orders=len(orders_doc),
            )
            centers = result["centers"]
            key = f"{game_id}:{ph.id}"
            await self.table.emit(
                tx,
                f"{key}:results",
                game_id,
                EventKind.RESULTS_READY,
                done_at,
                {
                    # Stab!: nothing of the board here; each viewer's report and map are
                    # made at delivery (hidden/views.py), the public map is the result's.
                    "lines": result["lines"],
                    "stab": {"phase_id": ph.id} if mode else None,
                    "next_phase": result["next_phase"],
                    "centers": centers,
                    "reading_until": done_at + reading,
                    "deadline": ph.deadline,  # (deadline -> results posted, for the host)
                    "map_error": result["map_error"],
                    "skipped": [name for name, _, _ in result["skipped"]],
                },
                ph.id,
            )
            # (after the results)
            await record_missed(self.table, tx, game_id, ctx, ph, done_at, standing)
            if over_reason:
                await self.table.finish(
                    tx, game_id, done_at, over_reason, winner, centers, "clock", why
                )
            elif why:  # house: the GM may now declare a draw (after a warning)
                await self.table.emit(
                    tx,
                    f"{key}:draw_available",
                    game_id,
                    EventKind.DRAW_AVAILABLE,
                    done_at,
                    {"reason": why},
                    ph.id,
                )
            else:
                await self.table.set_press(
                    tx,
                    game_id,
                    ctx.clock.press_open(ph.phase, "reading"),
                    f"{key}:reading",
                    done_at,
                    ph.id,
                    "reading",
                )
        return True

    async def _game_over(
        self, tx: Repository, game_id: int, ctx: GameCtx, nxt: Position
    ) -> tuple[str | None, str | None, str]:
        """(end kind, winner, reason) at the end of a game year, by the rule set's end
        conditions (bot.core.ending.endgame): solo, the clock's last year, stalemate."""
        if not _year_end(nxt.phase):
            return None, None, ""
        from bot.core.ending.endgame import EndKind, check_end, end_rules_for  # noqa: PLC0415

        history = [
            position_from_json(json.loads(position_json))
            for phase, position_json in await tx.line_of_play(game_id)
            if phase.startswith("S") and phase.endswith("M")
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
