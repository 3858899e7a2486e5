"""Retreat phase: retreats, clashes (all units retreating to one province are disbanded),
disbands; a dislodged unit without a (legal) retreat order is disbanded."""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.adjudicator.legality import Entry, Illegal, fleet_dest
from bot.core.adjudicator.mapindex import MapIndex
from bot.core.adjudicator.phases import next_position
from bot.core.model import DislodgedUnit, Location, Position, Unit, UnitType
from bot.core.orders import Disband, Move, Order, Retreat, UnitOrder, UnitRef
from bot.core.outcome import OrderResult, Outcome, Reason, Verdict
from bot.core.rules import Choice, DuplicateOrders, RuleSet


def _check(order: Order, d: DislodgedUnit | None, idx: MapIndex, rules: RuleSet) -> Location | None:
    """The retreat destination (None for a disband), or Illegal."""
    if not isinstance(order, Retreat | Disband | Move):
        raise Illegal(f"'{order.canonical()}' cannot be ordered in a retreat phase")  # 6.H.1-6.H.3
    if d is None:
        raise Illegal(f"there is no dislodged unit in {order.unit.province}")  # DATC 6.H.3
    unit = d.unit
    if order.power is not None and order.power is not unit.power:
        raise Illegal(f"the unit in {unit.province} belongs to {unit.power.name.title()}")
    ref = order.unit
    if ref.type is None and rules.missing_unit_type is Choice.A:
        raise Illegal("the unit type is missing")
    if ref.type is not None and ref.type is not unit.type and rules.wrong_unit_type is Choice.A:
        raise Illegal(f"the unit in {unit.province} is of the other type")
    if isinstance(order, Disband):
        return None
    dest = order.dest
    pid = dest.province
    if pid not in d.retreats:
        why = "it was attacked from there" if pid == d.attacker_from else "it is not free"
        near = ", ".join(sorted(d.retreats)) or "none"
        raise Illegal(f"{unit} cannot retreat to {pid}: {why} (options: {near})")
    if unit.type is UnitType.FLEET:
        return fleet_dest(idx, rules, unit.location, dest, "retreat")  # DATC 6.H.15
    if pid in idx.sea:
        raise Illegal("an army cannot retreat to sea")
    return Location(pid)


def adjudicate_retreats(
    position: Position, orders: Sequence[Order], rules: RuleSet, idx: MapIndex
) -> Outcome:
    dislodged = {d.unit.province: d for d in position.dislodged}
    entries: list[Entry] = []
    chosen: dict[str, list[tuple[int, Location | None]]] = {}
    for order in orders:
        d = dislodged.get(order.unit.province) if isinstance(order, UnitOrder) else None
        try:
            dest = _check(order, d, idx, rules)
        except Illegal as exc:
            entry = Entry(order, order.power)
            entry.fail(Reason.ILLEGAL, str(exc))
            entries.append(entry)
            continue
        assert d is not None
        chosen.setdefault(d.unit.province, []).append((len(entries), dest))
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
                entries[i].fail(Reason.ILLEGAL, "several orders for this unit")
            continue
        for c in cands:
            if c is not keep:
                entries[c[0]].fail(Reason.ILLEGAL, "another order is used")
        plan[prov] = keep
    targets: dict[str, int] = {}
    for _, dest in plan.values():
        if dest is not None:
            targets[dest.province] = targets.get(dest.province, 0) + 1
    units = dict(position.units)
    removed: list[Unit] = []
    for d in position.dislodged:
        prov = d.unit.province
        step = plan.get(prov)
        if step is None:
            removed.append(d.unit)
            continue
        i, dest = step
        if dest is None:
            removed.append(d.unit)
        elif targets[dest.province] > 1:  # DATC 6.H.7, 6.H.8
            entries[i].fail(Reason.BOUNCED, "another unit retreated there too")
            removed.append(d.unit)
        else:
            units[dest.province] = Unit(d.unit.power, d.unit.type, dest)
    results = [e.result() for e in entries]
    for d in position.dislodged:
        if d.unit.province not in plan:
            results.append(
                OrderResult(
                    d.unit.power,
                    Disband(d.unit.power, UnitRef.of(d.unit)),
                    Verdict.SUCCEEDS,
                    Reason.NONE,
                    "no retreat ordered: the unit is disbanded",
                    implied=True,
                )
            )
    nxt = next_position(position.phase, units, position.centers, idx)
    return Outcome(position.phase, tuple(results), (), tuple(removed), nxt)
