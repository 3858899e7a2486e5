"""Adjustment phase: builds, waives, removals, civil-disorder removals (4.C.3-4.D.8)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from bot.core.adjudicator.civil_disorder_2023 import civil_disorder_rule
from bot.core.adjudicator.legality import NO_REASON, SUCCEEDS, Entry, Illegal, check_unit
from bot.core.adjudicator.mapindex import MapIndex
from bot.core.adjudicator.phases import copied, counts, next_position, power_of
from bot.core.messages import Message, Prov, msg
from bot.core.model import ARMY, FLEET, Location, Position, Power, Unit, UnitType
from bot.core.orders import Build, Disband, Order, UnitRef, Waive
from bot.core.outcome import OrderResult, Outcome, Reason, Verdict, order_result, outcome
from bot.core.rules import Choice, RuleSet

_T = TypeVar("_T", tuple[Entry, Unit], tuple[Entry, Unit | None])


def _build_unit(
    order: Build, power: Power, position: Position, idx: MapIndex, rules: RuleSet
) -> Unit:
    """The unit a build order makes, or Illegal (DATC 6.I.*, 4.B.7, 4.C.3, 4.C.4)."""
    loc = order.unit.location
    pid = loc.province
    if pid not in idx.supply_centers:
        raise Illegal(msg("build.not_center", province=Prov(pid)))
    if pid not in idx.homes.get(power, ()):  # DATC 6.I.6
        raise Illegal(msg("build.not_home", province=Prov(pid), power=power))
    if position.centers.get(pid) is not power:  # DATC 6.I.5
        raise Illegal(msg("build.not_owned", province=Prov(pid), power=power))
    if pid in position.units:  # DATC 6.I.3, 6.I.4
        raise Illegal(msg("build.occupied", province=Prov(pid)))
    utype = order.unit.type
    inland = pid in idx.land
    if utype is None:
        choice = rules.missing_build_type
        if choice is Choice.A or (choice is Choice.B and not inland):
            raise Illegal(msg("build.which_type"))
        if inland:
            utype = UnitType.ARMY
        elif loc.coast is not None or pid in idx.split:
            utype = UnitType.FLEET  # 4.C.3 c: a coast is given
        else:
            raise Illegal(msg("build.which_type"))
    # ARMY, FLEET: an Enum's member read costs ~700 instructions (issue 18)
    if utype is FLEET and inland:
        if not rules.fleet_build_inland_makes_army:  # 4.C.4 a, DATC 6.I.2
            raise Illegal(msg("build.fleet_inland", province=Prov(pid)))
        utype = UnitType.ARMY
    if utype is ARMY:
        if loc.coast is not None and not rules.irrelevant_coast_ignored:
            raise Illegal(msg("build.army_coast"))
        return idx.unit(power, utype, Location(pid))
    if pid in idx.split:
        if loc.coast is None:  # 4.B.7, DATC 6.B.14
            raise Illegal(msg("build.which_coast", province=Prov(pid)))
        if loc not in idx.fleet_adj:
            raise Illegal(msg("illegal.no_coast", province=Prov(pid), coast=loc.coast))
        return idx.unit(power, utype, loc)
    if loc.coast is not None and not rules.irrelevant_coast_ignored:
        raise Illegal(msg("illegal.no_coast", province=Prov(pid), coast=loc.coast))
    return idx.unit(power, utype, Location(pid))


_NONE_ORDERED = msg("build.none_ordered")
_BUILD_OR_WAIVE = (Build, Waive)  # a tuple: `Build | Waive` makes a Union each time (~1k instr)
_CD_REMOVAL = msg("build.civil_disorder_removal")


def adjudicate_adjustments(
    position: Position, orders: Sequence[Order], rules: RuleSet, idx: MapIndex
) -> Outcome:
    centers, board = position.centers, position.units
    # Centres less units per power, in the order the powers are first met (centres, then
    # units): the implied waives come in that order. Counted in C (counts), not per item.
    have = counts(map(power_of, board.values()))
    balance = counts(centers.values())
    for power, k in have.items():
        balance[power] = balance.get(power, 0) - k
    entries = [Entry(o, o.power) for o in orders]
    reading = list(reversed(entries)) if rules.builds_read_bottom_to_top else entries
    builds: dict[Power, list[tuple[Entry, Unit | None]]] = {}
    removes: dict[Power, list[tuple[Entry, Unit]]] = {}
    for e in reading:
        order = e.order
        try:
            if isinstance(order, _BUILD_OR_WAIVE):
                power = order.power
                if power is None and isinstance(order, Build):
                    power = centers.get(order.unit.province)
                if power is None:
                    raise Illegal(msg("build.no_power"))
                e.power = power
                if balance.get(power, 0) <= 0:
                    n = -balance.get(power, 0)
                    raise Illegal(
                        msg("build.none_must_remove", power=power, n=n)
                        if n
                        else msg("build.none", power=power)
                    )
                if isinstance(order, Waive):
                    if not rules.waive_allowed:  # 4.D.7 b
                        raise Illegal(msg("build.no_waive"))
                    builds.setdefault(power, []).append((e, None))
                else:
                    unit = _build_unit(order, power, position, idx, rules)
                    builds.setdefault(power, []).append((e, unit))
            elif isinstance(order, Disband):
                unit = check_unit(order, position, rules)
                e.power = unit.power
                if balance.get(unit.power, 0) >= 0:
                    raise Illegal(msg("build.nothing_to_remove", power=unit.power))
                removes.setdefault(unit.power, []).append((e, unit))
            else:
                raise Illegal(msg("illegal.not_in_adjustment", order=order))
        except Illegal as exc:
            e.fail(Reason.ILLEGAL, exc.message)
    units = copied(board)
    removed: list[Unit] = []
    implied: list[OrderResult] = []
    for power, asked in builds.items():
        allowed = balance[power]
        legal = _one_per_province(asked, rules)
        if len(legal) > allowed:  # (the message only then)
            why_b = msg("build.only", power=power, n=allowed)
            legal = _limit(legal, allowed, rules.too_many_builds, why_b)
        for _, built in legal:
            if built is not None:
                units[built.location.province] = built
    if position.phase.year == idx.game_map.start.phase.year:
        implied += _impose_builds(position, units, balance, builds, rules, idx)
    made: dict[Power, int] | None = None  # units per power after the builds
    homes = idx.homes
    for power, bal in balance.items():
        if bal > 0:
            if made is None:
                made = counts(map(power_of, units.values()))
            waived = 0
            for e, u in builds.get(power, ()):
                if u is None and e.verdict is SUCCEEDS:
                    waived += 1
            free = 0
            for h in homes.get(power, ()):
                if centers.get(h) is power and h not in board:
                    free += 1
            for _ in range(min(bal, free) - (made.get(power, 0) - have.get(power, 0)) - waived):
                implied.append(
                    order_result(power, Waive(power), SUCCEEDS, NO_REASON, "", True, _NONE_ORDERED)
                )
    for power, bal in sorted(balance.items()):
        if bal >= 0:
            continue
        need = -bal
        seen: set[str] = set()
        legal_r: list[tuple[Entry, Unit]] = []
        for e, unit in removes.get(power, ()):
            if unit.province in seen:  # DATC 6.J.2
                e.fail(Reason.ILLEGAL, msg("build.already_removed", unit=unit))
                continue
            seen.add(unit.province)
            legal_r.append((e, unit))
        if len(legal_r) > need:
            why = msg("build.remove_only", power=power, n=need)
            legal_r = _limit(legal_r, need, rules.too_many_disbands, why)
        for _, gone in legal_r:
            del units[gone.location.province]
            removed.append(gone)
        missing = need - len(legal_r)
        if missing > 0:
            rest = Position(position.phase, units, centers)
            for gone in civil_disorder_rule(rules)(rest, power, missing, idx.game_map):
                del units[gone.location.province]
                removed.append(gone)
                implied.append(
                    order_result(
                        power,
                        Disband(power, UnitRef.of(gone)),
                        Verdict.SUCCEEDS,
                        Reason.CIVIL_DISORDER,
                        "",
                        True,
                        _CD_REMOVAL,
                    )
                )
    results = [e.result() for e in entries]
    results += implied
    nxt = next_position(position.phase, units, centers, idx)
    # its twin (outcome.py): not the frozen __init__'s five setattr calls (issue 18)
    return outcome(position.phase, tuple(results), (), tuple(removed), nxt)


def _impose_builds(  # noqa: PLR0917 - the adjustment's working state
    position: Position,
    units: dict[str, Unit],
    balance: dict[Power, int],
    builds: dict[Power, list[tuple[Entry, Unit | None]]],
    rules: RuleSet,
    idx: MapIndex,
) -> list[OrderResult]:
    """edc-2023 E: "In the event of a missing or invalid build order, there will be no build
    (except in the first year, when the referee will impose up to two builds - no third
    build - to maintain a balance in the game)". Builds the power made or waived count
    towards the limit; each imposed build goes to a free home centre in province order: an
    army inland or on a two-coast centre, else a fleet if the power has fewer fleets than
    armies (the balance), else an army (docs/rules.md, Readings)."""
    out: list[OrderResult] = []
    limit = rules.first_year_imposed_builds
    for power, bal in sorted(balance.items()):
        if bal <= 0 or limit <= 0:
            continue
        made = sum(1 for u in units.values() if u.power is power) - sum(
            1 for u in position.units.values() if u.power is power
        )
        waived = sum(
            1 for e, u in builds.get(power, []) if u is None and e.verdict is Verdict.SUCCEEDS
        )
        free = [
            h
            for h in sorted(idx.homes.get(power, ()))
            if position.centers.get(h) is power and h not in units
        ]
        for pid in free[: max(0, min(limit, bal) - made - waived)]:
            mine = [u.type for u in units.values() if u.power is power]
            fleet = (
                pid not in idx.land
                and pid not in idx.split
                and mine.count(UnitType.FLEET) < mine.count(UnitType.ARMY)
            )
            unit = Unit(power, UnitType.FLEET if fleet else UnitType.ARMY, Location(pid))
            units[pid] = unit
            out.append(
                OrderResult(
                    power,
                    Build(power, UnitRef.of(unit)),
                    Verdict.SUCCEEDS,
                    Reason.NONE,
                    implied=True,
                    message=msg("build.imposed"),
                )
            )
    return out


def _limit(legal: list[_T], allowed: int, choice: Choice, why: Message) -> list[_T]:
    """Too many builds (4.D.4) or removals (4.D.6): none of them (a: for removals the
    civil-disorder rule then decides), the first (b) or the last (c) legal ones; in the
    reading order, which may be bottom to top."""
    if len(legal) <= allowed:
        return legal
    keep = [] if choice is Choice.A else legal[-allowed:] if choice is Choice.C else legal[:allowed]
    for c in legal:
        if c not in keep:
            c[0].fail(Reason.NOT_ALLOWED, why)
    return keep


def _one_per_province(
    cands: list[tuple[Entry, Unit | None]], rules: RuleSet
) -> list[tuple[Entry, Unit | None]]:
    """Two builds in one province (4.D.5): both fail (a), the first (b) or the last (c)."""
    # The common case first: no two in one province (each candidate has not failed yet).
    places = [c[1].location.province for c in cands if c[1] is not None]
    if len(set(places)) == len(places):
        return cands
    by_prov: dict[str, list[tuple[Entry, Unit | None]]] = {}
    for c in cands:
        if c[1] is not None and c[0].verdict is Verdict.SUCCEEDS:
            by_prov.setdefault(c[1].province, []).append(c)
    for group in by_prov.values():
        if len(group) < 2:
            continue
        choice = rules.two_builds_same_province
        # its Entry, not the pair: mypyc boxes a tuple anew when read, so `is` (native spike)
        keep = None if choice is Choice.A else group[0][0] if choice is Choice.B else group[-1][0]
        for c in group:
            if c[0] is not keep:
                c[0].fail(Reason.NOT_ALLOWED, msg("build.one_per_province", order=c[0].order))
    return [c for c in cands if c[0].verdict is Verdict.SUCCEEDS]
