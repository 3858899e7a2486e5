"""An order set on its way in: how big it may be, its reading, and whose units it orders.

`check_size` runs on the event loop before anything is read (cheap); `read_set` is pure and
runs in a thread (`asyncio.to_thread`): reading 100 orders takes tens of milliseconds, which
the bot must not spend on its event loop.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from bot.core import catalogue
from bot.core.language.parser import count_orders
from bot.core.map import GameMap
from bot.core.model import PhaseKind, Position, Power, Unit
from bot.core.orders import Build, Disband, Order, UnitOrder, Waive
from bot.core.rules import Choice, RuleSet
from bot.core.writing.submission import keeps_readable_orders
from bot.service.engine import Engine
from bot.service.errors import ServiceError
from bot.service.table import GameCtx, unit_text
from bot.service.texts import t

# A whole press of 34 units (the standard map's maximum) written out with supports and a
# few second thoughts is well under 100 orders; a bigger set is a paste gone wrong.
MAX_ORDERS = 100
# 100 orders of the longest real order (~120 characters) and their line breaks, rounded up:
# a 10 MB message is refused before it is even split into lines.
MAX_TEXT = 20_000


@dataclass(frozen=True, slots=True)
class ReadSet:
    orders: list[Order] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # unreadable or foreign: the set is refused
    refused: list[str] = field(default_factory=list)  # the rule set's refusals (Stabbeurfou)
    voided: list[str] = field(default_factory=list)  # unreadable lines the rule set voids (EDC)
    # With `split`: the lines of the adjustment orders, kept for the Winter
    # (bot.service.orders.early)
    later: list[str] = field(default_factory=list)


def check_size(text: str, lang: str) -> None:
    """Refuse (ServiceError, nothing saved) a set too long to read: first by its length,
    then by its number of orders."""
    if len(text) > MAX_TEXT:
        raise ServiceError.of("orders_too_long", lang, max=MAX_TEXT, n=len(text))
    n = count_orders(text)
    if n > MAX_ORDERS:
        raise ServiceError.of("too_many_orders", lang, max=MAX_ORDERS, n=n)


def read_set(  # noqa: PLR0917 - the pure inputs of one reading, run in a thread
    engine: Engine,
    text: str,
    lang: str,
    power: Power,
    position: Position,
    game_map: GameMap,
    rules: RuleSet,
    *,
    split: bool = False,
) -> ReadSet:
    """Parse the set, refuse orders for other powers' units, then ask the rule set. With
    `split` (a Fall retreat window that also takes the adjustments) the adjustment orders
    are set apart as `later` lines, unchecked: they are read when the Winter opens."""
    # DATC 4.E.2 b (house III(1) B): the set read as an attempt at a complete valid set.
    as_set = rules.poorly_written_orders is Choice.B
    parsed = engine.parse(
        text, lang=lang, power=power, position=position, game_map=game_map, as_set=as_set
    )
    orders = list(parsed.orders)
    later: list[str] = []
    if split:
        orders, for_winter = split_adjustments(position, orders)
        later = [o.source for o in for_winter]
    errors = [f"{src}: {why}" if src else why for src, why in parsed.errors]
    voided: list[str] = []
    if errors and keeps_readable_orders(rules, readable=len(orders)):
        voided, errors = errors, []
    errors += foreign_unit_errors(engine, position, game_map, power, orders, rules, lang)
    refused: list[str] = []
    if not errors:
        problems = engine.check(position, orders, rules, game_map, lang)
        # The core refuses only under these keys (submission_problems); asked only then.
        if (
            rules.reject_inaccurate_order_sets
            or not rules.xxx_hold_accepted
            or not rules.irrelevant_coast_ignored
        ):
            refused = problems
    return ReadSet(orders, errors, refused, voided, later)


async def read_off_loop(
    engine: Engine,
    text: str,
    ctx: GameCtx,
    power: Power,
    position: Position,
    *,
    split: bool,
) -> ReadSet:
    """`read_set` in a thread: reading is pure and CPU-bound, never on the event loop."""
    return await asyncio.to_thread(
        read_set, engine, text, ctx.lang, power, position, ctx.game_map, ctx.rules, split=split
    )


def split_adjustments(position: Position, orders: list[Order]) -> tuple[list[Order], list[Order]]:
    """(retreat orders, adjustment orders) of a set written in a Fall retreat window that
    also takes the Winter's orders (edc-2023 B "Winter (retirement & adjustments)"): builds
    and waives are adjustments, and so is a disband of a unit that is not dislodged."""
    now: list[Order] = []
    later: list[Order] = []
    for order in orders:
        removal = isinstance(order, Disband) and position.dislodged_in(order.unit.province) is None
        (later if isinstance(order, Build | Waive) or removal else now).append(order)
    return now, later


def ordered_unit(position: Position, order: Order) -> Unit | None:
    """The unit on the board an order is for: in a retreat phase the dislodged unit there
    first; None for a build or a waive (they name no unit) and for an empty place."""
    if not isinstance(order, UnitOrder) or isinstance(order, Build):
        return None
    province = order.unit.province
    if position.phase.kind is PhaseKind.RETREAT:
        dislodged = position.dislodged_in(province)
        if dislodged is not None:
            return dislodged.unit
    return position.unit_in(province)


def foreign_unit_errors(  # noqa: PLR0917 - pure helper
    engine: Engine,
    position: Position,
    game_map: GameMap,
    power: Power,
    orders: list[Order],
    rules: RuleSet,
    lang: str,
) -> list[str]:
    """An order for another power's unit (by the board now), unless the rule set allows proxy
    orders (DATC 4.E.5 a/b). An order for an empty place is only a warning (`_warnings`):
    the adjudicator rules on it."""
    if rules.proxy_orders is not Choice.C:
        return []
    names = game_map.names()
    out = []
    for order in orders:
        unit = ordered_unit(position, order)
        if unit is not None and unit.power is not power:
            out.append(
                t(
                    "foreign_unit",
                    lang,
                    order=engine.render_order(order, lang, game_map),
                    unit=unit_text(names, unit.type, unit.location, lang),
                    owner=owner_word(game_map, unit.power, lang),
                )
            )
    return out


def owner_word(game_map: GameMap, power: Power, lang: str) -> str:
    """ "A PAR is French": the variant's adjective (French: feminine, "une unité")."""
    return game_map.power_adjective(power, catalogue.normalise(lang))
