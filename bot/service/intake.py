"""An order set on its way in: how big it may be, its reading, and whose units it orders.

`check_size` runs on the event loop before anything is read (cheap); `read_set` is pure and
runs in a thread (`asyncio.to_thread`): reading 100 orders takes tens of milliseconds, which
the bot must not spend on its event loop.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.core import catalogue
from bot.core.map import GameMap
from bot.core.model import PhaseKind, Position, Power, Unit
from bot.core.orders import Build, Order, UnitOrder
from bot.core.parser import count_orders
from bot.core.rules import Choice, RuleSet
from bot.core.submission import keeps_readable_orders
from bot.service.engine import Engine
from bot.service.errors import ServiceError
from bot.service.table import unit_text
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
) -> ReadSet:
    """Parse the set, refuse orders for other powers' units, then ask the rule set."""
    parsed = engine.parse(text, lang=lang, power=power, position=position, game_map=game_map)
    orders = list(parsed.orders)
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
    return ReadSet(orders, errors, refused, voided)


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
