"""GM tools: pause, resume, extend, adjudicate now, rollback, replace a player, end."""

from __future__ import annotations

import json
import logging
from typing import Any

from bot.core.messages import render as render_message
from bot.core.model import (
    Power,
)
from bot.core.records.jsonio import position_from_json, position_to_json
from bot.service.delivery.outbox import Outbox
from bot.service.errors import (
    InvalidStateError,
)
from bot.service.events import EventKind
from bot.service.games.abbreviations import META_KEY as ABBREVIATIONS
from bot.service.games.abbreviations import parse_list
from bot.service.games.board import apply_edit
from bot.service.phases.phase_machine import PhaseMachine
from bot.service.storage import Repository
from bot.service.table import (
    GameCtx,
    PhaseState,
    Table,
    centre_counts,
    dumps,
    parse_power,
)
from bot.service.texts import named

log = logging.getLogger(__name__)


async def draw_warning(tx: Repository, game_id: int, ctx: GameCtx) -> str | None:
    """The reason a GM may declare a draw now (house IX(2): the centres unchanged for the
    preset's `draw_offer_years`; the same judgement that raised `draw_available` at the
    start of this year), or None."""
    from bot.core.ending.endgame import EndKind, check_end, end_rules_for  # noqa: PLC0415

    history = [
        position_from_json(json.loads(position_json))
        for phase, position_json in await tx.line_of_play(game_id)
        if phase.startswith("S") and phase.endswith("M")
    ]
    if not history:
        return None
    rules = end_rules_for(ctx.rules, years=ctx.clock.years, first_year=ctx.first_year)
    state = check_end(history, rules, ctx.game_map)
    if state.kind is not EndKind.DRAW_AVAILABLE:
        return None
    return render_message(state.message, ctx.lang, ctx.game_map) if state.message else state.reason


