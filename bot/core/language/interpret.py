"""Order-set interpretation: the named step between the parser and the adjudicator.

The adjudicator rules on each order by itself (legality, DATC 4.E.1) and applies the lettered
set policies it can see order by order (4.D.3 duplicates after legality, 4.D.4-4.D.6 and the
reading direction of adjustment orders). This step applies the rule set's policies that look at
a power's whole set, and says why for each decision (`Decision.text`, for the player):

- several orders to one unit where illegal orders count too (edc-2023 E: "A unit receiving
  several different orders will be considered civil disorder, even if some of the orders were
  invalid"): all of them are set aside and the unit holds;
- inferred orders (4.E.3 a, edc-2023 E): an own unit with no complete order moves as the
  power's own support or convoy order says, and an own unordered fleet convoys when it is the
  only way to make the power's own convoyed move possible;
- leniency (gm-order-correction-rules II, house-rules IV): a wrong unit type, nationality or
  coast is corrected to what is on the board, and a support naming another coast than the move
  it supports is matched to it, when the rule set says such designations do not invalidate;
- the reading direction of adjustment orders (gm-order-correction-rules III(2)) is told.

`check_submission` is Stabbeurfou's strictness: the problems for which it refuses a whole set
("rejects any set of order with any order extra than that is requested", "rejects any order
with any extra information that is inaccurate"), found when the player submits, so that the
player can fix them before the deadline.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from bot.core.adjudicator import adjudicate
from bot.core.adjudicator.adjustment import _build_unit
from bot.core.adjudicator.expedited import apply_expedited
from bot.core.adjudicator.legality import Illegal, MovementCheck, check_unit
from bot.core.adjudicator.mapindex import MapIndex, map_index
from bot.core.adjudicator.movement_phase import adjudicate_as_given
from bot.core.catalogue import DEFAULT_LANG, languages, texts
from bot.core.language.parser import OrderSyntaxError, parse_order
from bot.core.map import GameMap
from bot.core.messages import Items, Message, Prov, msg
from bot.core.model import ADJUSTMENT, MOVEMENT, RETREAT, Location, Position, Power, Unit, UnitType
from bot.core.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Retreat,
    SupportHold,
    SupportMove,
    UnitOrder,
    UnitRef,
    Waive,
)
from bot.core.outcome import OrderResult, Outcome, Reason, Verdict
from bot.core.rules import Choice, DuplicateOrders, RuleSet


class DecisionKind(StrEnum):
    CIVIL_DISORDER = "civil disorder"  # several orders for one unit: it holds
    INFERRED = "inferred"  # an order completed from the power's own orders
    CORRECTED = "corrected"  # a designation corrected to the board
    READING = "reading"  # how the set was read (bottom to top)


@dataclass(frozen=True, slots=True)
class Decision:
    power: Power
    kind: DecisionKind
    text: str  # for the player: what was decided and why
    order: Order | None = None  # the order as given (None for an inferred order)
    dropped: bool = False  # the order is not passed to the adjudicator
    used: Order | None = None  # the order passed instead (corrected or inferred)
    message: Message | None = None  # `text` to show in the game's language


def _decision(
    power: Power,
    kind: DecisionKind,
    message: Message,
    *,
    order: Order | None = None,
    dropped: bool = False,
    used: Order | None = None,
) -> Decision:
    return Decision(power, kind, str(message), order, dropped, used, message)


@dataclass(frozen=True, slots=True)
class Interpretation:
    orders: tuple[Order, ...]  # what the adjudicator receives, in the given order
    decisions: tuple[Decision, ...]


def _source(rules: RuleSet) -> Message:
    """Where the preset's set policies come from, for the player-facing text: the catalogue's
    `source.<preset>` when it names one (a label only: behaviour is the preset's data)."""
    if f"source.{rules.name}" in texts("core", DEFAULT_LANG):
        return msg(f"source.{rules.name}")
    return msg("source.other_rules", name=rules.name)


def interpret(
    position: Position,
    orders: Sequence[Order],
    rules: RuleSet,
    game_map: GameMap,
) -> Interpretation:
    """Apply the rule set's order-set policies; `orders[i].power` is the power that gave it."""
    idx = map_index(game_map)
    kind = position.phase.kind
    work: list[Order | None] = list(orders)
    decisions: list[Decision] = []
    if kind is ADJUSTMENT:
        if rules.army_build_with_coast_fails:
            _army_builds_with_coast(work, rules, decisions)
        decisions += _reading_notes(position, orders, rules)
        return Interpretation(tuple(o for o in work if o is not None), tuple(decisions))
    if kind is MOVEMENT:
        _correct_all(work, position, rules, idx, decisions)
        if rules.duplicates_count_illegal_orders:
            _civil_disorder_duplicates(work, position, rules, decisions)
        if not rules.illegal_move_receives_hold_support:
            _no_hold_support_for_movers(work, position, rules, idx, decisions)
        kept = [o for o in work if o is not None]
        if rules.implicit_orders:
            kept += _infer(
                kept, list(orders), position=position, rules=rules, idx=idx, decisions=decisions
            )
        return Interpretation(tuple(kept), tuple(decisions))
    # Retreats: only the duplicate rule that counts illegal orders applies.
    if rules.duplicates_count_illegal_orders:
        _civil_disorder_duplicates(work, position, rules, decisions)
    return Interpretation(tuple(o for o in work if o is not None), tuple(decisions))


def adjudicate_interpreted(
    position: Position,
    orders: Sequence[Order],
    rules: RuleSet,
    game_map: GameMap,
) -> tuple[Outcome, tuple[Decision, ...]]:
    """Interpretation then adjudication, the path every caller should take (the table service,
    `parley adjudicate`). The orders the interpretation set aside get a failed result whose
    detail says why, after the adjudicator's results, so that no order goes without one."""
    if position.phase.kind is MOVEMENT:  # the legality step first, if it can be
        done = adjudicate_as_given(position, orders, rules, idx := map_index(game_map))
        if done is not None:
            return apply_expedited(done, rules, game_map, idx), ()
    it = interpret(position, orders, rules, game_map)
    outcome = adjudicate(position, list(it.orders), rules, game_map)
    aside = tuple(
        OrderResult(d.power, d.order, Verdict.FAILS, Reason.ILLEGAL, d.text, message=d.message)
        for d in it.decisions
        if d.dropped and d.order is not None
    )
    if aside:
        outcome = replace(outcome, results=outcome.results + aside)
    return outcome, it.decisions


# --- leniency: corrections to the board ---------------------------------------------------------


def _correct_all(
    work: list[Order | None],
    position: Position,
    rules: RuleSet,
    idx: MapIndex,
    decisions: list[Decision],
) -> None:
    moves: dict[str, Move] = {}
    units = position.units
    # A fleet's move naming a coast is corrected only when an unreachable coast is not illegal.
    dest_coast = not rules.unreachable_coast_illegal
    track = rules.support_coast_mismatch_ignored  # the moves are needed only for that rule
    for i, order in enumerate(work):
        if order is None:
            continue
        # First the orders with nothing to correct: they name the unit as it stands on the
        # board (or no unit, or another power's: the adjudicator says why), and a support's
        # or convoy's target as it stands. The batch path's orders are completed with the
        # board, so almost every order is one; `_correct` judges the others.
        code = _CODE.get(type(order))
        if code is not None and isinstance(order, UnitOrder):
            ref = order.unit
            loc = ref.location
            unit = units.get(loc.province)
            if unit is not None and (order.power is None or unit.power is order.power):
                t = ref.type
                if not (
                    (t is None or t is unit.type) and (loc.coast is None or loc == unit.location)
                ):
                    code = None
                elif code == _AIMED and isinstance(order, _TARGETED):
                    tref = order.target
                    target = units.get(tref.location.province)
                    if target is not None and not (
                        (tref.type is None or tref.type is target.type)
                        and (tref.power is None or tref.power is target.power)
                    ):
                        code = None
            if code == _MOVE and isinstance(order, Move):
                if dest_coast:
                    code = None
                elif track:
                    moves.setdefault(loc.province, order)
            if code is not None:
                continue
        fixed, why = _correct(order, position, rules, idx)
        if why and order.power is not None:
            work[i] = fixed
            decisions.append(
                _decision(
                    order.power,
                    DecisionKind.CORRECTED,
                    msg(
                        "decision.read_as",
                        order=order,
                        fixed=fixed,
                        why=Items(tuple(why), "; "),
                        source=_source(rules),
                    ),
                    order=order,
                    used=fixed,
                )
            )
        if isinstance(work[i], Move):
            mv = work[i]
            assert isinstance(mv, Move)
            moves.setdefault(mv.unit.province, mv)
    if not rules.support_coast_mismatch_ignored:
        return
    # gm-order-correction-rules II(3)c, house IV(7) C: a support naming another coast than the
    # move it supports is still a support of that move.
    for i, order in enumerate(work):
        if not isinstance(order, SupportMove) or order.dest.coast is None:
            continue
        mv = moves.get(order.target.province)
        if mv is None or mv.dest.province != order.dest.province or mv.dest == order.dest:
            continue
        if mv.dest.coast is None:
            continue
        fixed_s = replace(order, dest=mv.dest)
        work[i] = fixed_s
        if order.power is not None:
            decisions.append(
                _decision(
                    order.power,
                    DecisionKind.CORRECTED,
                    msg(
                        "decision.support_coast",
                        order=order,
                        fixed=fixed_s,
                        dest=mv.dest,
                        source=_source(rules),
                    ),
                    order=order,
                    used=fixed_s,
                )
            )


_TARGETED = (SupportHold, SupportMove, Convoy)
_HOLD, _MOVE, _AIMED = 0, 1, 2
_CODE: dict[type, int] = {
    Hold: _HOLD,
    Move: _MOVE,
    SupportHold: _AIMED,
    SupportMove: _AIMED,
    Convoy: _AIMED,
}


def _correct(
    order: Order, position: Position, rules: RuleSet, idx: MapIndex
) -> tuple[Order, list[Message]]:
    if not isinstance(order, Hold | Move | SupportHold | SupportMove | Convoy):
        return order, []
    why: list[Message] = []
    unit = position.units.get(order.unit.province)
    if unit is None or (order.power is not None and unit.power is not order.power):
        return order, []  # the adjudicator says why (no unit, not yours)
    ref = order.unit
    new_ref = ref
    if ref.type is not None and ref.type is not unit.type and rules.wrong_unit_type is Choice.B:
        why.append(
            msg(
                "decision.is_not",
                a=_a(unit.type),
                province=Prov(unit.province),
                other=_a(ref.type),
            )
        )
        new_ref = replace(new_ref, type=unit.type)
    if (
        ref.location.coast is not None
        and ref.location != unit.location
        and (
            rules.wrong_unit_coast_ignored
            if unit.location.coast
            else rules.irrelevant_coast_ignored
        )
    ):
        why.append(msg("decision.stands_on", at=unit.location))
        new_ref = replace(new_ref, location=unit.location)
    fixed: Order = replace(order, unit=new_ref) if new_ref != ref else order
    if isinstance(fixed, SupportHold | SupportMove | Convoy):
        tref = fixed.target
        target = position.units.get(tref.province)
        if target is not None:
            new_t = tref
            if (
                tref.type is not None
                and tref.type is not target.type
                and rules.wrong_unit_type is Choice.B
            ):
                why.append(
                    msg("decision.target_is", province=Prov(target.province), a=_a(target.type))
                )
                new_t = replace(new_t, type=target.type)
            if (
                tref.power is not None
                and tref.power is not target.power
                and rules.wrong_nationality is Choice.B
            ):
                why.append(
                    msg(
                        "decision.target_power",
                        province=Prov(target.province),
                        power=target.power,
                    )
                )
                new_t = replace(new_t, power=target.power)
            if new_t != tref:
                fixed = replace(fixed, target=new_t)
    if (
        isinstance(fixed, Move)
        and unit.type is UnitType.FLEET
        and fixed.dest.coast is not None
        and not rules.unreachable_coast_illegal
    ):
        reach = _reachable(idx, unit.location, fixed.dest.province)
        if fixed.dest not in reach and len(reach) == 1:
            why.append(msg("decision.only_reach", place=reach[0]))
            fixed = replace(fixed, dest=reach[0])
    return fixed, why


def _reachable(idx: MapIndex, src: Location, pid: str) -> list[Location]:
    near = idx.fleet_adj.get(src, frozenset())
    return [loc for loc in idx.game_map.fleet_locations(pid) if loc in near]


def _a(t: UnitType) -> Message:
    return msg("article.army" if t is UnitType.ARMY else "article.fleet")


# --- several orders for one unit, illegal ones included (EDC) -----------------------------------


_DUPLICATE_OUTCOME = {
    DuplicateOrders.CIVIL_DISORDER: "decision.disorder_holds",
    DuplicateOrders.FIRST: "decision.first_used",
    DuplicateOrders.LAST: "decision.last_used",
}


def _civil_disorder_duplicates(
    work: list[Order | None], position: Position, rules: RuleSet, decisions: list[Decision]
) -> None:
    groups: dict[tuple[Power, str], list[int]] = {}
    for i, order in enumerate(work):
        if isinstance(order, UnitOrder) and order.power is not None:
            groups.setdefault((order.power, order.unit.province), []).append(i)
    for (power, prov), idxs in groups.items():
        if len(idxs) < 2:
            continue
        texts = {work[i].canonical() for i in idxs if work[i] is not None}  # type: ignore[union-attr]
        if len(texts) < 2:
            continue  # the same order twice counts once (the adjudicator keeps one)
        unit = position.units.get(prov)
        name: Unit | Prov = unit if unit is not None else Prov(prov)
        # 4.D.3 a/b (gm-order-correction-rules I(5): "the last order reading from top to
        # bottom ... will be used"): the first/last written is used, legal or not; an illegal
        # one then makes the unit hold (I(3)). c and civil disorder: none is used.
        keep = {DuplicateOrders.FIRST: idxs[0], DuplicateOrders.LAST: idxs[-1]}.get(
            rules.duplicate_orders
        )
        outcome = msg(_DUPLICATE_OUTCOME.get(rules.duplicate_orders, "decision.holds"))
        says = msg(
            "decision.several_orders",
            unit=name,
            n=len(idxs),
            outcome=outcome,
            source=_source(rules),
        )
        for i in idxs:
            order = work[i]
            if i != keep and order is not None:
                decisions.append(
                    _decision(power, DecisionKind.CIVIL_DISORDER, says, order=order, dropped=True)
                )
                work[i] = None


# --- house-rules III(5) A: a unit ordered to move is never supported to hold ---------------------


def _no_hold_support_for_movers(
    work: list[Order | None],
    position: Position,
    rules: RuleSet,
    idx: MapIndex,
    decisions: list[Decision],
) -> None:
    """ "A unit ordered to move will not be allowed to receive support to hold, irrespective of
    whether the unit is able to move in the manner stated." Legal moves already lose hold
    support in every rule set; this sets aside hold supports of units whose move is illegal."""
    live = [o for o in work if o is not None]
    check = MovementCheck(position, idx, rules).run(live)
    movers = {
        o.unit.province
        for o, unit, why in check.entries
        if why is not None and isinstance(o, Move) and unit is not None and unit.power is o.power
    }
    movers -= set(check.effective)  # a unit whose other order is legal is judged by that one
    if not movers:
        return
    for i, o in enumerate(work):
        if isinstance(o, SupportHold) and o.target.province in movers and o.power is not None:
            decisions.append(
                _decision(
                    o.power,
                    DecisionKind.CORRECTED,
                    msg(
                        "decision.mover_no_hold_support",
                        order=o,
                        province=Prov(o.target.province),
                        source=_source(rules),
                    ),
                    order=o,
                    dropped=True,
                )
            )
            work[i] = None


# --- inferred orders (EDC) ----------------------------------------------------------------------


def _infer(
    kept: list[Order],
    given: list[Order],
    *,
    position: Position,
    rules: RuleSet,
    idx: MapIndex,
    decisions: list[Decision],
) -> list[Order]:
    # A unit for which its owner wrote any order (even one set aside) is not "missing" one.
    ordered = {(o.power, o.unit.province) for o in given if isinstance(o, UnitOrder) and o.power}
    added: list[Order] = []
    by_power: dict[Power, list[Order]] = {}
    for o in kept:
        if o.power is not None:
            by_power.setdefault(o.power, []).append(o)
    for power, own in by_power.items():
        wanted: dict[str, list[tuple[Location, Order]]] = {}
        for o in own:
            if not isinstance(o, SupportMove | Convoy):
                continue
            target = position.units.get(o.target.province)
            if target is None or target.power is not power:
                continue
            if (power, target.province) in ordered:
                continue
            wanted.setdefault(target.province, []).append((o.dest, o))
        for prov, claims in wanted.items():
            dests = {d.province for d, _ in claims}
            unit = position.units[prov]
            if len(dests) != 1:
                continue  # the power's own orders disagree: nothing is inferred
            dest = claims[0][0]
            if unit.type is UnitType.ARMY:
                dest = Location(dest.province)
            move = Move(power, UnitRef.of(unit), dest, source="")
            added.append(move)
            decisions.append(
                _decision(
                    power,
                    DecisionKind.INFERRED,
                    msg(
                        "decision.inferred_move",
                        unit=unit,
                        order=move,
                        origin=claims[0][1],
                        source=_source(rules),
                    ),
                    used=move,
                )
            )
        added += _infer_convoys(
            power,
            own + added,
            ordered,
            position=position,
            rules=rules,
            idx=idx,
            decisions=decisions,
        )
    return added


def _infer_convoys(
    power: Power,
    own: list[Order],
    ordered: set[tuple[Power, str]],
    *,
    position: Position,
    rules: RuleSet,
    idx: MapIndex,
    decisions: list[Decision],
) -> list[Order]:
    """An own unordered fleet convoys when it is the only way to make an own convoy possible."""
    free = {
        p
        for p, u in position.units.items()
        if u.power is power
        and u.type is UnitType.FLEET
        and p in idx.sea
        and (power, p) not in ordered
    }
    out: list[Order] = []
    for o in own:
        if not isinstance(o, Move):
            continue
        army = position.units.get(o.unit.province)
        if army is None or army.type is not UnitType.ARMY or army.power is not power:
            continue
        src, dst = army.province, o.dest.province
        if dst in idx.army_adj.get(src, ()) and not o.via_convoy:
            continue
        convoying = {
            c.unit.province
            for c in own
            if isinstance(c, Convoy) and c.target.province == src and c.dest.province == dst
        }
        if idx.route_exists(src, dst, convoying):
            continue
        pool = free - convoying
        if not pool or not idx.route_exists(src, dst, pool | convoying):
            continue
        needed = {f for f in pool if not idx.route_exists(src, dst, (pool | convoying) - {f})}
        if not needed or not idx.route_exists(src, dst, needed | convoying):
            continue  # several ways: the player's intent is not clear
        for f in sorted(needed):
            fleet = position.units[f]
            conv = Convoy(power, UnitRef.of(fleet), UnitRef.of(army), Location(dst), source="")
            out.append(conv)
            free.discard(f)
            decisions.append(
                _decision(
                    power,
                    DecisionKind.INFERRED,
                    msg(
                        "decision.inferred_convoy",
                        unit=fleet,
                        move=o,
                        order=conv,
                        source=_source(rules),
                    ),
                    used=conv,
                )
            )
    return out


# --- adjustments ------------------------------------------------------------------------------


def _army_builds_with_coast(
    work: list[Order | None], rules: RuleSet, decisions: list[Decision]
) -> None:
    """gm-order-correction-rules III(5) (added): "If a player orders to build an army on a coast
    where a fleet could be legally built, nothing will be built." """
    for i, o in enumerate(work):
        if (
            isinstance(o, Build)
            and o.unit.type is UnitType.ARMY
            and o.unit.location.coast is not None
            and o.power is not None
        ):
            decisions.append(
                _decision(
                    o.power,
                    DecisionKind.CORRECTED,
                    msg("decision.army_build_coast", order=o, source=_source(rules)),
                    order=o,
                    dropped=True,
                )
            )
            work[i] = None


def _balance(position: Position, power: Power) -> int:
    return len(position.centers_of(power)) - len(position.units_of(power))


def _reading_notes(position: Position, orders: Sequence[Order], rules: RuleSet) -> list[Decision]:
    if not rules.builds_read_bottom_to_top:
        return []
    notes: list[Decision] = []
    counts: dict[Power, int] = {}
    for o in orders:
        if isinstance(o, Build | Waive | Disband) and o.power is not None:
            counts[o.power] = counts.get(o.power, 0) + 1
    for power, n in counts.items():
        if n > abs(_balance(position, power)):
            notes.append(
                _decision(
                    power,
                    DecisionKind.READING,
                    msg(
                        "decision.bottom_to_top",
                        power=power,
                        n=n,
                        need=abs(_balance(position, power)),
                        source=_source(rules),
                    ),
                )
            )
    return notes


# --- Stabbeurfou: refusal at submission -----------------------------------------------------------


def check_submission(
    position: Position,
    orders: Sequence[Order],
    rules: RuleSet,
    game_map: GameMap,
) -> list[str]:
    """The problems for which the rule set refuses this order set (empty: accepted), in
    English; `submission_problems` gives them as messages, for the game's language."""
    return [str(m) for m in submission_problems(position, orders, rules, game_map)]


def submission_problems(
    position: Position,
    orders: Sequence[Order],
    rules: RuleSet,
    game_map: GameMap,
) -> list[Message]:
    """The problems for which the rule set refuses this order set (empty: accepted).

    Only rule sets with `reject_inaccurate_order_sets` refuse sets for what the adjudicator
    would rule on (else every set is accepted and interpreted at the deadline); a rule set
    with `xxx_hold_accepted = false` refuses an `XXX` hold (Stabbeurfou 2(h)), one with
    `irrelevant_coast_ignored = false` a coast where the province has none (4.B.6 a).
    """
    problems: list[Message] = []
    if not rules.irrelevant_coast_ignored:  # stabbeurfou 4.B.6: 'rejects any coast
        # specification if none is requested' - refused at entry, the player rewrites it
        problems += [
            msg("refusal.no_coast_here", text=o.source or str(o), province=Prov(pid))
            for o in orders
            for pid in o.irrelevant_coasts
        ]
    if not rules.xxx_hold_accepted:
        problems += [
            msg("refusal.xxx", order=o)
            for o in orders
            if isinstance(o, Hold) and o.source and o.source.split()[-1].casefold() == "xxx"
        ]
    if not rules.reject_inaccurate_order_sets:
        return problems
    idx = map_index(game_map)
    kind = position.phase.kind
    if rules.unit_type_required and kind is MOVEMENT:
        problems += _missing_types(orders, idx.game_map)
    if kind is MOVEMENT:
        check = MovementCheck(position, idx, rules).run(orders)
        problems += [
            msg("refusal.order", order=o, why=why) for o, _, why in check.entries if why is not None
        ]
        if rules.support_requires_coast:
            refused = {id(o) for o, _, why in check.entries if why is not None}
            problems += _coastless_supports(position, orders, idx, refused)
    elif kind is RETREAT:
        problems += _retreat_problems(position, orders)
    else:
        problems += _adjustment_problems(position, orders, rules, idx)
    return problems


def _coastless_supports(
    position: Position, orders: Sequence[Order], idx: MapIndex, refused: set[int]
) -> list[Message]:
    """stabbeurfou 4.B.4: 'requires to specify coast in supported move when two coasts are
    possible' - refused at entry, not voided at the deadline; with one coast the system
    guesses it (F MAO S F GAS - SPA is accepted)."""
    problems: list[Message] = []
    for o in orders:
        if not isinstance(o, SupportMove) or o.dest.coast is not None or id(o) in refused:
            continue
        mover = position.units.get(o.target.location.province)
        if mover is None or mover.type is not UnitType.FLEET:
            continue
        if len(idx.fleet_reach.get(mover.location, {}).get(o.dest.province, ())) > 1:
            why = msg("void.name_coast", place=Location(o.dest.province))
            problems.append(msg("refusal.order", order=o, why=why))
    return problems


def _missing_types(orders: Iterable[Order], game_map: GameMap) -> list[Message]:
    """Stabbeurfou 4.C.1: 'unit designation is only mandatory for an active unit'."""
    out: list[Message] = []
    for o in orders:
        if not isinstance(o, Hold | Move | SupportHold | SupportMove | Convoy) or not o.source:
            continue
        bare: Order | None = None
        for lang in languages():  # the text as written, in whichever language reads it
            try:
                bare = parse_order(o.source, lang=lang, power=o.power, game_map=game_map)
            except (OrderSyntaxError, ValueError):
                continue
            if isinstance(bare, UnitOrder) and bare.unit.province == o.unit.province:
                break
            bare = None
        if isinstance(bare, UnitOrder) and bare.unit.type is None:
            out.append(msg("refusal.say_type", text=o.source, province=Prov(o.unit.province)))
    return out


def _retreat_problems(position: Position, orders: Sequence[Order]) -> list[Message]:
    out: list[Message] = []
    seen: set[str] = set()
    dislodged = {d.unit.province: d for d in position.dislodged}
    for o in orders:
        if not isinstance(o, Retreat | Disband):
            out.append(msg("refusal.only_retreats", order=o))
            continue
        d = dislodged.get(o.unit.province)
        if d is None:
            out.append(msg("refusal.no_dislodged", order=o, province=Prov(o.unit.province)))
            continue
        if o.power is not None and d.unit.power is not o.power:
            out.append(msg("refusal.unit_is", order=o, power=d.unit.power))
        if o.unit.province in seen:
            out.append(msg("refusal.second_order", order=o, unit=d.unit))
        seen.add(o.unit.province)
        if isinstance(o, Retreat) and o.dest.province not in d.retreats:
            near = Items(tuple(Prov(p) for p in sorted(d.retreats)))
            out.append(msg("refusal.cannot_retreat", order=o, unit=d.unit, options=near))
    return out


def _adjustment_problems(
    position: Position, orders: Sequence[Order], rules: RuleSet, idx: MapIndex
) -> list[Message]:
    out: list[Message] = []
    builds: dict[Power, list[Order]] = {}
    removes: dict[Power, list[Order]] = {}
    places: set[str] = set()
    for o in orders:
        power = o.power
        if power is None:
            continue
        try:
            if isinstance(o, Build):
                unit: Unit = _build_unit(o, power, position, idx, rules)
                if unit.province in places:
                    raise Illegal(msg("refusal.second_build", province=Prov(unit.province)))
                places.add(unit.province)
                builds.setdefault(power, []).append(o)
            elif isinstance(o, Waive):
                builds.setdefault(power, []).append(o)
            elif isinstance(o, Disband):
                unit = check_unit(o, position, rules)
                if unit.province in places:
                    raise Illegal(msg("build.already_removed", unit=unit))
                places.add(unit.province)
                removes.setdefault(power, []).append(o)
            else:
                raise Illegal(msg("refusal.only_adjustments"))
        except Illegal as exc:
            out.append(msg("refusal.order", order=o, why=exc.message))
    for power, bs in builds.items():
        allowed = max(_balance(position, power), 0)
        if len(bs) > allowed:
            out.append(msg("refusal.too_many_builds", power=power, n=allowed, given=len(bs)))
    for power, rs in removes.items():
        need = max(-_balance(position, power), 0)
        if len(rs) > need:
            out.append(msg("refusal.too_many_removals", power=power, n=need, given=len(rs)))
    return out
