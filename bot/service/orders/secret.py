"""Orders: the secret submissions of each power, and ready marks (early adjudication)."""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import dataclass
from typing import Protocol

from bot.core.messages import render as render_message
from bot.core.model import (
    Location,
    Phase,
    Position,
    Power,
    UnitType,
)
from bot.core.orders import Order
from bot.core.rules import DuplicateOrders
from bot.core.writing import advice
from bot.core.writing.advice import order_key, to_order_powers
from bot.core.writing.submission import Combine, accepts_orders, combine_mode
from bot.service import observe
from bot.service.clock.lateness import Receipt, sent_time
from bot.service.delivery.outbox import Outbox
from bot.service.errors import (
    LateSubmissionError,
    ServiceError,
)
from bot.service.games.abbreviations import META_KEY as ABBREVIATIONS
from bot.service.games.abbreviations import expand
from bot.service.games.palettes import palette_for
from bot.service.games.values import (
    OrdersView,
    SubmitReply,
)
from bot.service.hidden import stab as hidden
from bot.service.hidden.views import hidden_mode
from bot.service.orders import early, intake, order_map, stab_sets
from bot.service.orders.labels import labelled_phase, strip_labels
from bot.service.storage import Repository, codec
from bot.service.table import (
    GameCtx,
    PhaseState,
    Table,
    dumps,
    parse_power,
    unit_text,
)
from bot.service.texts import t

log = logging.getLogger(__name__)

RUNNING = ("active", "paused")  # a game whose players send orders


class Advances(Protocol):
    """The scheduler as the orders see it (`phases.scheduler.Scheduler`, which drives the
    phase machine above this package): one step of a game's clock, after the last ready mark."""

    async def advance(self, game_id: int, *, deliver: bool = True) -> None: ...


@dataclass(frozen=True, slots=True)
class Seat:
    """A running game a player sends orders to: what the reply to a DM names (issue 19: the
    light look-up of a DM's game, read a few hundred times in a deadline's last seconds)."""

    game_id: int
    name: str
    lang: str


# What the rule set does with a unit given several orders (bot.core.rules), as a text key.
_THEN = {
    DuplicateOrders.FIRST: "several_first",
    DuplicateOrders.LAST: "several_last",
    DuplicateOrders.HOLD: "several_hold",
    DuplicateOrders.CIVIL_DISORDER: "several_disorder",
}