class GmTools:
    """The GM's (tournament director's) operations, each audited."""

    def __init__(self, table: Table, machine: PhaseMachine, outbox: Outbox) -> None:
        self.table = table
        self.machine = machine
        self.outbox = outbox

    async def _window_phase(self, tx: Repository, game_id: int, lang: str) -> PhaseState:
        """The current phase if it is pending or open (a GM may act on it), else no_window."""
        ph = await self.table.current_phase(game_id, tx)
        if ph is None or ph.status not in ("pending", "open"):
            raise InvalidStateError.of("no_window", lang, game=game_id)
        return ph

    async def _gm_event(  # noqa: PLR0917 - internal helper
        self,
        tx: Repository,
        game_id: int,
        at: float,
        gm: str,
        action: str,
        kind: EventKind | None,
        payload: dict[str, Any],
        phase_id: int | None = None,
    ) -> None:
        aid = await self.table.audit(tx, game_id, at, gm, action, **payload)
        if kind is not None:
            await self.table.emit(
                tx, f"{game_id}:audit:{aid}", game_id, kind, at, payload, phase_id
            )

    async def pause(self, game_id: int, gm: str) -> None:
        row = await self.table.require_gm(game_id, gm)
        if row.status != "active":
            raise InvalidStateError.of("not_running_is", row.lang, game=game_id, status=row.status)
        async with self.table.lock(game_id):
            now = self.table.clock.now()
            async with self.table.storage.tx() as tx:
                await tx.pause_game(game_id, now)
                await self._gm_event(tx, game_id, now, gm, "pause", EventKind.GAME_PAUSED, {})
            await self.table.reschedule(game_id)
        await self.outbox.deliver()

    async def resume(self, game_id: int, gm: str) -> None:
        """Resume a paused game; the clock restarts with the time that was left."""
        row = await self.table.require_gm(game_id, gm)
        if row.status != "paused" or row.paused_at is None:
            raise InvalidStateError.of("not_paused", row.lang, game=game_id)
        async with self.table.lock(game_id):
            now = self.table.clock.now()
            shift = now - row.paused_at
            async with self.table.storage.tx() as tx:
                ph = await self.table.current_phase(game_id, tx)
                if ph is not None:
                    await tx.shift_phase(ph.id, shift)
                await tx.resume_game(game_id)
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
            await self.table.reschedule(game_id)
        await self.outbox.deliver()

    async def extend(self, game_id: int, gm: str, seconds: float) -> float | None:
        """Give the current window `seconds` more (negative shortens); returns the deadline."""
        row = await self.table.require_gm(game_id, gm)
        async with self.table.lock(game_id):
            now = self.table.clock.now()
            async with self.table.storage.tx() as tx:
                ph = await self._window_phase(tx, game_id, row.lang)
                window = "pending" if ph.status == "pending" else ph.window
                await tx.extend_phase(ph.id, seconds, window)
                new = await tx.phase(ph.id)
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
                        "opens_at": new.opens_at,
                        "writing_at": new.writing_at,
                        "deadline": new.deadline,
                    },
                    ph.id,
                )
            await self.table.reschedule(game_id)
        await self.outbox.deliver()
        return new.deadline

    async def adjudicate_now(self, game_id: int, gm: str) -> None:
        """Close the open phase now and adjudicate it (or open a pending one now)."""
        row = await self.table.require_gm(game_id, gm)
        if row.status not in ("active", "paused"):
            raise InvalidStateError.of("not_running", row.lang, game=game_id)
        ctx = await self.table.load_ctx(game_id)
        async with self.table.lock(game_id):
            now = self.table.clock.now()
            ph = await self.table.current_phase(game_id)
            if ph is None:
                raise InvalidStateError.of("no_phase", row.lang, game=game_id)
            async with self.table.storage.tx() as tx:
                await self._gm_event(
                    tx, game_id, now, gm, "adjudicate_now", None, {"phase": ph.name}
                )
                if ph.status == "pending":
                    await tx.set_opens_at(ph.id, now)
            if ph.status == "pending":
                await self.machine.advance_locked(game_id)
            else:
                await self.machine.adjudicate(game_id, ctx, ph, force=True)
            await self.table.reschedule(game_id)
        await self.outbox.deliver()

    async def rollback(self, game_id: int, gm: str) -> str:
        """Reopen the last adjudicated phase (its standing orders carried over); returns it."""
        row = await self.table.require_gm(game_id, gm)
        async with self.table.lock(game_id):
            now = self.table.clock.now()
            async with self.table.storage.tx() as tx:
                cur = await self.table.current_phase(game_id, tx)
                if cur is None:
                    raise InvalidStateError.of("no_rollback", row.lang, game=game_id)
                if cur.status == "adjudicating":
                    raise InvalidStateError.of("adjudicating", row.lang)
                prev = await tx.last_done_before(game_id, cur.id)
                if prev is None:
                    raise InvalidStateError.of("nothing_adjudicated", row.lang, game=game_id)
                await self._rollback_allowed(tx, game_id, row.lang, prev.id, cur.id)
                await tx.roll_back_from(game_id, prev.id)
                await tx.reopen_early_orders(game_id, prev.id)  # read again when due
                nid = await tx.add_phase(
                    game_id, prev.phase, prev.position_json, "pending", "reading", now, now
                )
                for s in (await self.table.standing(prev.id, tx)).values():
                    await tx.add_submission(
                        nid,
                        s.power,
                        s.user_id,
                        "carried",
                        s.text,
                        True,
                        s.orders_json,
                        s.reply_json,
                        now,
                    )
                await tx.reopen_game(game_id, nid)
                await self._gm_event(
                    tx,
                    game_id,
                    now,
                    gm,
                    "rollback",
                    EventKind.PHASE_ROLLED_BACK,
                    {"phase": prev.phase, "from": cur.name},
                    nid,
                )
            await self.table.reschedule(game_id)
        await self.outbox.deliver()
        return prev.phase

    @staticmethod
    async def _rollback_allowed(
        tx: Repository, game_id: int, lang: str, prev_id: int, cur_id: int
    ) -> None:
        """EDC E, stabbeurfou 4.E.6, house VIII(1): only the last adjudication, and only
        before the next phase's first order."""
        between = [s for s in await tx.phase_summaries(game_id) if prev_id < s.id < cur_id]
        if any(s.status == "rolled_back" for s in between):
            # The last adjudication was already undone: an earlier one stands.
            raise InvalidStateError.of("rollback_once", lang, game=game_id)
        # EDC E "if the following orders have already been issued": a set written before
        # the adjudication (house II(5), read when its phase opened) was not issued after it.
        early = await tx.early_submissions(game_id, prev_id)
        if any(s.kind != "carried" and s.id not in early for s in await tx.standing(cur_id)):
            raise InvalidStateError.of("rollback_after_orders", lang, game=game_id)

    async def replace_player(self, game_id: int, gm: str, power: Power | str, user: str) -> None:
        row = await self.table.require_gm(game_id, gm)
        game_map = self.table.engine.load_map(row.variant)
        chosen = parse_power(power, game_map)
        now = self.table.clock.now()
        async with self.table.storage.tx() as tx:
            other = await tx.power_of(game_id, user)
            if other is not None and other != chosen.value:
                mine = named(game_map, Power(other))
                raise InvalidStateError.of("user_plays", row.lang, power=mine)
            old = await tx.user_of(game_id, chosen.value)
            await tx.remove_power(game_id, chosen.value)
            await tx.add_player(game_id, chosen.value, user, now)
            await self._gm_event(
                tx,
                game_id,
                now,
                gm,
                "replace_player",
                EventKind.PLAYER_REPLACED,
                {
                    "power": chosen.value,
                    "old_user": old,
                    "new_user": user,
                },
            )
        await self.outbox.deliver()

    async def set_abbreviations(
        self, game_id: int, gm: str, power: Power | str, text: str
    ) -> dict[str, str]:
        """gm-order-correction I(1): the abbreviation list agreed with a player (empty text:
        none), at the outset or before a replacement's first orders; published at once."""
        row = await self.table.require_gm(game_id, gm)
        game_map = self.table.engine.load_map(row.variant)
        chosen = parse_power(power, game_map)
        found = parse_list(text, game_map, row.lang)
        async with self.table.lock(game_id):
            now = self.table.clock.now()
            async with self.table.storage.tx() as tx:
                phases = await tx.phase_summaries(game_id)
                started = any(s.status in ("done", "skipped") for s in phases)
                user = await tx.user_of(game_id, chosen.value)
                sent = any(
                    h.submission.power == chosen.value and h.submission.user_id == user
                    for h in await tx.submissions_of_game(game_id)
                )
                if started and sent:
                    name = named(game_map, chosen)
                    raise InvalidStateError.of("abbr_too_late", row.lang, power=name)
                game = await tx.game(game_id)
                meta = json.loads(game.meta_json or "{}") if game else {}
                lists = meta.setdefault(ABBREVIATIONS, {})
                lists[chosen.value] = found
                await tx.set_meta_json(game_id, dumps(meta))
                await self._gm_event(
                    tx,
                    game_id,
                    now,
                    gm,
                    "abbreviations",
                    EventKind.ABBREVIATIONS_AGREED,
                    {"power": chosen.value, "abbreviations": found},
                )
        await self.outbox.deliver()
        return found

    async def edit_board(self, game_id: int, gm: str, text: str) -> None:
        """house VIII(2)/(3): remove or place a unit, set a centre's owner in the current
        phase (before its adjudication); audited and announced."""
        row = await self.table.require_gm(game_id, gm)
        ctx = await self.table.load_ctx(game_id)
        async with self.table.lock(game_id):
            now = self.table.clock.now()
            async with self.table.storage.tx() as tx:
                ph = await self._window_phase(tx, game_id, row.lang)
                edited = apply_edit(text, self.table.position_of(ph), ctx.game_map, row.lang)
                await tx.set_position(ph.id, dumps(position_to_json(edited)))
                await self._gm_event(
                    tx,
                    game_id,
                    now,
                    gm,
                    "board_edit",
                    EventKind.BOARD_EDITED,
                    {"edit": " ".join(text.split()), "phase": ph.name},
                    ph.id,
                )
        await self.outbox.deliver()

    async def set_deadline(self, game_id: int, gm: str, at: float) -> float | None:
        """A new deadline for the open phase, earlier or later (not in the past); in the
        negotiation window the writing window keeps its length."""
        row = await self.table.require_gm(game_id, gm)
        ph = await self.table.current_phase(game_id)
        now = self.table.clock.now()
        if ph is None or ph.status != "open" or ph.deadline is None:
            raise InvalidStateError.of("no_window", row.lang, game=game_id)
        if at <= now:
            raise InvalidStateError.of("deadline_past", row.lang)
        if ph.window == "negotiation" and ph.writing_at is not None:
            # the writing window keeps its length, so negotiation ends no earlier than now
            at = max(at, now + (ph.deadline - ph.writing_at))
        return await self.extend(game_id, gm, at - ph.deadline)

    async def declare_draw(self, game_id: int, gm: str) -> list[str]:
        """house IX(2) Alternative A: after the warning (`draw_available`), the GM declares a
        draw of all survivors; returns them. Refused while no such warning stands."""
        row = await self.table.require_gm(game_id, gm)
        if row.status not in ("active", "paused"):
            raise InvalidStateError.of("not_running", row.lang, game=game_id)
        ctx = await self.table.load_ctx(game_id)
        async with self.table.lock(game_id):
            now = self.table.clock.now()
            async with self.table.storage.tx() as tx:
                ph = await self._window_phase(tx, game_id, row.lang)
                why = await draw_warning(tx, game_id, ctx)
                if why is None:
                    raise InvalidStateError.of("no_draw_yet", row.lang, game=game_id)
                position = self.table.position_of(ph)
                alive = [p.value for p in position.powers()]
                centers = centre_counts(position)
                await tx.mark_phase_final(ph.id)
                await self.table.audit(tx, game_id, now, gm, "declare_draw", powers=alive)
                await self.table.finish(tx, game_id, now, "draw", None, centers, gm, why)
            await self.table.reschedule(game_id)
        await self.outbox.deliver()
        return alive

    async def end_game(self, game_id: int, gm: str, reason: str = "ended by the GM") -> None:
        row = await self.table.require_gm(game_id, gm)
        if row.status == "over":
            raise InvalidStateError.of("game_already_over", row.lang, game=game_id)
        async with self.table.lock(game_id):
            now = self.table.clock.now()
            async with self.table.storage.tx() as tx:
                ph = await self.table.current_phase(game_id, tx)
                centers: dict[str, int] = {}
                if ph is not None:
                    position = self.table.position_of(ph)
                    centers = centre_counts(position)
                    if ph.status in ("pending", "open"):
                        await tx.mark_phase_final(ph.id)
                await self.table.finish(tx, game_id, now, reason, None, centers, gm)
            await self.table.reschedule(game_id)
        await self.outbox.deliver()
