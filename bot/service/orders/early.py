"""Orders for a later phase: house II(5) contingent retreat and adjustment orders ("You can
submit retreat/adjustment orders early; at the deadline, I use the last submitted orders"),
and the Fall retreat window that also takes the Winter adjustments (edc-2023 B, "Winter
(retirement & adjustments): writing 1'"; the clock's `retreats_with_adjustments`).

A set for a later phase is kept as written (`early_orders`), never lost. When that phase
opens, the latest set of each power is read against the board then, as if sent at that
moment: if it is still valid it becomes the power's standing orders; either way the player
is told (an `early_orders_read` event). The Fall retreats and the Winter share the label W
(house II(2)), so a Fall retreat phase reads the sets for itself and for the Winter: its
retreat orders are applied, its adjustment orders kept for the Winter.
"""

from __future__ import annotations

import json

from bot.core.model import Phase, PhaseKind, Season
from bot.core.orders import Build, Disband, Waive
from bot.service.events import EventKind
from bot.service.games.abbreviations import META_KEY, expand
from bot.service.orders import intake
from bot.service.orders.labels import strip_labels
from bot.service.storage import codec
from bot.service.table import GameCtx, PhaseState, Table, dumps, parse_power
from bot.service.texts import t


def for_later(named: Phase, current: Phase) -> bool:
    """A retreat or adjustment phase after the current one."""
    later = named.sort_key > current.sort_key
    return later and named.kind in (PhaseKind.RETREAT, PhaseKind.ADJUSTMENT)


def winter_of(phase: Phase) -> Phase:
    return Phase.parse(f"W{phase.year}A")


def keys_for(phase: Phase) -> tuple[str, ...]:
    """The phases whose early sets are read when `phase` opens: the Fall retreats read the
    Winter's too (house W), the Winter reads the Fall retreats' that no retreat phase read."""
    if phase.season is Season.FALL and phase.kind is PhaseKind.RETREAT:
        return (str(phase), str(winter_of(phase)))
    if phase.season is Season.WINTER:
        return (str(phase), f"F{phase.year}R")
    return (str(phase),)


class EarlyOrders:
    def __init__(self, table: Table) -> None:
        self.table = table

    async def apply(self, game_id: int, ctx: GameCtx, ph: PhaseState) -> None:
        """Read the early sets for the phase `ph` (just opened); idempotent: each set is
        marked read in the transaction that saves what it became."""
        keys = keys_for(ph.phase)
        rows = await self.table.storage.early_orders(game_id, keys)
        if not rows:
            return
        position = self.table.position_of(ph)
        fall_retreat = ph.phase.season is Season.FALL and ph.phase.kind is PhaseKind.RETREAT
        row = await self.table.game_row(game_id)
        mine = json.loads(row.meta_json or "{}").get(META_KEY, {})
        for early in rows:
            power = parse_power(early.power, ctx.game_map)
            text, _ = strip_labels(expand(early.text, mine.get(early.power, {})), ph.phase)
            read = await intake.read_off_loop(
                self.table.engine, text, ctx, power, position, split=fall_retreat
            )
            orders = read.orders
            if ph.phase.kind is PhaseKind.ADJUSTMENT:  # a W set's retreats are moot now
                orders = [o for o in orders if isinstance(o, Build | Waive | Disband)]
            problems = read.errors + read.refused
            accepted = not problems and bool(orders)
            readings = [self.table.engine.render_order(o, ctx.lang, ctx.game_map) for o in orders]
            now = self.table.clock.now()
            async with self.table.storage.tx() as tx:
                sid = None
                if accepted:
                    reply = {"orders": readings, "errors": [], "warnings": [], "early": True}
                    sid = await tx.add_submission(
                        ph.id,
                        early.power,
                        early.user,
                        "submit",
                        early.text,
                        True,
                        dumps(codec.orders_to_json(orders)),
                        dumps(reply),
                        now,
                    )
                await tx.mark_early_applied(game_id, keys, early.power, now, sid, ph.id)
                if read.later and not problems:  # the Winter's part of a W set
                    winter = str(winter_of(ph.phase))
                    later = "\n".join(read.later)
                    await tx.add_early_orders(
                        game_id, winter, early.power, early.user, later, early.submitted_at
                    )
                if accepted or problems:
                    await self.table.emit(
                        tx,
                        f"{game_id}:{ph.id}:early:{early.id}",
                        game_id,
                        EventKind.EARLY_ORDERS_READ,
                        now,
                        {
                            "power": early.power,
                            "user": early.user,
                            "accepted": accepted,
                            "orders": readings,
                            "errors": problems,
                            "message": t(
                                "early_applied" if accepted else "early_refused",
                                ctx.lang,
                                phase=ph.phase.describe(ctx.lang),
                            ),
                        },
                        ph.id,
                    )
