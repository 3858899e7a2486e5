"""Order legality (DATC 4.E.1), a named step before any resolution.

An illegal order is ignored: the unit holds and can receive hold support. It still gets a
result (Reason.ILLEGAL) whose detail tells the player why. Matching supports and convoys with
the orders they name happens later (an unmatched one is *void*, not illegal).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Final

from bot.core.adjudicator.mapindex import MapIndex, key
from bot.core.messages import Message, Name, OneOf, Prov, msg
from bot.core.model import ARMY, FLEET, Location, Position, Power, Unit, UnitType
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
from bot.core.outcome import OrderResult, Reason, Verdict, order_result
from bot.core.rules import AdjacentConvoy, Choice, DuplicateOrders, RuleSet

HOLD: Final = 0
MOVE: Final = 1
SUPH: Final = 2
SUPM: Final = 3
CONVOY: Final = 4
# Enum members read once: `UnitType.ARMY` in a function costs ~900 instructions each time (the
# EnumType.__getattr__ hook makes every class attribute look-up slow; issue 18).
CHOICE_A: Final = Choice.A
CHOICE_C: Final = Choice.C
DUP_FIRST: Final = DuplicateOrders.FIRST
DUP_LAST: Final = DuplicateOrders.LAST
SUCCEEDS: Final = Verdict.SUCCEEDS
FAILS: Final = Verdict.FAILS
NO_REASON: Final = Reason.NONE
# the adjacent-convoy rules under which a move "via convoy" needs a route even to a neighbour
_ROUTE_RULES: Final = (
    AdjacentConvoy.RULE_2000,
    AdjacentConvoy.RULE_1982,
    AdjacentConvoy.EXPLICIT_ONLY,
)
_EMPTY: Final[frozenset[str]] = frozenset()  # a default made once, not a call per support
MEMO_SIZE: Final = 50_000  # results remembered per map (MapIndex.succeeded), then cleared


# A legal movement-phase order in the resolver's terms, as a plain tuple (built in the hot
# path): (kind, unit, order or None, dest province, dest location (moves), target province
# (supports, convoys), the support's written destination if it names a coast, via convoy).
Eff = tuple[int, Unit, Order | None, str, Location | None, str, Location | None, bool]


def hold_eff(unit: Unit) -> Eff:
    return (HOLD, unit, None, "", None, "", None, False)


_UNIT_ORDERS: Final = (Hold, Move, SupportHold, SupportMove, Convoy)
_TARGETED: Final = (SupportHold, SupportMove, Convoy)


def as_given(order: Order, units: Mapping[str, Unit]) -> bool:
    """Does the order name its unit, and a support's or convoy's target, as they stand on the
    board (or name no unit there, or another power's: the adjudicator says why)? Then the
    interpretation's leniency (interpret.py, `_correct_all`) has nothing to correct in it."""
    if type(order) not in _UNIT_ORDERS:
        return False  # `_correct` judges it
    assert isinstance(order, UnitOrder)
    ref = order.unit
    loc = ref.location
    unit = units.get(loc.province)
    if unit is None or (order.power is not None and unit.power is not order.power):
        return True
    t = ref.type
    if not ((t is None or t is unit.type) and (loc.coast is None or loc == unit.location)):
        return False
    return _target_as_given(order, units)


def _target_as_given(order: Order, units: Mapping[str, Unit]) -> bool:
    """`as_given` for the target of a support or convoy (True for another order)."""
    return not isinstance(order, _TARGETED) or _ref_as_given(order.target, units)


def _ref_as_given(tref: UnitRef, units: Mapping[str, Unit]) -> bool:
    """Does `tref` name the unit standing where it points (an empty place: nothing to fix)?"""
    target = units.get(tref.location.province)
    return target is None or (
        (tref.type is None or tref.type is target.type)
        and (tref.power is None or tref.power is target.power)
    )


class Entry:
    """A retreat or adjustment order on its way to an OrderResult (mutable while judged)."""

    __slots__ = ("message", "order", "power", "reason", "verdict")

    def __init__(self, order: Order, power: Power | None) -> None:
        self.order = order
        self.power = power
        self.verdict = SUCCEEDS
        self.reason = NO_REASON
        self.message: Message | None = None

    def fail(self, reason: Reason, message: Message) -> None:
        self.verdict = FAILS
        self.reason = reason
        self.message = message

    def result(self) -> OrderResult:
        o = self.order
        return order_result(self.power, o, self.verdict, self.reason, "", False, self.message)


class Illegal(Exception):  # noqa: N818 - a verdict, not a crash
    """Raised inside the checks; `message` says why (its English text is the `detail`)."""

    def __init__(self, message: Message) -> None:
        super().__init__(message.key)
        self.message = message

    def __str__(self) -> str:
        return str(self.message)


def _name(idx: MapIndex, pid: str) -> Name | str:
    return Name(pid, idx.name_en[pid]) if pid in idx.name_en else pid


def check_unit(
    order: UnitOrder, position: Position, rules: RuleSet, units: Mapping[str, Unit] | None = None
) -> Unit:
    """The board unit an order is for, or Illegal (not there, not yours, wrong type/coast)."""
    ref = order.unit
    board = position.units if units is None else units
    unit = board.get(ref.province)
    if unit is None:
        raise Illegal(msg("illegal.no_unit", province=Prov(ref.province)))
    if order.power is not None and order.power is not unit.power:
        raise Illegal(msg("illegal.belongs_to", province=Prov(ref.province), power=unit.power))
    _check_type(ref, unit, rules)
    _check_own_coast(ref, unit, rules)
    return unit


def _check_type(ref: UnitRef, unit: Unit, rules: RuleSet) -> None:
    if ref.type is None:
        if rules.missing_unit_type is CHOICE_A:  # 4.C.1 a
            raise Illegal(
                msg("illegal.type_missing_there", a=_article(unit), province=Prov(unit.province))
            )
    elif ref.type is not unit.type and rules.wrong_unit_type is CHOICE_A:  # 4.C.2 a
        raise Illegal(
            msg(
                "illegal.wrong_type",
                a=_article(unit),
                other=_article_t(ref.type),
                province=Prov(unit.province),
            )
        )


def _article(unit: Unit) -> Message:
    return _article_t(unit.type)


def _article_t(t: UnitType) -> Message:
    return msg("article.army" if t is ARMY else "article.fleet")


def _check_own_coast(ref: UnitRef, unit: Unit, rules: RuleSet) -> None:
    coast = ref.location.coast
    if coast is None or coast == unit.location.coast:
        return
    if unit.location.coast is not None:
        if not rules.wrong_unit_coast_ignored:  # 4.B.5 a
            raise Illegal(msg("illegal.fleet_is_on", at=unit.location, written=ref.location))
    elif not rules.irrelevant_coast_ignored:  # 4.B.6 a
        raise Illegal(msg("illegal.no_coast", province=Prov(unit.province), coast=coast))


def _fleet_reach(idx: MapIndex, src: Location, pid: str) -> tuple[Location, ...]:
    """The locations of `pid` a fleet at `src` can move to, in the map's order: the map
    index's table, not fleet_locations' new Locations hashed one by one (issue 18); an
    unknown province raises fleet_locations' MapError."""
    reach = idx.fleet_reach_s.get(key(src), {}).get(pid, ())
    if not reach and pid not in idx.name_en:
        idx.game_map.province(pid)  # its MapError
    return reach


def fleet_dest(
    idx: MapIndex, rules: RuleSet, src: Location, dest: Location, verb: str = "move"
) -> Location:
    """The exact location a fleet order to `dest` means (4.B.1-4.B.3, 4.B.6), or Illegal."""
    pid = dest.province
    if pid in idx.land:
        raise Illegal(msg(f"illegal.fleet_inland_{verb}", place=_name(idx, pid)))
    reach = _fleet_reach(idx, src, pid)
    if not reach:
        raise Illegal(msg("illegal.fleet_cannot_reach", at=src, place=_name(idx, pid)))
    if pid not in idx.split:
        if dest.coast is not None and not rules.irrelevant_coast_ignored:  # 4.B.6 a
            raise Illegal(msg("illegal.no_coast", province=_name(idx, pid), coast=dest.coast))
        return reach[0]
    if dest.coast is None:
        if len(reach) > 1:  # 4.B.1
            coasts = OneOf(tuple(reach))
            raise Illegal(msg("illegal.which_coast", place=_name(idx, pid), coasts=coasts))
        if not rules.default_single_coast:  # 4.B.2 b
            raise Illegal(msg("illegal.say_coast", coast=reach[0]))
        return reach[0]
    if dest in reach:
        return dest
    if rules.unreachable_coast_illegal or len(reach) != 1:  # 4.B.3 b
        raise Illegal(msg("illegal.fleet_cannot_reach", at=src, place=dest))
    return reach[0]  # 4.B.3 a: the coast is ignored


def _army_dest(idx: MapIndex, rules: RuleSet, dest: Location) -> str:
    pid = dest.province
    if pid in idx.sea:
        raise Illegal(msg("illegal.army_to_sea", place=_name(idx, pid)))
    if dest.coast is not None and not rules.irrelevant_coast_ignored:  # 4.B.6 a
        raise Illegal(msg("illegal.army_to_coast", place=dest))
    return pid


def _known(idx: MapIndex, pid: str) -> None:
    if pid not in idx.name_en:
        raise Illegal(msg("illegal.unknown_province", province=pid))


def chordless_route_through(
    idx: MapIndex, src: str, dst: str, fleets: frozenset[str] | set[str], via: str
) -> bool:
    """Does `via` lie on a convoy route src->dst that needs each of its fleets? (6.G.19)"""
    shores = idx.sea_shores
    if via in fleets and src in shores[via] and dst in shores[via]:
        return True  # the commonest route: `via` alone (the search below finds it too)
    seas = idx.sea_seas
    starts = [s for s in idx.shore_seas.get(src, ()) if s in fleets]
    path: list[str] = []

    def walk(s: str) -> bool:
        if dst in shores[s]:
            return via in path or s == via
        path.append(s)
        try:
            for n in seas[s]:
                if n not in fleets or n in path or src in shores[n]:
                    continue
                for p in path[:-1]:  # a loop, not any(genexpr): paths are short
                    if n in seas[p]:
                        break  # a shortcut exists: the longer route needs no fleet in between
                else:
                    if walk(n):
                        return True
        finally:
            path.pop()
        return False

    for s in starts:  # noqa: SIM110 - a loop, not any(genexpr): one start or two
        if walk(s):
            return True
    return False


_KIND: Final[dict[type, int]] = {
    Hold: HOLD,
    Move: MOVE,
    SupportHold: SUPH,
    SupportMove: SUPM,
    Convoy: CONVOY,
}


def _exact(entry: tuple[Order, Unit | None, Message | None]) -> bool:
    """Does the order name its unit with the right type (4.C.1/4.C.2 choice c)?"""
    order, unit, _ = entry
    return isinstance(order, UnitOrder) and unit is not None and order.unit.type is unit.type


class MovementCheck:
    """The legality step of a movement phase: one effective order per unit, in order."""

    __slots__ = (
        "_fleet_seas",
        "as_given",
        "effective",
        "entries",
        "idx",
        "position",
        "rules",
        "strict_refs",
    )

    def __init__(self, position: Position, idx: MapIndex, rules: RuleSet) -> None:
        self.position = position
        self.idx = idx
        self.rules = rules
        self._fleet_seas: frozenset[str] | None = None
        # Do supported/convoyed unit designations need checking (4.C.1/4.C.2/4.C.6 a)?
        self.strict_refs = (
            rules.missing_unit_type is CHOICE_A
            or rules.wrong_unit_type is CHOICE_A
            or rules.wrong_nationality is CHOICE_A
            or rules.missing_nationality is CHOICE_A
        )
        # (order, unit or None, why it is illegal or None) in input order
        self.entries: list[tuple[Order, Unit | None, Message | None]] = []
        self.effective: dict[str, Eff] = {}
        # Did every order name its units as they stand (`as_given`)? Then the interpretation
        # of a rule set whose only movement policy is that leniency changes nothing.
        self.as_given = True

    @property
    def fleet_seas(self) -> frozenset[str]:
        """Sea provinces holding a fleet: where a convoy route could pass (4.E.1, 6.D.32)."""
        if self._fleet_seas is None:
            units = self.position.units
            fleet = FLEET
            # the occupied seas first (in C), then their units' type (a list: no generator)
            self._fleet_seas = frozenset(
                [p for p in self.idx.sea.intersection(units) if units[p].type is fleet]
            )
        return self._fleet_seas

    def run(self, orders: Iterable[Order]) -> MovementCheck:
        # A plain dict for the look-ups below: a mappingproxy's .get costs ~250 instructions
        # more than a dict's (~40 per phase); its copy costs ~1,600.
        board = self.position.units
        units = board.copy() if type(board) is MappingProxyType else dict(board)
        entries = self.entries
        effective = self.effective
        dups: dict[str, list[tuple[int, Eff, bool]]] = {}
        army = ARMY
        idx = self.idx
        army_adj, fleet_reach_s, fleet_adj_prov_s = (
            idx.army_adj,
            idx.fleet_reach_s,
            idx.fleet_adj_prov_s,
        )
        split = idx.split
        strict = self.strict_refs
        eff: Eff
        for order in orders:
            kind = _KIND.get(type(order))
            given = True  # as_given(order, units), worked out with the unit's check below
            try:
                if kind is None:
                    raise Illegal(msg("illegal.not_in_movement", order=order))
                if TYPE_CHECKING:  # `kind`: one of _KIND's types (an isinstance costs ~200)
                    assert isinstance(order, UnitOrder)
                ref = order.unit
                loc = ref.location
                prov = loc.province
                unit = units.get(prov)
                if (
                    unit is None
                    or (order.power is not None and order.power is not unit.power)
                    or ref.type is not unit.type
                    or (loc.coast is not None and loc.coast is not unit.location.coast)
                ):
                    given = as_given(order, units)
                    unit = check_unit(order, self.position, self.rules)
                elif kind >= SUPH:  # _target_as_given without its isinstance: `kind` says
                    if TYPE_CHECKING:
                        assert isinstance(order, SupportHold | SupportMove | Convoy)
                    given = _ref_as_given(order.target, units)
                # The commonest orders are checked inline (the same tests as _move and
                # _support_hold make first); anything else goes to its method.
                if kind == MOVE:
                    if TYPE_CHECKING:
                        assert isinstance(order, Move)
                    dest = order.dest
                    dst = dest.province
                    if order.via_convoy or dest.coast is not None:
                        eff = self._move_checked(order, unit)
                    elif unit.type is army:  # a move to a neighbour
                        if dst in army_adj[prov]:
                            eff = (MOVE, unit, order, dst, dest, "", None, False)
                        else:
                            eff = self._move_checked(order, unit)
                    else:
                        ul = unit.location
                        reach = fleet_reach_s[ul.province if ul.coast is None else key(ul)].get(dst)
                        if reach is not None and len(reach) == 1 and dst not in split:
                            eff = (MOVE, unit, order, dst, reach[0], "", None, False)
                        else:
                            eff = self._move_checked(order, unit)
                elif kind == HOLD:
                    eff = (HOLD, unit, order, "", None, "", None, False)
                elif kind != CONVOY and not strict:
                    # where the supporter could move: a support must lie within (6.A.10)
                    if unit.type is army:
                        near = army_adj.get(prov, _EMPTY)
                    else:
                        ul = unit.location
                        near = fleet_adj_prov_s.get(
                            ul.province if ul.coast is None else key(ul), _EMPTY
                        )
                    if kind == SUPH:
                        if TYPE_CHECKING:
                            assert isinstance(order, SupportHold)
                        # a support to hold of a neighbour (never itself: not adjacent)
                        tgt = order.target.location.province
                        if tgt in near:
                            eff = (SUPH, unit, order, tgt, None, tgt, None, False)
                        else:
                            eff = self._support_hold(order, unit)
                    else:
                        if TYPE_CHECKING:
                            assert isinstance(order, SupportMove)
                        # a support of a move to a neighbour that the mover can make (without
                        # a convoy), naming no coast; anything else is judged by _support_move
                        tgt = order.target.location.province
                        dest = order.dest
                        dst = dest.province
                        mover = units.get(tgt)
                        if (
                            dest.coast is None
                            and dst in near  # so dst is not here
                            and tgt not in (prov, dst)
                            and (
                                mover is None
                                or (
                                    dst in army_adj.get(tgt, ())
                                    if mover.type is army
                                    else fleet_reach_s[key(mover.location)].get(dst) is not None
                                )
                            )
                        ):
                            eff = (SUPM, unit, order, dst, None, tgt, None, False)
                        else:
                            eff = self._support_move(order, unit)
                elif kind == CONVOY:
                    eff = self._convoy(order, unit)
                elif kind == SUPH:
                    eff = self._support_hold(order, unit)
                else:
                    eff = self._support_move(order, unit)
            except Illegal as exc:
                unit_or_none = None
                if isinstance(order, UnitOrder):
                    unit_or_none = units.get(order.unit.province)
                entries.append((order, unit_or_none, exc.message))
                if not as_given(order, units):
                    self.as_given = False
                continue
            if not given:
                self.as_given = False
            if prov not in effective:
                effective[prov] = eff
            else:  # several orders for one unit (rare)
                if prov not in dups:
                    i0 = self._first_legal(prov)
                    dups[prov] = [(i0, effective[prov], _exact(entries[i0]))]
                dups[prov].append((len(entries), eff, ref.type is unit.type))
            entries.append((order, unit, None))
        for prov, cands in dups.items():
            effective[prov] = self._pick(cands)
        return self

    def _first_legal(self, prov: str) -> int:
        """The entry of the first legal order for the unit in `prov` (it set `effective`)."""
        for i, (order, _, detail) in enumerate(self.entries):
            if detail is None and isinstance(order, UnitOrder) and order.unit.province == prov:
                return i
        raise AssertionError(prov)

    def _pick(self, cands: list[tuple[int, Eff, bool]]) -> Eff:
        """Several legal orders for one unit (4.D.3; 4.C.1/4.C.2 choice c)."""
        if len(cands) > 1 and (
            self.rules.missing_unit_type is CHOICE_C or self.rules.wrong_unit_type is CHOICE_C
        ):
            exact = [c for c in cands if c[2]]
            if exact:
                for c in cands:
                    if not c[2]:
                        self._drop(c[0], msg("illegal.dup_right_type"))
                cands = exact
        first = cands[0]
        if len(cands) == 1:
            return first[1]
        distinct = {c[1][2] for c in cands}
        if len(distinct) == 1:
            for c in cands[1:]:
                self._drop(c[0], msg("illegal.dup_same"))
            return first[1]
        rule = self.rules.duplicate_orders
        if rule is DUP_FIRST:
            for c in cands[1:]:
                self._drop(c[0], msg("illegal.dup_earlier"))
            return first[1]
        if rule is DUP_LAST:
            for c in cands[:-1]:
                self._drop(c[0], msg("illegal.dup_later"))
            return cands[-1][1]
        for c in cands:
            self._drop(c[0], msg("illegal.dup_several"))
        return hold_eff(first[1][1])

    def _drop(self, i: int, why: Message) -> None:
        order, unit, _ = self.entries[i]
        self.entries[i] = (order, unit, why)

    def _hold(self, order: UnitOrder, unit: Unit) -> Eff:
        return (HOLD, unit, order, "", None, "", None, False)

    def _near(self, unit: Unit) -> frozenset[str]:
        if unit.type is ARMY:
            return self.idx.army_adj.get(unit.location.province, frozenset())
        loc = unit.location
        return self.idx.fleet_adj_prov_s.get(
            loc.province if loc.coast is None else key(loc), frozenset()
        )

    def _support_hold(self, order: UnitOrder, unit: Unit) -> Eff:
        assert isinstance(order, SupportHold)
        tgt = order.target.location.province
        if tgt == unit.location.province:  # DATC 6.A.8
            raise Illegal(msg("illegal.support_itself"))
        if tgt not in self._near(unit):
            _known(self.idx, tgt)
            self._reach(unit, tgt, "support")
        if self.strict_refs:
            self._target_ref(order.target, unit.power)
        return (SUPH, unit, order, tgt, None, tgt, None, False)

    def _support_move(self, order: UnitOrder, unit: Unit) -> Eff:
        assert isinstance(order, SupportMove)
        idx = self.idx
        here = unit.location.province
        tgt = order.target.location.province
        dest = order.dest
        dst = dest.province
        if tgt == here:
            raise Illegal(msg("illegal.support_own_move"))
        if dst == here:  # DATC 6.D.34
            raise Illegal(msg("illegal.support_into_own"))
        if dst == tgt:  # DATC 6.A.5
            raise Illegal(msg("illegal.move_to_own"))
        if dst not in self._near(unit):
            _known(idx, tgt)
            _known(idx, dst)
            self._reach(unit, dst, "support a move to")
        if self.strict_refs:
            self._target_ref(order.target, unit.power)
        mover = self.position.units.get(tgt)
        if mover is not None:
            if mover.type is ARMY:
                if dest.coast is not None or dst not in idx.army_adj.get(tgt, ()):
                    self._supported_move_possible(unit, tgt, dest)
            else:
                ml = mover.location
                reach = idx.fleet_reach_s[ml.province if ml.coast is None else key(ml)].get(dst)
                if reach is None or (dest.coast is not None and dest not in reach):
                    self._supported_move_possible(unit, tgt, dest)
        coast = dest if dest.coast is not None else None
        return (SUPM, unit, order, dst, None, tgt, coast, False)

    def _target_ref(self, ref: UnitRef, me: Power) -> None:
        """4.C.1/4.C.2 and 4.C.5/4.C.6 (choice a) for the supported or convoyed unit."""
        board = self.position.units.get(ref.province)
        if board is None:
            return  # unmatched: decided when matching (void)
        rules = self.rules
        if ref.type is None and rules.missing_unit_type is CHOICE_A:
            raise Illegal(msg("illegal.target_type_missing", province=Prov(ref.province)))
        if (
            ref.type is not None
            and ref.type is not board.type
            and rules.wrong_unit_type is CHOICE_A
        ):
            raise Illegal(msg("illegal.target_is", a=_article(board), province=Prov(ref.province)))
        if ref.power is None:
            if rules.missing_nationality is CHOICE_A and board.power is not me:  # 4.C.5 a
                raise Illegal(msg("illegal.target_whose", province=Prov(ref.province)))
        elif ref.power is not board.power and rules.wrong_nationality is CHOICE_A:  # 4.C.6 a
            raise Illegal(
                msg("illegal.target_power", province=Prov(ref.province), power=board.power)
            )

    def _reach(self, unit: Unit, pid: str, verb: str) -> None:
        idx = self.idx
        if unit.type is ARMY:
            ok = pid in idx.army_adj.get(unit.province, ())
        else:
            ok = pid in idx.fleet_adj_prov.get(unit.location, ())
        if not ok:  # DATC 6.A.10, 6.B.5
            raise Illegal(
                msg(f"illegal.cannot_{verb.replace(' ', '_')}", unit=unit, place=_name(idx, pid))
            )

    def _supported_move_possible(self, supporter: Unit, tgt: str, dest: Location) -> None:
        """A support of a move that could never be valid is illegal (6.D.22-6.D.24, 6.D.31)."""
        mover = self.position.units.get(tgt)
        if mover is None:
            return
        idx = self.idx
        try:
            if mover.type is FLEET:
                pid = dest.province
                if pid in idx.land:
                    raise Illegal(msg("illegal.fleet_inland_move", place=_name(idx, pid)))
                reach = _fleet_reach(idx, mover.location, pid)
                if not reach or (pid in idx.split and dest.coast and dest not in reach):
                    raise Illegal(msg("illegal.fleet_cannot_reach", at=mover.location, place=dest))
            else:
                _army_dest(idx, self.rules, Location(dest.province))
                if dest.province not in idx.army_adj.get(tgt, ()):
                    fleets = self.fleet_seas - {supporter.province}
                    if not idx.route_exists(tgt, dest.province, fleets):
                        raise Illegal(msg("illegal.no_convoy_there"))
        except Illegal as exc:
            raise Illegal(
                msg("illegal.supported_impossible", unit=mover, dest=dest, why=exc.message)
            ) from None

    def _move(self, order: UnitOrder, unit: Unit) -> Eff:
        assert isinstance(order, Move)
        idx = self.idx
        dest = order.dest
        dst = dest.province
        if not order.via_convoy and dest.coast is None:
            if unit.type is ARMY:
                if dst in idx.army_adj.get(unit.location.province, ()):
                    return (MOVE, unit, order, dst, dest, "", None, False)
            else:
                ul = unit.location
                reach = idx.fleet_reach_s[ul.province if ul.coast is None else key(ul)].get(dst)
                if reach is not None and len(reach) == 1 and dst not in idx.split:
                    return (MOVE, unit, order, dst, reach[0], "", None, False)
        return self._move_checked(order, unit)

    def _move_checked(self, order: Move, unit: Unit) -> Eff:
        idx = self.idx
        dst = order.dest.province
        _known(idx, dst)
        if dst == unit.location.province:  # DATC 6.A.4, 6.A.5
            raise Illegal(msg("illegal.move_to_own"))
        if unit.type is FLEET:
            if order.via_convoy:
                raise Illegal(msg("illegal.only_armies_convoyed"))
            loc = fleet_dest(idx, self.rules, unit.location, order.dest)
            return (MOVE, unit, order, dst, loc, "", None, False)
        _army_dest(idx, self.rules, order.dest)
        here = unit.location.province
        adjacent = dst in idx.army_adj.get(here, ())
        needs_route = not adjacent or (
            order.via_convoy and self.rules.adjacent_convoy in _ROUTE_RULES
        )
        if needs_route and not idx.route_exists(here, dst, self.fleet_seas):
            if adjacent:
                raise Illegal(msg("illegal.no_fleets_to", place=_name(idx, dst)))
            raise Illegal(  # DATC 6.A.1, 6.D.32
                msg("illegal.not_next_to", place=_name(idx, dst), here=_name(idx, here))
            )
        # the written destination when it names no coast (equal to Location(dst))
        loc = order.dest if order.dest.coast is None else Location(dst)
        return (MOVE, unit, order, dst, loc, "", None, order.via_convoy)

    def _convoy(self, order: UnitOrder, unit: Unit) -> Eff:
        assert isinstance(order, Convoy)
        idx = self.idx
        here = unit.location.province
        if unit.type is not FLEET or here not in idx.sea:  # DATC 6.F.1
            raise Illegal(msg("illegal.convoy_at_sea"))
        tgt = order.target.location.province
        dst = order.dest.province
        _known(idx, tgt)
        _known(idx, dst)
        army = self.position.units.get(tgt)
        if army is not None and army.type is FLEET:  # DATC 6.A.7
            raise Illegal(msg("illegal.only_armies_convoyed"))
        if tgt in idx.sea or dst in idx.sea or tgt == dst:
            raise Illegal(msg("illegal.coast_to_coast"))
        if self.strict_refs:  # else _target_ref has no rule to apply
            self._target_ref(order.target, unit.power)
        if not chordless_route_through(idx, tgt, dst, self.fleet_seas, here):  # 4.E.1, 6.G.19
            raise Illegal(
                msg(
                    "illegal.no_route_via",
                    here=_name(idx, here),
                    src=_name(idx, tgt),
                    place=_name(idx, dst),
                )
            )
        return (CONVOY, unit, order, dst, None, tgt, None, False)
