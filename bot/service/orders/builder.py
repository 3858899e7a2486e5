"""The order builder (issue 30): a set picked from menus instead of typed, kept as a draft per
phase and power (storage/drafts.py, so a restart loses nothing), submitted through exactly the
typed path (`Orders.submit`: the same reading, checks, acknowledgement and storage).

What a unit may do is pure (bot.core.writing.builder); this room words it in the game's language and
keeps the draft. No Discord here: bot/discord_app/builder.py draws the menus.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from bot.core.catalogue import text
from bot.core.map import GameMap
from bot.core.model import Phase, PhaseKind, Power
from bot.core.orders import Build, Order, Retreat, UnitRef, Waive
from bot.core.writing import builder as model
from bot.core.writing.advice import adjustment, order_key
from bot.service.clock.lateness import Receipt
from bot.service.errors import InvalidStateError, ServiceError
from bot.service.games.values import SubmitReply
from bot.service.hidden import stab as hidden
from bot.service.orders.secret import Orders
from bot.service.storage import codec
from bot.service.table import GameCtx, PhaseState, Table, unit_text

WAIVE = "WAIVE"
log = logging.getLogger(__name__)


def say(key: str, lang: str, **params: object) -> str:
    """A text of the builder's catalogue (data/messages/builder.<lang>.toml)."""
    return text("builder", key, lang, **params)


def _refusal(cls: type[ServiceError], key: str, lang: str, **params: object) -> ServiceError:
    return cls.rendered(say(key, "en", **params), say(key, lang, **params), lang)


@dataclass(frozen=True, slots=True)
class Draft:
    """A player's builder: the phase, what there is to order, and the set picked so far."""

    game_id: int
    name: str
    phase_id: int
    phase: Phase
    power: Power
    lang: str
    variant: str
    slots: tuple[model.Slot, ...]
    orders: tuple[Order, ...]
    owed: int  # adjustments: builds (>0) or removals (<0); else 0
    render: Callable[[Order], str]  # an order in the game's language and nomenclature
    unit_label: Callable[[str], str]  # a slot (by province) as the player reads it
    place_label: Callable[[str], str]  # a province's full name
    ref_label: Callable[[UnitRef], str]  # any unit an order names, in the game's notation
    placing: bool = False  # Stab! Spring 1901: the starting units are being placed (rule 1)
    owners: Mapping[str, Power] = field(default_factory=dict)  # whose unit is where (seen)
    first: bool = False  # the game's first phase: no last turn to repeat

    def slot(self, key: str) -> model.Slot | None:
        return next((s for s in self.slots if s.key == key), None)

    def unordered(self) -> list[model.Slot]:
        if self.phase.kind is PhaseKind.ADJUSTMENT and any(
            isinstance(o, Waive) for o in self.orders
        ):
            return []
        adjusting = self.owed and self.phase.kind is PhaseKind.ADJUSTMENT
        if adjusting and len(self.orders) >= abs(self.owed):
            return []
        if self.phase.kind is PhaseKind.MOVEMENT:  # a Stab! placement is no unit's order
            return model.unordered(self.slots, [o for o in self.orders if not isinstance(o, Build)])
        return model.unordered(self.slots, self.orders)

    def text(self) -> str:
        """The set as typed: one order a line, in the game's language (Stab! placement
        lines first, rule 1)."""
        first = sorted(self.orders, key=lambda o: not isinstance(o, Build))
        return "\n".join(self.render(o) for o in first)