class Orders:
    """Secret orders: submit (whole set or merged), clear, show one's own, ready marks."""

    def __init__(self, table: Table, scheduler: Advances, outbox: Outbox) -> None:
        self.table = table
        self.scheduler = scheduler
        self.outbox = outbox

    def _warnings(
        self, ctx: GameCtx, position: Position, power: Power, orders: list[Order]
    ) -> list[str]:
        """The advice on a set (bot.core.writing.advice), in the game's language and
        nomenclature."""
        if ctx.rules.hidden_movement:  # Stab!: only about the player's own units
            position, orders = hidden.known(position, power, orders)
        items = advice.advise(position, ctx.game_map, ctx.rules, power, orders)
        return [
            self._impossible(ctx, item)
            if isinstance(item, advice.Impossible)
            else self._word(ctx, item)
            for item in items
        ]

    def _impossible(self, ctx: GameCtx, item: advice.Impossible) -> str:
        order = self.table.engine.render_order(item.order, ctx.lang, ctx.game_map)
        why = render_message(item.why, ctx.lang, ctx.game_map)
        return t("impossible", ctx.lang, order=order, why=why)

    def _word(self, ctx: GameCtx, item: advice.Advice) -> str:
        lang = ctx.lang
        names = ctx.game_map.names()
        game_map = ctx.game_map

        def render(order: Order, lang: str) -> str:
            return self.table.engine.render_order(order, lang, game_map)

        def unit(utype: UnitType | None, loc: Location) -> str:
            return unit_text(names, utype, loc, lang)  # French MAR is North Africa

        match item:
            case advice.NoOrder(u):
                text = t("no_order", lang, unit=unit(u.type, u.location))
            case advice.NoRetreat(u):
                text = t("no_retreat", lang, unit=unit(u.type, u.location))
            case advice.BuildsUnused(n):
                text = t("builds_unused", lang, n=n)
            case advice.RemovalsMissing(n):
                text = t("removals_missing", lang, n=n)
            case advice.NeedsCoast(order, options):
                ways = [render(o, lang) for o in options]
                text = t(
                    "build_coast" if len(ways) == 2 else "build_coasts",
                    lang,
                    name=names.full_name(order.unit.location.province, lang),
                    n=len(ways),
                    ways=t("or", lang).join(ways),
                )
            case advice.NotYours(order, province):
                text = t(
                    "not_yours",
                    lang,
                    order=render(order, lang),
                    province=names.abbreviation(province, lang),
                )
            case advice.SeveralOrders(ref, given, then):
                text = t(
                    "several_orders",
                    lang,
                    unit=unit(ref.type, ref.location),
                    n=len(given),
                    orders=", ".join(render(o, lang) for o in given),
                    then=t(_THEN[then], lang),
                )
            case _:
                raise AssertionError(item)  # every kind of advice is worded above
        return text

    async def seats(self, user: str) -> list[Seat]:
        """The running games `user` plays in, by their rows alone (a DM's orders go to one):
        three statements a game where the full status of each took seven."""
        storage = self.table.storage
        out = []
        for gid in await storage.game_ids_of(user, include_over=False):
            row = await storage.game(gid)
            if row is not None and row.status in RUNNING and await storage.power_of(gid, user):
                out.append(Seat(gid, row.name, row.lang))
        return out

    async def seat(self, game_id: int) -> Seat:
        """The game a set is sent to, by its row (NotFoundError if there is none)."""
        row = await self.table.game_row(game_id)
        return Seat(game_id, row.name, row.lang)

    async def submit(
        self,
        game_id: int,
        user: str,
        text: str,
        *,
        merge: bool = False,
        sent_at: float | None = None,
        receipt: Receipt | None = None,
    ) -> SubmitReply:
        """Submit orders (one per line or `;`-separated) for the caller's power.

        The whole set replaces the standing one (with `merge`, it replaces only the orders of
        the units it names). A set with an unreadable order, or one the rule set refuses
        (Stabbeurfou), is not saved and the previous orders stand. After the deadline:
        LateSubmissionError, nothing saved. `sent_at`: when the player sent it (its Discord
        message's time): sent before the deadline, it is taken while read within the grace;
        `receipt` (TableService.receiving): when it was sent and arrived
        (bot.service.clock.lateness)."""
        power = await self.table.player_power(game_id, user)
        times = (receipt.sent, receipt.received) if receipt else (sent_at, None)
        try:
            reply = await self._submit(
                game_id, user, power, text, kind="submit", merge=merge, at=times, receipt=receipt
            )
        except ServiceError:  # late, or the game cannot take orders: refused too
            observe.report("orders", outcome="refused")
            raise
        observe.report("orders", outcome="accepted" if reply.accepted else "refused")
        return reply

    async def submit_for(self, game_id: int, gm: str, power: Power | str, text: str) -> SubmitReply:
        """GM: enter a power's orders for it (paper orders transcribed at a table)."""
        row = await self.table.require_gm(game_id, gm)
        chosen = parse_power(power, self.table.engine.load_map(row.variant))
        return await self._submit(game_id, gm, chosen, text, kind="gm", merge=False)

    async def clear_orders(self, game_id: int, user: str) -> SubmitReply:
        power = await self.table.player_power(game_id, user)
        return await self._submit(game_id, user, power, "", kind="clear", merge=False)

    async def _submit(
        self,
        game_id: int,
        user: str,
        power: Power,
        text: str,
        *,
        kind: str,
        merge: bool,
        at: tuple[float | None, float | None] = (None, None),
        receipt: Receipt | None = None,
    ) -> SubmitReply:
        """`at`: when the set was sent and when it arrived, if known (else: now); `receipt`:
        its arrival as the intake saw it (bot.service.clock.lateness)."""
        row, ctx, ph = await self.table.open_phase_for_orders(game_id)
        mine = self._abbreviations(row.meta_json, power)
        reading = expand(text, mine) if mine else text
        kept = await self._keep_early(
            game_id, ctx, ph, power, user, text, reading, kind, at=at, receipt=receipt
        )
        if kept is not None:  # house II(5): for a later phase
            return kept
        return await self._submit_now(
            game_id,
            user,
            power,
            text,
            reading,
            ctx,
            ph,
            kind=kind,
            merge=merge,
            at=at,
            receipt=receipt,
        )

    async def _submit_now(  # noqa: PLR0917 - the submission's parts
        self,
        game_id: int,
        user: str,
        power: Power,
        text: str,
        reading: str,
        ctx: GameCtx,
        ph: PhaseState,
        *,
        kind: str,
        merge: bool,
        at: tuple[float | None, float | None] = (None, None),
        receipt: Receipt | None = None,
    ) -> SubmitReply:
        lang = ctx.lang
        position = self.table.position_of(ph)
        describe = ph.phase.describe(lang)
        secret = await hidden_mode(self.table, game_id, ctx)
        orders, errors, refused_strict, voided, later = await self._read(
            ctx, position, power, reading, kind, secret
        )
        accepted = not errors and not refused_strict
        mode = combine_mode(ctx.rules, merge_requested=merge and kind == "submit")
        if mode is Combine.REFUSE and accepted:
            errors, accepted = [t("whole_sets_only", lang, rules=ctx.rules_name)], False
        if mode in (Combine.BY_UNIT, Combine.APPEND) and accepted and kind != "clear":
            orders = await self._combined(ph, power, orders, mode)
        readings = [self.table.engine.render_order(o, lang, ctx.game_map) for o in orders]
        warnings = self._warnings(ctx, position, power, orders) if accepted else []
        warnings = voided + warnings if accepted else warnings
        late: LateSubmissionError | None = None
        async with self.table.storage.tx() as tx:
            now = self.table.clock.now()
            late = await self._too_late(tx, game_id, ctx, ph, now, at, receipt)
            if late is not None:
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
            message += await self._keep_winter(tx, game_id, ph, power, user, later, accepted)
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

    @staticmethod
    def _abbreviations(meta_json: str | None, power: Power) -> dict[str, str]:
        """The player's own abbreviations agreed with the GM (gm-order-correction I(1))."""
        meta = json.loads(meta_json or "{}")
        found: dict[str, str] = meta.get(ABBREVIATIONS, {}).get(power.value, {})
        return found

    async def _keep_winter(  # noqa: PLR0917 - the submission's parts
        self,
        tx: Repository,
        game_id: int,
        ph: PhaseState,
        power: Power,
        user: str,
        later: list[str],
        saved: bool,
    ) -> str:
        """The Winter's orders of a saved set written in the Fall retreat window (edc-2023
        B), kept for the Winter; the words that tell the player, or nothing."""
        if not (later and saved):
            return ""
        lang = (await self.table.load_ctx(game_id)).lang
        winter = early.winter_of(ph.phase)
        now = self.table.clock.now()
        await tx.add_early_orders(game_id, str(winter), power.value, user, "\n".join(later), now)
        return " " + t("kept_winter", lang, phase=winter.describe(lang))

    async def _keep_early(  # noqa: PLR0917 - the submission's parts
        self,
        game_id: int,
        ctx: GameCtx,
        ph: PhaseState,
        power: Power,
        user: str,
        text: str,
        reading: str,
        kind: str,
        *,
        at: tuple[float | None, float | None] = (None, None),
        receipt: Receipt | None = None,
    ) -> SubmitReply | None:
        """A set labelled for a later retreat or adjustment phase, where the rule set takes
        contingent orders (house II(5)) or the clock writes the Winter in the Fall retreat
        window: kept as written for that phase (bot.service.orders.early); None for any other set.
        Late or not as any set (`at`, `receipt`: `_submit`)."""
        if kind == "clear":
            return None
        intake.check_size(reading, ctx.lang)
        _, label = strip_labels(reading, ph.phase)
        named = labelled_phase(label, ph.phase) if label is not None else None
        if named is None or not early.for_later(named, ph.phase):
            return None
        same_window = ctx.clock.shares_window(named, f"F{ph.phase.year}R") and (
            ph.phase == Phase.parse(f"F{ph.phase.year}R")
        )
        if not (ctx.rules.contingent_orders or same_window):
            return None
        message = t("kept_early", ctx.lang, phase=named.describe(ctx.lang))
        async with self.table.storage.tx() as tx:
            now = self.table.clock.now()
            late = await self._too_late(tx, game_id, ctx, ph, now, at, receipt)
            if late is None:
                eid = await tx.add_early_orders(game_id, str(named), power.value, user, text, now)
                await self.table.audit(
                    tx, game_id, now, user, "orders.early", power=power.value, phase=str(named)
                )
        if late is not None:
            raise late
        return SubmitReply(True, game_id, ph.name, power, [], [], [], message, now, eid)

    async def _read(  # noqa: PLR0917 - the inputs of one reading
        self, ctx: GameCtx, position: Position, power: Power, text: str, kind: str, mode: str = ""
    ) -> tuple[list[Order], list[str], list[str], list[str], list[str]]:
        """(orders, unreadable lines, refusals by the rule set, voided lines, the lines kept
        for the Winter) of a set."""
        if kind == "clear":
            return [], [], [], [], []
        intake.check_size(text, ctx.lang)
        text, other_phase = strip_labels(text, position.phase)
        if other_phase is not None:
            phase = position.phase.describe(ctx.lang)
            wrong = t("labelled_other_phase", ctx.lang, label=other_phase, phase=phase)
            return [], [wrong], [], [], []
        if mode:  # Stab!: read against what the player knows (orders/stab_sets.py)
            read = await asyncio.to_thread(
                stab_sets.read_hidden_set,
                self.table.engine,
                text,
                ctx.lang,
                power,
                position,
                ctx.game_map,
                ctx.rules,
                mode,
            )
        else:
            # The Fall retreat window that also takes the Winter's orders (edc-2023 B).
            split = ctx.clock.shares_window(early.winter_of(position.phase), str(position.phase))
            read = await intake.read_off_loop(
                self.table.engine, text, ctx, power, position, split=split
            )
        voided = [t("voided_line", ctx.lang, error=e) for e in read.voided]
        return read.orders, read.errors, read.refused, voided, read.later

    async def _combined(
        self, ph: PhaseState, power: Power, orders: list[Order], mode: Combine
    ) -> list[Order]:
        """`orders` over the standing set: BY_UNIT replaces only the orders of the units
        they name, APPEND keeps every standing order too (bot.core.writing.submission)."""
        standing = await self.table.standing(ph.id)
        if power not in standing:
            return orders
        old = codec.orders_from_json(json.loads(standing[power].orders_json))
        names = {order_key(o) for o in orders} if mode is Combine.BY_UNIT else set()
        kept = [o for o in old if order_key(o) is not None and order_key(o) not in names]
        return kept + orders

    async def _too_late(  # noqa: PLR0917 - internal helper
        self,
        tx: Repository,
        game_id: int,
        ctx: GameCtx,
        ph: PhaseState,
        now: float,
        at: tuple[float | None, float | None] = (None, None),
        receipt: Receipt | None = None,
    ) -> LateSubmissionError | None:
        """Checked in the saving transaction: the phase read before may have closed since
        (a paused game's clock stands at its pause)."""
        cur = await self.table.current_phase(game_id, tx)
        game = await tx.game(game_id)
        paused_at = game.paused_at if game and game.status == "paused" else None
        if cur is None or not accepts_orders(
            ctx.rules,
            status=cur.status if cur.id == ph.id else "",
            now=now,
            deadline=cur.deadline,
            paused_at=paused_at,
            sent=sent_time(at[0], now),
            received=at[1],
            grace=self.table.intake.grace_for(cur.deadline, self.table.grace, receipt),
        ):
            return self.table.late_error(ctx, cur or ph)
        return None

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
            [self.table.engine.render_order(o, ctx.lang, ctx.game_map) for o in orders],
            at,
            self._warnings(ctx, position, power, orders),
        )

    async def orders_map(
        self, game_id: int, user: str, *, palette: str = "", quiet: float = 0.0
    ) -> bytes | None:
        """PNG of the caller's standing orders on the current board (bot.service.orders.order_map),
        None if it has none or the picture fails (the orders are saved either way), or if
        the deadline is less than `quiet` seconds away: at a tournament deadline hundreds of
        acknowledgements arrive at once, and drawing them made orders sent in time arrive
        late (bench/round.py, 60 tables); the player can still ask with `/orders show`."""
        if quiet:  # looked at first: near a deadline, one statement and no drawing
            cur = await self.table.current_phase(game_id)
            if cur and cur.deadline is not None and cur.deadline - self.table.clock.now() < quiet:
                return None
        power = await self.table.player_power(game_id, user)
        _, ctx, ph = await self.table.open_phase_for_orders(game_id)
        standing = await self.table.standing(ph.id)
        if power not in standing:
            return None
        orders = codec.orders_from_json(json.loads(standing[power].orders_json))
        return await self.drawn(game_id, user, ctx, ph, power=power, orders=orders, palette=palette)

    async def drawn(
        self,
        game_id: int,
        user: str,
        ctx: GameCtx,
        ph: PhaseState,
        *,
        power: Power,
        orders: list[Order],
        palette: str | None = None,
    ) -> bytes | None:
        """PNG of `power`'s `orders` on the phase's board as its player may see it, in the
        player's palette; None if the drawing fails (a picture never costs a reply). The
        acknowledgement's map and the builder's draft (bot.service.orders.builder) both draw
        here."""
        position = self.table.position_of(ph)
        if ctx.rules.hidden_movement:  # Stab!: the player's own units only
            position, orders = hidden.known(position, power, orders)
        if not palette:  # the player's (`/settings palette`), else the game's public one
            row = await self.table.game_row(game_id)
            palette = await palette_for(self.table.storage, row, user)
        try:
            # Rendering is CPU-bound (~0.1 s): off the event loop.
            return await asyncio.to_thread(
                order_map.draw,
                position,
                ctx.game_map,
                ctx.rules,
                power,
                orders,
                lang=ctx.lang,
                palette=palette,
            )
        except Exception:  # a picture never costs a player the reply
            log.exception("orders map of game %s for %s failed", game_id, power)
            return None

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
