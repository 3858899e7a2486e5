"""A movement phase end to end: legality, resolution, results, dislodgements, next position."""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.adjudicator.legality import CONVOY, HOLD, MOVE, MovementCheck, hold_eff
from bot.core.adjudicator.mapindex import MapIndex
from bot.core.adjudicator.movement import LAND, Resolver
from bot.core.adjudicator.phases import next_position
from bot.core.model import DislodgedUnit, Position, Power, Unit
from bot.core.orders import Hold, Order, UnitRef
from bot.core.outcome import OrderResult, Outcome, Reason, Verdict
from bot.core.rules import RuleSet

S, F = Verdict.SUCCEEDS, Verdict.FAILS
NONE = Reason.NONE


def adjudicate_movement(
    position: Position, orders: Sequence[Order], rules: RuleSet, idx: MapIndex
) -> Outcome:
    check = MovementCheck(position, idx, rules).run(orders)
    effective = check.effective
    effs = [effective.get(p) or hold_eff(u) for p, u in position.units.items()]
    idle: frozenset[Power] = frozenset()
    if not rules.hold_support_for_civil_disorder:
        ordering = {o.power for o in orders}
        idle = frozenset(u.power for u in position.units.values() if u.power not in ordering)
    r = Resolver(effs, idx, rules, idle)
    r.run()
    units: dict[str, Unit] = {}
    hit: list[tuple[int, int]] = []
    beaten: dict[int, int] = {}
    kind, result, moves_into = r.kind, r.result, r.moves_into
    prov, board, dest_loc = r.prov, r.units, r.dest_loc
    for i, u in enumerate(board):
        if kind[i] == MOVE and result[i]:
            loc = dest_loc[i]
            assert loc is not None
            units[loc.province] = Unit(u.power, u.type, loc)
            continue
        p = prov[i]
        movers = moves_into.get(p)
        if movers:
            for m in movers:
                if result[m]:  # unit i is dislodged by move m
                    hit.append((i, m))
                    beaten[i] = m
                    break
            else:
                units[p] = u
        else:
            units[p] = u
    occupied = set(units)
    standoffs = r.standoffs(occupied) if hit else set()
    dislodged = tuple(
        DislodgedUnit(r.units[i], r.prov[k], r.retreats(i, k, occupied, standoffs)) for i, k in hit
    )
    results: list[OrderResult] = []
    at = r.unit_at
    for order, unit, detail in check.entries:
        if detail or unit is None:
            results.append(OrderResult(order.power, order, F, Reason.ILLEGAL, detail, False))
            continue
        i = at[unit.location.province]
        if effs[i][2] is not order:
            results.append(OrderResult(order.power, order, F, Reason.ILLEGAL, "not used", False))
            continue
        k = kind[i]
        if (result[i] and k != CONVOY) or (k == HOLD and i not in beaten):
            # the common cases first: a move that succeeds, a support given, a hold
            results.append(OrderResult(order.power, order, S, NONE, "", False))
        else:
            results.append(_result(r, i, order, beaten.get(i)))
    for i, e in enumerate(effs):
        if e[2] is None:
            u = e[1]
            hold = Hold(u.power, UnitRef(u.type, u.location, u.power))
            if i in beaten:
                why = f"dislodged by {_by(r, beaten[i])}"
                results.append(OrderResult(u.power, hold, F, Reason.DISLODGED, why, True))
            else:
                results.append(OrderResult(u.power, hold, S, NONE, "", True))
    waiting = [d for d in dislodged if d.retreats]
    removed = tuple(d.unit for d in dislodged if not d.retreats)
    nxt = next_position(position.phase, units, position.centers, idx, waiting)
    return Outcome(position.phase, tuple(results), dislodged, removed, nxt)


def _by(r: Resolver, k: int) -> str:
    return f"{r.units[k]}" if r.kind[k] != MOVE else f"{r.units[k]} from {r.prov[k]}"


def _result(r: Resolver, i: int, order: Order, dislodger: int | None) -> OrderResult:
    power = order.power
    kind = r.kind[i]
    dislodged = dislodger is not None
    gone = f"dislodged by {_by(r, dislodger)}" if dislodger is not None else ""
    if kind == HOLD:
        if dislodged:
            return OrderResult(power, order, F, Reason.DISLODGED, gone, False)
        return OrderResult(power, order, S, NONE, "", False)
    if kind == MOVE:
        if r.result[i]:
            return OrderResult(power, order, S, NONE, "", False)
        if r.mode[i] != LAND and not r.result[r.n + i] and r.mode[i] == 1:
            if r.n + i in r.paradox:
                return OrderResult(
                    power, order, F, Reason.PARADOX, "the convoy is paradoxical", False
                )
            if i in r.no_route:
                return OrderResult(
                    power, order, F, Reason.NO_CONVOY, "no matching convoy orders", False
                )
            return OrderResult(
                power, order, F, Reason.CONVOY_BROKEN, "a convoying fleet was dislodged", False
            )
        if dislodged:
            return OrderResult(power, order, F, Reason.DISLODGED, gone, False)
        return OrderResult(power, order, F, Reason.BOUNCED, "", False)
    void = r.voids.get(i)
    if void is not None:
        return OrderResult(power, order, F, Reason.VOID, void, False)
    if kind == CONVOY:
        if dislodged:
            return OrderResult(power, order, F, Reason.DISLODGED, gone, False)
        army = r.convoyed_by[i]
        if r.n + army in r.paradox:
            return OrderResult(power, order, F, Reason.PARADOX, "the convoy is paradoxical", False)
        if not r.result[r.n + army]:
            return OrderResult(
                power, order, F, Reason.CONVOY_BROKEN, "the convoy route is broken", False
            )
        return OrderResult(power, order, S, NONE, "", False)
    if r.result[i]:
        return OrderResult(power, order, S, NONE, "", False)
    if dislodged:
        return OrderResult(power, order, F, Reason.DISLODGED, gone, False)
    k = r.cutter(i)
    return OrderResult(
        power, order, F, Reason.CUT, f"cut by {_by(r, k)}" if k is not None else "", False
    )