class Builder:
    """Drafts: read, change, submit."""

    def __init__(self, table: Table, orders: Orders) -> None:
        self.table = table
        self.orders = orders

    async def _open(
        self, game_id: int, user: str, phase_id: int | None
    ) -> tuple[GameCtx, PhaseState, Power, str]:
        """The phase being written, refused when `phase_id` names a closed one."""
        power = await self.table.player_power(game_id, user)
        row, ctx, ph = await self.table.open_phase_for_orders(game_id)
        now = self.table.clock.now()
        late = ph.deadline is not None and now > ph.deadline and row.status != "paused"
        if (phase_id is not None and phase_id != ph.id) or ph.status != "open" or late:
            raise _refusal(InvalidStateError, "closed", ctx.lang)
        return ctx, ph, power, row.name

    async def draft(self, game_id: int, user: str, phase_id: int | None = None) -> Draft:
        """The builder of `user` in the phase being written (`phase_id`: the one the menus
        were made for; another one is refused as closed). Begun from the standing set."""
        ctx, ph, power, name = await self._open(game_id, user, phase_id)
        kept = await self.table.storage.draft(ph.id, power.value)
        if kept is not None:
            orders = codec.orders_from_json(json.loads(kept))
        else:
            standing = await self.table.standing(ph.id)
            row = standing.get(power)
            orders = codec.orders_from_json(json.loads(row.orders_json)) if row else []
        return self._draft(game_id, name, ctx, ph, power, orders)

    def _draft(  # noqa: PLR0917 - a draft's parts
        self,
        game_id: int,
        name: str,
        ctx: GameCtx,
        ph: PhaseState,
        power: Power,
        orders: list[Order],
    ) -> Draft:
        game_map: GameMap = ctx.game_map
        raw = self.table.position_of(ph)
        position = raw
        placing = False
        places: list[model.Slot] = []
        if ctx.rules.hidden_movement:  # Stab!: the player's own units, its placement made
            position, _ = hidden.known(raw, power, orders)
            places = model.placement_slots(game_map, power, orders) if hidden.placing(raw) else []
            placing = bool(places)
        found = tuple(places if placing else model.slots(position, game_map, power))
        names = game_map.names()
        lang = ctx.lang
        engine = self.table.engine
        movement = ph.phase.kind is PhaseKind.MOVEMENT

        def render(order: Order) -> str:
            if movement and isinstance(order, Build):  # a Stab! placement line: `F STP/NC`
                return order.unit.canonical()
            return engine.render_order(order, lang, game_map)

        def unit_label(key: str) -> str:
            slot = next((s for s in found if s.key == key), None)
            if slot is not None and slot.unit is not None:
                return unit_text(names, slot.unit.type, slot.unit.location, lang)
            return names.abbreviation(key, lang)

        owed = adjustment(position, game_map, power) if ph.phase.kind is PhaseKind.ADJUSTMENT else 0
        return Draft(
            game_id,
            name,
            ph.id,
            ph.phase,
            power,
            lang,
            ctx.variant,
            found,
            tuple(orders),
            owed,
            render,
            unit_label,
            lambda pid: names.full_name(pid, lang),
            lambda ref: unit_text(names, ref.type, ref.location, lang),
            placing,
            {pid: u.power for pid, u in position.units.items()},
            ph.phase == game_map.start.phase,
        )

    async def change(
        self, game_id: int, user: str, phase_id: int, action: str, value: str = ""
    ) -> Draft:
        """Change the draft: `set` the option `value` (an order's canonical text, or WAIVE),
        `unset` the order of unit `value`, `hold` every unordered unit (or waive, disband),
        `repeat` last turn's orders where still possible, `clear` all."""
        current = await self.draft(game_id, user, phase_id)
        orders = list(current.orders)
        if action == "set":
            orders = self._set(current, orders, value)
        elif action == "unset":
            orders = [o for o in orders if order_key(o) != value]
        elif action == "hold":
            orders += self._defaults(current)
        elif action == "repeat":
            previous = await self._previous(game_id, current)
            for order in model.repeated(current.slots, previous):
                orders = model.placed(orders, order)
        elif action == "clear":
            orders = []
        else:
            raise ValueError(action)
        now = self.table.clock.now()
        async with self.table.storage.tx() as tx:
            await tx.set_draft(
                phase_id, current.power.value, json.dumps(codec.orders_to_json(orders)), now
            )
        return await self.draft(game_id, user, phase_id)

    @staticmethod
    def _set(current: Draft, orders: list[Order], value: str) -> list[Order]:
        if value == WAIVE and current.owed > 0:
            return [*orders, Waive(current.power)]
        for slot in current.slots:
            for option in slot.all_orders():
                if option.canonical() == value:
                    return model.placed(orders, option)
        raise _refusal(InvalidStateError, "no_such_option", current.lang)

    @staticmethod
    def _defaults(current: Draft) -> list[Order]:
        """One press for the rest: hold (movement), disband (retreat), waive (builds)."""
        left = current.unordered()
        kind = current.phase.kind
        if current.placing:
            return []  # Stab!: the starting units are chosen, not defaulted
        if kind is PhaseKind.ADJUSTMENT:
            built = sum(1 for o in current.orders if not isinstance(o, Waive))
            return [Waive(current.power)] * max(0, current.owed - built) if current.owed > 0 else []
        # a slot's first option is its hold (movement); its last its disband (retreat)
        return [s.direct[0] if kind is PhaseKind.MOVEMENT else s.direct[-1] for s in left]

    async def _previous(self, game_id: int, current: Draft) -> list[Order]:
        """The power's orders of the last adjudicated phase of the same kind."""
        rows = await self.table.storage.phase_summaries(game_id)
        for row in reversed(rows):
            phase = Phase.parse(row.phase)
            if (
                row.id != current.phase_id
                and phase.kind is current.phase.kind
                and row.status == "done"
            ):
                standing = await self.table.standing(row.id)
                found = standing.get(current.power)
                return codec.orders_from_json(json.loads(found.orders_json)) if found else []
        return []

    async def submit(
        self, game_id: int, user: str, phase_id: int, receipt: Receipt | None = None
    ) -> SubmitReply:
        """Submit the draft as a typed set (the same path: `Orders.submit`); dropped once
        saved. An empty draft is refused, nothing changed."""
        current = await self.draft(game_id, user, phase_id)
        if not current.orders:
            raise _refusal(InvalidStateError, "empty", current.lang)
        reply = await self.orders.submit(game_id, user, current.text(), receipt=receipt)
        if reply.accepted:
            now = self.table.clock.now()
            async with self.table.storage.tx() as tx:
                await tx.set_draft(phase_id, current.power.value, None, now)
        return reply

    async def to_act(self, game_id: int, power: Power, phase: str) -> list[str]:
        """What `power` has to do in the retreat or adjustment phase now open, in words:
        its dislodged units and where each may go, or the builds or removals it owes and
        where (the DM sent at once when such a phase opens); nothing once `phase` is over."""
        row, ctx, ph = await self.table.open_phase_for_orders(game_id)
        if ph.name != phase:
            return []
        d = self._draft(game_id, row.name, ctx, ph, power, [])
        lang = ctx.lang
        kind = ph.phase.kind
        if kind is PhaseKind.RETREAT:
            lines = [say("act.retreat_head", lang, phase=ph.phase.describe(lang))]
            for slot in d.slots:
                places = [
                    d.place_label(o.dest.province) for o in slot.direct if isinstance(o, Retreat)
                ]
                where = ", ".join(places) if places else say("act.nowhere", lang)
                lines.append(
                    say("act.retreat_unit", lang, unit=d.unit_label(slot.key), places=where)
                )
            return lines
        if kind is PhaseKind.ADJUSTMENT and d.owed > 0:
            sites = ", ".join(d.unit_label(s.key) for s in d.slots)
            return [say("act.builds", lang, n=d.owed, phase=ph.phase.describe(lang), sites=sites)]
        if kind is PhaseKind.ADJUSTMENT and d.owed < 0:
            units = ", ".join(d.unit_label(s.key) for s in d.slots)
            return [
                say("act.removals", lang, n=-d.owed, phase=ph.phase.describe(lang), units=units)
            ]
        return []

    async def draft_map(self, game_id: int, user: str, current: Draft) -> bytes | None:
        """PNG of the draft on the board, as the acknowledgement's map draws a saved set
        (bot.service.orders.order_map); None if there is nothing to draw or the drawing fails."""
        if not current.orders:
            return None
        _, ctx, ph = await self.table.open_phase_for_orders(game_id)
        return await self.orders.drawn(
            game_id, user, ctx, ph, power=current.power, orders=list(current.orders)
        )
