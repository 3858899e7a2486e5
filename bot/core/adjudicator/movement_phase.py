"""A movement phase end to end: legality, resolution, results, dislodgements, next position."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, cast

from bot.core.adjudicator.fastpath import settle
from bot.core.adjudicator.legality import CONVOY, HOLD, MEMO_SIZE, MOVE, Eff, MovementCheck
from bot.core.adjudicator.mapindex import MapIndex
from bot.core.adjudicator.movement import LAND, Resolver
from bot.core.adjudicator.phases import next_position
from bot.core.messages import Message, Prov, msg
from bot.core.model import DislodgedUnit, Position, Power, Unit, dislodged_unit
from bot.core.orders import Hold, Order, UnitRef
from bot.core.outcome import OrderResult, Outcome, Reason, Verdict, order_result, outcome
from bot.core.rules import RuleSet

S: Final = Verdict.SUCCEEDS
F: Final = Verdict.FAILS
NONE: Final = Reason.NONE
# Enum members read once (a class attribute of an Enum costs ~900 instructions: issue 18).
DISLODGED: Final = Reason.DISLODGED
ILLEGAL: Final = Reason.ILLEGAL
BOUNCED: Final = Reason.BOUNCED
CUT: Final = Reason.CUT
PARADOX: Final = Reason.PARADOX
NO_CONVOY: Final = Reason.NO_CONVOY
VOID: Final = Reason.VOID
CONVOY_BROKEN: Final = Reason.CONVOY_BROKEN


def prepare(
    position: Position,
    orders: Sequence[Order],
    rules: RuleSet,
    idx: MapIndex,
    check: MovementCheck | None = None,
) -> tuple[MovementCheck, Resolver]:
    """The legality step (unless `check` is its run over `orders`) and the resolver, matched
    and not run yet."""
    if check is None:
        check = MovementCheck(position, idx, rules).run(orders)
    effective = check.effective
    board = position.units
    # each unit's effective order in board order, looked up in C (issue 18); a unit without
    # a (legal) order holds: hold_eff(u), inline
    found: list[Eff | None] = list(map(effective.get, board))
    if len(effective) != len(board):
        for i, u in enumerate(board.values()):
            if found[i] is None:
                found[i] = (HOLD, u, None, "", None, "", None, False)
    effs = cast("list[Eff]", found)  # no None left
    idle: frozenset[Power] = frozenset()
    if not rules.hold_support_for_civil_disorder:
        ordering = {o.power for o in orders}
        idle = frozenset(u.power for u in position.units.values() if u.power not in ordering)
    return check, Resolver(effs, idx, rules, idle)


def leniency_only(rules: RuleSet) -> bool:
    """Is the interpretation's correction of designations (interpret.py, `_correct_all`) the
    rule set's only movement-phase policy, so that it hands over unchanged, with no decision,
    every order that names its units as they stand (`as_given`, the same check)?"""
    return (
        rules.unreachable_coast_illegal  # else every move is judged by `_correct`
        and not rules.support_coast_mismatch_ignored
        and not rules.duplicates_count_illegal_orders
        and rules.illegal_move_receives_hold_support
        and not rules.implicit_orders
    )


def adjudicate_as_given(
    position: Position, orders: Sequence[Order], rules: RuleSet, idx: MapIndex
) -> Outcome | None:
    """The movement phase adjudicated with the legality step first, when the interpretation
    would change nothing (`leniency_only` and every order `as_given`), else None: the batch
    path's orders almost always name their units as they stand (the legality step then runs
    again after the interpretation)."""
    if not leniency_only(rules):
        return None
    check = MovementCheck(position, idx, rules).run(orders)
    if not check.as_given:
        return None
    return adjudicate_movement(position, orders, rules, idx, check=check)


def adjudicate_movement(
    position: Position,
    orders: Sequence[Order],
    rules: RuleSet,
    idx: MapIndex,
    *,
    fast: bool = True,
    check: MovementCheck | None = None,
) -> Outcome:
    """`fast=False` resolves with the general resolver alone (the fast path's reference);
    `check`: the legality step already run over `orders`."""
    check, r = prepare(position, orders, rules, idx, check)
    effs = r.effs
    if not (fast and settle(r)):  # no convoy: direct strengths (fastpath.py)
        r.run()
    units: dict[str, Unit] = {}
    hit: list[tuple[int, int]] = []
    beaten: dict[int, int] = {}
    kind, result, moves_into = r.kind, r.result, r.moves_into
    held, known = idx.held, idx.units
    # results of the holds the engine supplies, in board order (after the orders' results)
    implied: list[OrderResult] = []
    # one zip instead of an index per column (~4 subscripts a unit)
    for i, (u, k, ok, p, loc, e) in enumerate(
        zip(r.units, kind, result, r.prov, r.dest_loc, effs, strict=False)
    ):
        if ok and k == MOVE:
            assert loc is not None
            try:  # idx.unit, inline (a call per move that succeeds: issue 18)
                units[loc.province] = known[loc.province][u.power, u.type, loc.coast]
            except KeyError:  # a power the map does not know (only in a hand-made position)
                units[loc.province] = idx.unit(u.power, u.type, loc)
            continue
        by = None
        if p in moves_into:  # most units are not attacked: `in` is cheaper than .get
            for m in moves_into[p]:
                if result[m]:  # unit i is dislodged by move m
                    hit.append((i, m))
                    beaten[i] = by = m
                    break
            else:
                units[p] = u
        else:
            units[p] = u
        if e[2] is None:  # no order used: the unit holds
            if by is not None:
                hold = Hold(u.power, UnitRef(u.type, u.location, u.power))
                why = _by(r, by, "result.dislodged_by")
                implied.append(order_result(u.power, hold, F, DISLODGED, "", True, why))
                continue
            try:  # the implied hold that succeeds: built once per map
                implied.append(held[p][u.power, u.type, u.location.coast])
            except KeyError:  # not a unit the map knows (only in a hand-made position)
                hold = Hold(u.power, UnitRef(u.type, u.location, u.power))
                implied.append(order_result(u.power, hold, S, NONE, "", True))
    dislodged: tuple[DislodgedUnit, ...] = ()
    removed: tuple[Unit, ...] = ()
    waiting: list[DislodgedUnit] = []
    if hit:  # (most phases dislodge nobody: no sets, no generators)
        occupied = set(units)
        standoffs = r.standoffs(occupied)
        dislodged = tuple(
            dislodged_unit(r.units[i], r.prov[k], r.retreats(i, k, occupied, standoffs))
            for i, k in hit
        )
        waiting = [d for d in dislodged if d.retreats]
        removed = tuple(d.unit for d in dislodged if not d.retreats)
    results: list[OrderResult] = []
    at, mode = r.unit_at, r.mode
    succeeded = idx.succeeded
    if len(succeeded) > MEMO_SIZE:
        succeeded.clear()
    for order, unit, detail in check.entries:
        if detail is not None or unit is None:
            results.append(order_result(order.power, order, F, ILLEGAL, "", False, detail))
            continue
        i = at[unit.location.province]
        if effs[i][2] is not order:
            results.append(order_result(order.power, order, F, ILLEGAL, "", False, _NOT_USED))
            continue
        k = kind[i]
        if (result[i] and k != CONVOY) or (k == HOLD and i not in beaten):
            # the common cases first: a move that succeeds, a support given, a hold; the
            # result of an order object met again is the one made before (see MapIndex)
            oid = id(order)
            ok = succeeded.get(oid)
            if ok is None or ok.order is not order:
                ok = succeeded[oid] = order_result(order.power, order, S, NONE, "", False)
            results.append(ok)
        elif k == MOVE and mode[i] == LAND and i not in beaten:
            # then the commonest failure (see _result): a move over land that bounced
            results.append(order_result(order.power, order, F, BOUNCED, "", False))
        else:
            results.append(_result(r, i, order, beaten.get(i)))
    results += implied
    nxt = next_position(position.phase, units, position.centers, idx, waiting)
    return outcome(position.phase, tuple(results), dislodged, removed, nxt)


def _by(r: Resolver, k: int, key: str) -> Message:
    """`dislodged by A PAR from BUR` / `cut by F NTH` (its English text is the detail)."""
    if r.kind[k] != MOVE:
        return msg(key, unit=r.units[k])
    return msg(f"{key}_from", unit=r.units[k], origin=Prov(r.prov[k]))


_NOT_USED: Final = msg("result.not_used")
_PARADOX: Final = msg("result.paradox")
_NO_CONVOY: Final = msg("result.no_convoy")
_FLEET_DISLODGED: Final = msg("result.fleet_dislodged")
_ROUTE_BROKEN: Final = msg("result.route_broken")


def _result(r: Resolver, i: int, order: Order, dislodger: int | None) -> OrderResult:
    power = order.power
    kind = r.kind[i]
    dislodged = dislodger is not None
    gone = _by(r, dislodger, "result.dislodged_by") if dislodger is not None else None
    if kind == HOLD:
        if dislodged:
            return order_result(power, order, F, DISLODGED, "", False, gone)
        return order_result(power, order, S, NONE, "", False)
    if kind == MOVE:
        if r.result[i]:
            return order_result(power, order, S, NONE, "", False)
        if r.mode[i] != LAND and not r.result[r.n + i] and r.mode[i] == 1:
            if r.n + i in r.paradox:
                return order_result(power, order, F, PARADOX, "", False, _PARADOX)
            if i in r.no_route:
                return order_result(power, order, F, NO_CONVOY, "", False, _NO_CONVOY)
            return order_result(
                power,
                order,
                F,
                CONVOY_BROKEN,
                str(_FLEET_DISLODGED),
                False,
                _FLEET_DISLODGED,
            )
        if dislodged:
            return order_result(power, order, F, DISLODGED, "", False, gone)
        return order_result(power, order, F, BOUNCED, "", False)
    void = r.voids.get(i)
    if void is not None:
        return order_result(power, order, F, VOID, "", False, void)
    if kind == CONVOY:
        if dislodged:
            return order_result(power, order, F, DISLODGED, "", False, gone)
        army = r.convoyed_by[i]
        if r.n + army in r.paradox:
            return order_result(power, order, F, PARADOX, "", False, _PARADOX)
        if not r.result[r.n + army]:
            return order_result(power, order, F, CONVOY_BROKEN, "", False, _ROUTE_BROKEN)
        return order_result(power, order, S, NONE, "", False)
    if r.result[i]:
        return order_result(power, order, S, NONE, "", False)
    if dislodged:
        return order_result(power, order, F, DISLODGED, "", False, gone)
    k = r.cutter(i)
    if k is None:
        return order_result(power, order, F, CUT, "", False)
    cut = _by(r, k, "result.cut_by")
    return order_result(power, order, F, CUT, "", False, cut)
