"""MovementCheck.run judges the commonest orders inline (a move to a neighbour, a support of a
neighbour): under every preset, on random boards with slipped designations, it must give the
entries, effective orders and `as_given` that check_unit and the per-kind methods give."""

from __future__ import annotations

import random
from dataclasses import replace

from bot.core.adjudicator.legality import (
    Eff,
    Illegal,
    MovementCheck,
    as_given,
    check_unit,
)
from bot.core.adjudicator.mapindex import map_index
from bot.core.adjudicator.random_phases import random_orders, random_position
from bot.core.map import load_map
from bot.core.messages import Message
from bot.core.model import Coast, Location, Position, Power, Unit, UnitType
from bot.core.orders import (
    Convoy,
    Hold,
    Move,
    Order,
    SupportHold,
    SupportMove,
    UnitOrder,
    UnitRef,
)
from bot.core.presets import list_presets, load_rules
from bot.core.rules import RuleSet

MAP = load_map("standard")
IDX = map_index(MAP)


def _reference(
    position: Position, orders: list[Order], rules: RuleSet
) -> tuple[list[tuple[Order, Unit | None, Message | None]], dict[str, Eff], bool]:
    chk = MovementCheck(position, IDX, rules)
    methods = {
        Hold: chk._hold,  # the reference the inline checks copy
        Move: chk._move,
        SupportHold: chk._support_hold,
        SupportMove: chk._support_move,
        Convoy: chk._convoy,
    }
    entries: list[tuple[Order, Unit | None, Message | None]] = []
    effective: dict[str, Eff] = {}
    for o in orders:
        assert isinstance(o, UnitOrder)
        try:
            unit = check_unit(o, position, rules)
            effective[o.unit.province] = methods[type(o)](o, unit)
            entries.append((o, unit, None))
        except Illegal as exc:
            entries.append((o, position.units.get(o.unit.province), exc.message))
    return entries, effective, all(as_given(o, position.units) for o in orders)


def _slip(rng: random.Random, o: Order) -> UnitOrder:
    """A designation as a player might write it: no or wrong type, nationality or coast."""
    assert isinstance(o, UnitOrder)
    other = rng.choice([None, UnitType.ARMY, UnitType.FLEET])
    if isinstance(o, SupportHold | SupportMove | Convoy) and rng.random() < 0.5:
        power = rng.choice([None, Power.TURKEY, o.target.power])
        return replace(o, target=replace(o.target, type=other, power=power))
    return replace(o, unit=replace(o.unit, type=other))


def _wild(rng: random.Random, position: Position) -> UnitOrder:
    """An order for a random unit to or about a random place near some unit (often illegal)."""
    units = list(position.units.values())
    u, t = rng.choice(units), rng.choice(units)
    near = sorted(IDX.any_adj[t.province] | IDX.any_adj[u.province])
    dest = Location(rng.choice(near), rng.choice([None, None, None, Coast.NORTH, Coast.SOUTH]))
    me, it = UnitRef.of(u), UnitRef.of(t)
    return rng.choice(
        [
            Move(u.power, me, dest, via_convoy=rng.random() < 0.2),
            SupportHold(u.power, me, it),
            SupportMove(u.power, me, it, dest),
            Convoy(u.power, me, it, dest),
        ]
    )


def test_the_inline_checks_judge_as_the_methods_do_under_every_preset() -> None:
    rng = random.Random(1901)
    presets = [load_rules(name) for name in list_presets()]
    for _ in range(150):
        position = random_position(rng, MAP, 28)
        drawn = [o for o in random_orders(rng, position, IDX, wild=0.2) if isinstance(o, UnitOrder)]
        slipped = [_slip(rng, o) if rng.random() < 0.1 else o for o in drawn]
        wild = {o.unit.province: o for o in (_wild(rng, position) for _ in range(8))}
        orders: list[Order] = [o for o in slipped if o.unit.province not in wild]
        orders += wild.values()
        for rules in presets:
            got = MovementCheck(position, IDX, rules).run(orders)
            entries, effective, given = _reference(position, orders, rules)
            assert got.entries == entries
            assert got.effective == effective
            assert got.as_given == given
