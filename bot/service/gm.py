"""GM tools: pause, resume, extend, adjudicate now, rollback, replace a player, end."""

from __future__ import annotations

import logging
from typing import Any

from bot.core.model import (
    Power,
)
from bot.service.errors import (
    InvalidStateError,
)
from bot.service.events import EventKind
from bot.service.outbox import Outbox
from bot.service.phase_machine import PhaseMachine
from bot.service.storage import Repository
from bot.service.table import (
    Table,
    parse_power,
)
from bot.service.texts import named

log = logging.getLogger(__name__)


class GmTools:
    """The GM's (tournament director's) operations, each audited."""

    def __init__(self, table: Table, machine: PhaseMachine, outbox: Outbox) -> None:
        self.table = table
        self.machine = machine
        self.outbox = outbox

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
                ph = await self.table.current_phase(game_id, tx)
                if ph is None or ph.status not in ("pending", "open"):
                    raise InvalidStateError.of("no_window", row.lang, game=game_id)
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
                await tx.roll_back_from(game_id, prev.id)
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
                    centers = {
                        p.value: len(position.centers_of(p))
                        for p in position.powers()
                        if position.centers_of(p)
                    }
                    if ph.status in ("pending", "open"):
                        await tx.mark_phase_final(ph.id)
                await self.table.finish(tx, game_id, now, reason, None, centers, gm)
            await self.table.reschedule(game_id)
        await self.outbox.deliver()
