"""Retreat phase: retreats, clashes (all units retreating to one province are disbanded),
disbands; a dislodged unit without a (legal) retreat order is disbanded."""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.adjudicator.legality import NO_REASON, SUCCEEDS, Entry, Illegal, fleet_dest
from bot.core.adjudicator.mapindex import MapIndex
from bot.core.adjudicator.phases import copied, next_position
from bot.core.messages import Items, Prov, msg
from bot.core.model import FLEET, DislodgedUnit, Location, Position, Unit
from bot.core.orders import Disband, Move, Order, Retreat, UnitOrder, UnitRef
from bot.core.outcome import Outcome, Reason, order_result, outcome
from bot.core.rules import Choice, DuplicateOrders, RuleSet

_IN_RETREAT = (Retreat, Disband, Move)  # a tuple: `A | B` makes a Union each time


def _check(order: Order, d: DislodgedUnit | None, idx: MapIndex, rules: RuleSet) -> Location | None:
    """The retreat destination (None for a disband), or Illegal."""
    if not isinstance(order, _IN_RETREAT):
        raise Illegal(msg("illegal.not_in_retreat", order=order))  # 6.H.1-6.H.3
    if d is None:
        raise Illegal(msg("illegal.no_dislodged", province=Prov(order.unit.province)))  # DATC 6.H.3
    unit = d.unit
    if order.power is not None and order.power is not unit.power:
        raise Illegal(msg("illegal.belongs_to", province=Prov(unit.province), power=unit.power))
    ref = order.unit
    if ref.type is None and rules.missing_unit_type is Choice.A:
        raise Illegal(msg("illegal.type_missing"))
    if ref.type is not None and ref.type is not unit.type and rules.wrong_unit_type is Choice.A:
        raise Illegal(msg("illegal.other_type", province=Prov(unit.province)))
    if isinstance(order, Disband):
        return None
    dest = order.dest
    pid = dest.province
    if pid not in d.retreats:
        why = msg("retreat.attacked_from" if pid == d.attacker_from else "retreat.not_free")
        near = Items(tuple(Prov(p) for p in sorted(d.retreats)))
        raise Illegal(
            msg("illegal.cannot_retreat", unit=unit, place=Prov(pid), why=why, options=near)
        )
    if unit.type is FLEET:  # (an Enum's member read: ~700 instructions, issue 18)
        return fleet_dest(idx, rules, unit.location, dest, "retreat")  # DATC 6.H.15
    if pid in idx.sea:
        raise Illegal(msg("illegal.army_retreat_sea"))
    return Location(pid)


_GONE = msg("retreat.none_ordered")


def adjudicate_retreats(
    position: Position, orders: Sequence[Order], rules: RuleSet, idx: MapIndex
) -> Outcome:
    dislodged = {d.unit.location.province: d for d in position.dislodged}
    entries: list[Entry] = []
    chosen: dict[str, list[tuple[int, Location | None]]] = {}
    for order in orders:
        d = dislodged.get(order.unit.location.province) if isinstance(order, UnitOrder) else None
        try:
            dest = _check(order, d, idx, rules)
        except Illegal as exc:
            entry = Entry(order, order.power)
            entry.fail(Reason.ILLEGAL, exc.message)
            entries.append(entry)
            continue
        assert d is not None
        chosen.setdefault(d.unit.location.province, []).append((len(entries), dest))
        entries.append(Entry(order, order.power))
    plan: dict[str, tuple[int, Location | None]] = {}
    for prov, cands in chosen.items():
        same = len({c[1] for c in cands}) == 1
        if same or rules.duplicate_orders is DuplicateOrders.FIRST:
            keep = cands[0]
        elif rules.duplicate_orders is DuplicateOrders.LAST:
            keep = cands[-1]
        else:
            for i, _ in cands:
                entries[i].fail(Reason.ILLEGAL, msg("retreat.several"))
            continue
        for c in cands:
            if c[0] != keep[0]:  # not `is`: mypyc boxes a tuple anew when read (native spike)
                entries[c[0]].fail(Reason.ILLEGAL, msg("retreat.another_used"))
        plan[prov] = keep
    targets: dict[str, int] = {}
    for _, dest in plan.values():
        if dest is not None:
            targets[dest.province] = targets.get(dest.province, 0) + 1
    units = copied(position.units)
    removed: list[Unit] = []
    for d in position.dislodged:
        unit = d.unit
        step = plan.get(unit.location.province)
        if step is None:
            removed.append(unit)
            continue
        i, dest = step
        if dest is None:
            removed.append(unit)
        elif targets[dest.province] > 1:  # DATC 6.H.7, 6.H.8
            entries[i].fail(Reason.BOUNCED, msg("retreat.clash"))
            removed.append(unit)
        else:
            units[dest.province] = idx.unit(unit.power, unit.type, dest)
    results = [e.result() for e in entries]
    for d in position.dislodged:
        unit = d.unit
        if unit.location.province not in plan:
            disband = Disband(unit.power, UnitRef.of(unit))
            results.append(order_result(unit.power, disband, SUCCEEDS, NO_REASON, "", True, _GONE))
    nxt = next_position(position.phase, units, position.centers, idx)
    # its twin (outcome.py): not the frozen __init__'s five setattr calls (issue 18)
    return outcome(position.phase, tuple(results), (), tuple(removed), nxt)
