"""Orders: the secret submissions of each power, and ready marks (early adjudication)."""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import replace

from bot.core.model import (
    Location,
    PhaseKind,
    Position,
    Power,
    Unit,
    UnitType,
)
from bot.core.names import NameTable, load_names
from bot.core.orders import Build, Disband, Order, UnitOrder, Waive
from bot.core.rules import DuplicateOrders
from bot.service import codec, intake
from bot.service.errors import (
    LateSubmissionError,
)
from bot.service.outbox import Outbox
from bot.service.scheduler import Scheduler
from bot.service.table import (
    GameCtx,
    Table,
    adjustment,
    dumps,
    order_key,
    parse_power,
    to_order_powers,
    unit_text,
)
from bot.service.texts import t
from bot.service.values import (
    OrdersView,
    SubmitReply,
)

log = logging.getLogger(__name__)


class Orders:
    """Secret orders: submit (whole set or merged), clear, show one's own, ready marks."""

    def __init__(self, table: Table, scheduler: Scheduler, outbox: Outbox) -> None:
        self.table = table
        self.scheduler = scheduler
        self.outbox = outbox

    def _warnings(
        self, ctx: GameCtx, position: Position, power: Power, orders: list[Order]
    ) -> list[str]:
        lang = ctx.lang
        names = load_names(ctx.game_map.name)

        def unit(u: Unit) -> str:  # in the game's nomenclature: French MAR is North Africa
            return unit_text(names, u.type, u.location, lang)

        out: list[str] = []
        kind = position.phase.kind
        ordered = {order_key(o) for o in orders}
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
            n = adjustment(position, ctx.game_map, power)
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
            key = order_key(o)
            if key is not None and not isinstance(o, Build) and key not in mine:
                out.append(
                    t(
                        "not_yours",
                        lang,
                        order=self.table.engine.render_order(o, lang),
                        province=names.abbreviation(key, lang),
                    )
                )
        out += self._several_orders(ctx, names, orders)
        return out

    def _build_coasts(self, ctx: GameCtx, names: NameTable, orders: list[Order]) -> list[str]:
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
            ways = [self.table.engine.render_order(replace(o, unit=r), ctx.lang) for r in refs]
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

    def _several_orders(self, ctx: GameCtx, names: NameTable, orders: list[Order]) -> list[str]:
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
                texts = [self.table.engine.render_order(o, ctx.lang) for o in given]
                out.append(
                    t(
                        "several_orders",
                        ctx.lang,
                        unit=unit_text(names, ref.type, ref.location, ctx.lang),
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
        power = await self.table.player_power(game_id, user)
        return await self._submit(game_id, user, power, text, kind="submit", merge=merge)

    async def submit_for(self, game_id: int, gm: str, power: Power | str, text: str) -> SubmitReply:
        """GM: enter a power's orders for it (paper orders transcribed at a table)."""
        await self.table.require_gm(game_id, gm)
        return await self._submit(game_id, gm, parse_power(power), text, kind="gm", merge=False)

    async def clear_orders(self, game_id: int, user: str) -> SubmitReply:
        power = await self.table.player_power(game_id, user)
        return await self._submit(game_id, user, power, "", kind="clear", merge=False)

    async def _submit(
        self, game_id: int, user: str, power: Power, text: str, *, kind: str, merge: bool
    ) -> SubmitReply:
        _, ctx, ph = await self.table.open_phase_for_orders(game_id)
        lang = ctx.lang
        position = self.table.position_of(ph)
        describe = ph.phase.describe(lang)
        errors: list[str] = []
        orders: list[Order] = []
        refused_strict: list[str] = []
        if kind != "clear":
            intake.check_size(text, lang)
            # Reading is pure and CPU-bound: off the event loop.
            read = await asyncio.to_thread(
                intake.read_set,
                self.table.engine,
                text,
                lang,
                power,
                position,
                ctx.game_map,
                ctx.rules,
            )
            orders, errors, refused_strict = read.orders, read.errors, read.refused
        accepted = not errors and not refused_strict
        if merge and accepted and kind != "clear":
            standing = await self.table.standing(ph.id)
            if power in standing:
                old = codec.orders_from_json(json.loads(standing[power].orders_json))
                names = {order_key(o) for o in orders}
                kept = [o for o in old if order_key(o) is not None and order_key(o) not in names]
                orders = kept + orders
        readings = [self.table.engine.render_order(o, lang) for o in orders]
        warnings = self._warnings(ctx, position, power, orders) if accepted else []
        late: LateSubmissionError | None = None
        async with self.table.storage.tx() as tx:
            cur = await self.table.current_phase(game_id, tx)
            grow = await tx.game(game_id)
            now = self.table.clock.now()
            paused = grow.paused_at if grow and grow.status == "paused" else None
            effective = now if paused is None else paused
            if (
                cur is None
                or cur.id != ph.id
                or cur.status != "open"
                or cur.deadline is None
                or effective >= cur.deadline
            ):
                late = self.table.late_error(ctx, cur or ph)
                accepted = False
            had = await self.table.standing(ph.id, tx)
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
            sid = await tx.add_submission(
                ph.id,
                power.value,
                user,
                kind,
                text,
                accepted,
                dumps(codec.orders_to_json(orders) if accepted else []),
                dumps(reply),
                now,
            )
            # Secrecy: the audit log records that orders came, never what they say.
            await self.table.audit(
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
                await tx.set_ready(ph.id, power.value, None)
        if late is not None:
            raise late
        return SubmitReply(
            accepted, game_id, ph.name, power, readings, errors, warnings, message, now, sid
        )

    async def my_orders(self, game_id: int, user: str) -> OrdersView:
        power = await self.table.player_power(game_id, user)
        _, ctx, ph = await self.table.open_phase_for_orders(game_id)
        standing = await self.table.standing(ph.id)
        orders: list[Order] = []
        at = None
        if power in standing:
            orders = codec.orders_from_json(json.loads(standing[power].orders_json))
            at = standing[power].submitted_at
        position = self.table.position_of(ph)
        return OrdersView(
            game_id,
            ph.name,
            power,
            [self.table.engine.render_order(o, ctx.lang) for o in orders],
            at,
            self._warnings(ctx, position, power, orders),
        )

    async def set_ready(self, game_id: int, user: str, ready: bool = True) -> bool:
        """Mark the caller ready; returns True if that made the phase adjudicate early."""
        power = await self.table.player_power(game_id, user)
        row, ctx, ph = await self.table.open_phase_for_orders(game_id)
        if ph.status != "open":
            raise self.table.late_error(ctx, ph)
        now = self.table.clock.now()
        early = False
        async with self.table.storage.tx() as tx:
            await tx.set_ready(ph.id, power.value, now if ready else None)
            await self.table.audit(
                tx,
                game_id,
                now,
                user,
                "ready" if ready else "unready",
                power=power.value,
                phase=ph.name,
            )
            if ready and ctx.early and row.status == "active":
                players = set(await self.table.players(tx, game_id))
                need = set(to_order_powers(self.table.position_of(ph), ctx.game_map)) & players
                done = {Power(p) for p in await tx.ready_powers(ph.id)}
                if need and need <= done:
                    early = True
                    await tx.deadline_now(ph.id, now)
                    await self.table.audit(
                        tx, game_id, now, "clock", "early_adjudication", phase=ph.name
                    )
        if early:
            await self.table.reschedule(game_id)
            await self.scheduler.advance(game_id)
            await self.outbox.deliver()
        return early
