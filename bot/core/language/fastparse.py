"""The fast path of the order parser, texts held once read (issue 18): `parse_order`'s
reading of a text is kept per map and language (`read`), and canonical orders are planned once
and completed with the board by what they read of it (`Planner`, for bulk runs). The
reading itself, without a parse tree, is `bot.core.language.fastread`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from bot.core import catalogue
from bot.core.compiled.twin import twin
from bot.core.language.fastread import (
    _UTYPES,
    Skeleton,
    _canonical_locations,
    _canonical_place,
    _made,
    _Refusal,
    _skeleton,
    _Twice,
    fast_order,
)
from bot.core.language.lexicon import MAX_ORDER_LENGTH, OrderSyntaxError, _clean, _messages
from bot.core.language.transform import _Ctx, _fill_dest
from bot.core.map import GameMap
from bot.core.model import (
    ADJUSTMENT,
    FLEET,
    MOVEMENT,
    NATIVE,
    RETREAT,
    Location,
    PhaseKind,
    Position,
    Power,
    Unit,
    UnitType,
)
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
    UnitRef,
)

__all__ = ["Planner", "Skeleton", "fast_order", "forget", "read"]


# --- canonical orders, for bulk runs ---------------------------------------------------------
# Completing a typed canonical order (`_complete`) reads one thing of the board: the owner of
# the ordered unit (in a retreat phase the dislodged one first) or, for a build, of the centre;
# a fleet written without a coast may also take the board's coast (such an order is left to the
# general path when the board has one). So its result is a function of (ordering power, that
# owner), made once per pair and phase kind.

_UNITS: Final = 0  # what a plan reads of the board (small ints: `is`)
_RETREATING: Final = 1
_CENTRE: Final = 2
_Pair = Power | None | tuple[Power | None, Power | None]
_Owned = dict[Power | None, UnitRef]  # a unit as written, by owner
_Refs = dict[tuple[UnitType, int], _Owned]


class _Plan:
    """A canonical order in one kind of phase: the province it reads, what it reads there,
    whether the board may fill a coast, its unit by owner (`owned`, shared by the plans
    with that unit), and the orders made so far by (power, owner).
    `make(plan, power, owner)` builds the order from the plan's fields: a plan is data, not
    a closure (a closure's cells and bound method were ~10 more objects for the collector to
    walk per text read: issue 18)."""

    __slots__ = (
        "coastless_fleet",
        "dest",
        "done",
        "loc",
        "make",
        "owned",
        "pid",
        "reads",
        "target",
        "text",
        "utype",
        "via",
    )

    def __init__(
        self,
        make: Callable[[_Plan, Power | None, Power | None], Order],
        text: str,
        utype: UnitType,
        loc: Location,
        refs: _Refs,
        *,
        reads: int = _UNITS,
    ) -> None:
        self.make = make
        self.text = text
        self.utype = utype
        self.loc = loc
        self.owned = _owned(refs, utype, loc)
        self.pid = loc.province
        self.reads = reads
        self.coastless_fleet = utype is FLEET and loc.coast is None
        self.done: dict[_Pair, Order] = {}  # by owner, or (power, owner) if they differ
        self.dest: Location = loc
        self.target = _NO_TARGET  # a support's or convoy's target; a build's unit
        self.via = False


# The orders a plan makes, and their units, are built through their classes' twins (plain
# stores, then `__class__`: bot.core.compiled.twin): a frozen dataclass's __init__ sets each field
# through `object.__setattr__` (a Move: ~13k instructions; slot setters called: ~6.5k; issue
# 18). tests/bot/core/language/test_fastparse.py checks each equals its class's own construction.
# Compiled (bot.core.model.NATIVE), by their constructors: a native class takes no twin's
# `__class__`, and its compiled __init__ is as cheap.
_new: Final = object.__new__


def _twin(cls: type) -> Any:
    return None if NATIVE else twin(cls)  # twin() refuses a native class


_UnitRefTwin, _MoveTwin, _HoldTwin = _twin(UnitRef), _twin(Move), _twin(Hold)
_SupportHoldTwin, _SupportMoveTwin = _twin(SupportHold), _twin(SupportMove)
_ConvoyTwin, _RetreatTwin = _twin(Convoy), _twin(Retreat)
_DisbandTwin, _BuildTwin = _twin(Disband), _twin(Build)


def _unit_ref(utype: UnitType, loc: Location, owner: Power | None) -> UnitRef:
    """`UnitRef(utype, loc, owner)`."""
    if NATIVE:
        return UnitRef(utype, loc, owner)
    ref = _new(_UnitRefTwin)
    ref.type = utype
    ref.location = loc
    ref.power = owner
    ref.__class__ = UnitRef
    return ref  # type: ignore[no-any-return]


def _owned(refs: _Refs, utype: UnitType, loc: Location) -> _Owned:
    """The table of `UnitRef(utype, loc, owner)` by owner, one object each, shared by the
    plans: keyed by the location's id, as its UnitRefs keep that location (no other object
    can have its id meanwhile; while it has none, none can name another place)."""
    key = (utype, id(loc))
    owned = refs.get(key)
    if owned is None:
        owned = refs[key] = {}
    return owned


def _as_written(owned: _Owned, utype: UnitType, loc: Location) -> UnitRef:
    """`UnitRef(utype, loc)`, from `_owned(..., utype, loc)`."""
    ref = owned.get(None)
    if ref is None:
        ref = owned[None] = _unit_ref(utype, loc, None)
    return ref


def _order_of(twin_cls: Any, plan: _Plan, power: Power | None, owner: Power | None) -> Any:
    """A twin with the fields every order of a plan has, its unit the plan's as owned by
    `owner` (looked up here, not through a call more: issue 18); the caller sets its own
    fields, then its class."""
    unit = plan.owned.get(owner)
    if unit is None:
        unit = plan.owned[owner] = _unit_ref(plan.utype, plan.loc, owner)
    order = _new(twin_cls)
    order.power = power or owner
    order.source = plan.text
    order.irrelevant_coasts = ()
    order.unit = unit
    return order


def _build(plan: _Plan, power: Power | None, owner: Power | None) -> Order:
    # its unit as written: the plan's as owned by None
    order = _order_of(_BuildTwin, plan, power or owner, None)
    order.__class__ = Build
    return order  # type: ignore[no-any-return]


def _disband(plan: _Plan, power: Power | None, owner: Power | None) -> Order:
    order = _order_of(_DisbandTwin, plan, power, owner)
    order.__class__ = Disband
    return order  # type: ignore[no-any-return]


def _retreat(plan: _Plan, power: Power | None, owner: Power | None) -> Order:
    order = _order_of(_RetreatTwin, plan, power, owner)
    order.dest = plan.dest
    order.__class__ = Retreat
    return order  # type: ignore[no-any-return]


def _hold(plan: _Plan, power: Power | None, owner: Power | None) -> Order:
    order = _order_of(_HoldTwin, plan, power, owner)
    order.__class__ = Hold
    return order  # type: ignore[no-any-return]


def _move(plan: _Plan, power: Power | None, owner: Power | None) -> Order:
    order = _order_of(_MoveTwin, plan, power, owner)
    order.dest = plan.dest
    order.via_convoy = plan.via
    order.__class__ = Move
    return order  # type: ignore[no-any-return]


def _support_hold(plan: _Plan, power: Power | None, owner: Power | None) -> Order:
    order = _order_of(_SupportHoldTwin, plan, power, owner)
    order.target = plan.target
    order.__class__ = SupportHold
    return order  # type: ignore[no-any-return]


def _support_move(plan: _Plan, power: Power | None, owner: Power | None) -> Order:
    order = _order_of(_SupportMoveTwin, plan, power, owner)
    order.target = plan.target
    order.dest = plan.dest
    order.__class__ = SupportMove
    return order  # type: ignore[no-any-return]


def _convoy(plan: _Plan, power: Power | None, owner: Power | None) -> Order:
    order = _order_of(_ConvoyTwin, plan, power, owner)
    order.target = plan.target
    order.dest = plan.dest
    order.__class__ = Convoy
    return order  # type: ignore[no-any-return]


# The same, by the constructors (compiled).


def _unit_of(plan: _Plan, owner: Power | None) -> UnitRef:
    """The plan's unit as owned by `owner`."""
    unit = plan.owned.get(owner)
    if unit is None:
        unit = plan.owned[owner] = _unit_ref(plan.utype, plan.loc, owner)
    return unit


def _new_build(plan: _Plan, power: Power | None, owner: Power | None) -> Order:
    # its unit as written: the plan's as owned by None
    return Build(power or owner, _unit_of(plan, None), source=plan.text)


def _new_disband(plan: _Plan, power: Power | None, owner: Power | None) -> Order:
    return Disband(power or owner, _unit_of(plan, owner), source=plan.text)


def _new_retreat(plan: _Plan, power: Power | None, owner: Power | None) -> Order:
    return Retreat(power or owner, _unit_of(plan, owner), plan.dest, source=plan.text)


def _new_hold(plan: _Plan, power: Power | None, owner: Power | None) -> Order:
    return Hold(power or owner, _unit_of(plan, owner), source=plan.text)


def _new_move(plan: _Plan, power: Power | None, owner: Power | None) -> Order:
    unit = _unit_of(plan, owner)
    return Move(power or owner, unit, plan.dest, plan.via, source=plan.text)


def _new_support_hold(plan: _Plan, power: Power | None, owner: Power | None) -> Order:
    unit = _unit_of(plan, owner)
    return SupportHold(power or owner, unit, plan.target, source=plan.text)


def _new_support_move(plan: _Plan, power: Power | None, owner: Power | None) -> Order:
    unit = _unit_of(plan, owner)
    return SupportMove(power or owner, unit, plan.target, plan.dest, source=plan.text)


def _new_convoy(plan: _Plan, power: Power | None, owner: Power | None) -> Order:
    unit = _unit_of(plan, owner)
    return Convoy(power or owner, unit, plan.target, plan.dest, source=plan.text)


# The makers the plans take, chosen once.
_BUILD: Final = _new_build if NATIVE else _build
_DISBAND: Final = _new_disband if NATIVE else _disband
_RETREAT: Final = _new_retreat if NATIVE else _retreat
_HOLD: Final = _new_hold if NATIVE else _hold
_MOVE: Final = _new_move if NATIVE else _move
_SUPPORT_HOLD: Final = _new_support_hold if NATIVE else _support_hold
_SUPPORT_MOVE: Final = _new_support_move if NATIVE else _support_move
_CONVOY: Final = _new_convoy if NATIVE else _convoy


def _unseen(*_: object) -> Order:
    raise AssertionError("a text not read yet")


_UNSEEN_LOC: Final = Location("?")  # `_locs.get`'s default: not read yet
_NO_TARGET: Final = UnitRef(UnitType.ARMY, Location("?"))
_UNSEEN: Final = _Plan(_unseen, "", UnitType.ARMY, Location("?"), {})  # `_plans.get`'s default


class Planner:
    """The fast path's reader of a map's texts in one language: each distinct text is read
    once and completed with the board every time (`fast`), canonical orders planned once
    (`canonical`). `bulk.Planner` adds the grammar for the texts it does not read."""

    def __init__(
        self, game_map: GameMap, lang: str = "en", size: int = 200_000, texts: int | None = None
    ) -> None:
        self.game_map = game_map
        self.lang = catalogue.normalise(lang)
        self.size = size  # canonical plans held
        self.texts = size if texts is None else texts  # readings held
        self._read: dict[str, tuple[_Ctx, Skeleton | _Refusal | _Twice | None]] = {}
        # text -> plan, one table per kind of phase (a kind's hash is a Python call: issue 18)
        self._plans: tuple[dict[str, _Plan | None], ...] = ({}, {}, {})
        self._locs: dict[str, Location | None] = {}  # canonical place text -> as read
        self._refs: _Refs = {}  # (type, id(location)) -> the plans' UnitRefs by owner
        # Movement orders handed out, by power and text: (province read, the board's unit
        # there, the order). While that unit is the same object the order is (`moves`).
        self._moves: dict[Power | None, dict[str, tuple[str, Unit | None, Order]]] = {}

    def moves(self, power: Power | None) -> dict[str, tuple[str, Unit | None, Order]]:
        """The movement orders `canonical` handed out to `power` from its plans, by text, with
        the province each read and the board's unit there: while `position.units.get(pid)`
        is that unit, `canonical` returns that order again (unless `given` has it: a text
        repeated in the phase)."""
        table = self._moves.get(power)
        if table is None:
            table = self._moves[power] = {}
        return table

    def fast(self, text: str, power: Power | None, position: Position | None) -> Order | None:
        """`fast_order`'s result for `text`, read once: the order (a new object), its error
        raised, or None (the grammar reads it). `_clean` leaves a cleaned text as it is, so
        a text and its cleaned form share their reading."""
        entry = self._read.get(text)
        if entry is None:
            if len(self._read) >= self.texts:
                self._read.clear()
            gm = self.game_map
            ctx = _Ctx(_clean(text), self.lang, gm.names(), gm, _messages(self.lang))
            long = len(ctx.text) > MAX_ORDER_LENGTH  # parse_order's own refusal
            entry = self._read[text] = (ctx, None if long else _skeleton(ctx))
        ctx, skeleton = entry
        return None if skeleton is None else _made(skeleton, ctx, position, power)

    def forget(self) -> None:
        """Drop the texts read and planned (not the places: `_loc`)."""
        self._read.clear()
        for plans in self._plans:
            plans.clear()

    def canonical(
        self, text: str, power: Power | None, position: Position, given: set[int] | None
    ) -> Order | None:
        """`parse(text, power=power, position=position)` for a canonical order of the phase's
        kind, else None. The same object is handed out again while what it depends on is the
        same; a fresh one if `given` (the ids handed out for this phase) has it, as the
        adjudicator tells repeated orders apart by identity, or if `given` is None."""
        kind = position.phase.kind
        plans = self._plans[0 if kind is MOVEMENT else 1 if kind is RETREAT else 2]
        plan = plans.get(text, _UNSEEN)
        if plan is _UNSEEN:
            if len(plans) >= self.size:
                plans.clear()
            plan = plans[text] = self._plan(text, kind)
        if plan is None:
            return None
        pid = plan.pid
        reads = plan.reads
        if reads is _CENTRE:
            owner = position.centers.get(pid)
        else:
            board = position.units.get(pid)
            if reads is _RETREATING and position.dislodged:
                waiting = position.dislodged_in(pid)
                board = board if waiting is None else waiting.unit
            owner = None
            if board is not None:
                owner = board.power
                if plan.coastless_fleet and board.location.coast is not None:
                    return None  # "F SPA - MAO" takes the board's coast: the general path
        if given is None:
            return plan.make(plan, power, owner)
        # an own unit's order (the usual) by its owner alone: no pair (a tuple of Powers stays
        # tracked by the collector, issue 18); a pair is never equal to a Power or None
        pair = owner if power is owner else (power, owner)
        done = plan.done
        order = done.get(pair)
        if order is None:
            order = done[pair] = plan.make(plan, power, owner)
        elif id(order) in given:
            order = plan.make(plan, power, owner)
            given.add(id(order))
            return order
        given.add(id(order))
        if kind is MOVEMENT:
            moves = self._moves.get(power) or self.moves(power)
            if len(moves) >= self.size:
                moves.clear()
            moves[text] = (pid, board, order)
        return order

    def _loc(self, text: str) -> Location | None:
        """A canonical place as `_canonical` reads it; None if it does not, or if it drops a
        coast (DATC 4.B.6, noted on the order: the general path)."""
        held = self._locs.get(text, _UNSEEN_LOC)
        if held is not _UNSEEN_LOC:
            return held
        gm = self.game_map
        ctx = _Ctx(text, self.lang, gm.names(), gm, _messages(self.lang))
        found = _canonical_place(ctx, text, _canonical_locations(ctx))
        if ctx.dropped:
            found = None
        if len(self._locs) >= 10_000:  # any word after "A " is looked up: keep it bounded
            self._locs.clear()
        self._locs[text] = found
        return found

    def _plan(self, text: str, kind: PhaseKind) -> _Plan | None:
        """`_canonical`'s reading of `text` with `_complete`'s completion in a phase of
        `kind`, for the orders of that kind of phase; None for anything else."""
        parts = text.split(" ") if text.isascii() else []  # ASCII: `_clean` keeps it as is
        n = len(parts)
        utype = _UTYPES.get(parts[0]) if parts else None
        if utype is None or n < 3:
            return None
        loc = self._loc(parts[1])
        if loc is None:
            return None
        verb = parts[2]
        if kind is ADJUSTMENT and n == 3 and verb == "B":
            return _Plan(_BUILD, text, utype, loc, self._refs, reads=_CENTRE)
        if kind is not MOVEMENT and n == 3 and verb == "D":
            reads = _RETREATING if kind is RETREAT else _UNITS
            return _Plan(_DISBAND, text, utype, loc, self._refs, reads=reads)
        if kind is RETREAT and n == 4 and verb == "R":
            to = self._dest(text, utype, loc, parts[3])
            if to is None:
                return None
            plan = _Plan(_RETREAT, text, utype, loc, self._refs, reads=_RETREATING)
            plan.dest = to
            return plan
        if kind is not MOVEMENT:
            return None
        if n == 3 and verb == "H":
            return _Plan(_HOLD, text, utype, loc, self._refs)
        if verb == "-" and (n == 4 or (n == 5 and parts[4] == "VIA")):
            dest = self._dest(text, utype, loc, parts[3])
            if dest is None:
                return None
            plan = _Plan(_MOVE, text, utype, loc, self._refs)
            plan.dest = dest
            plan.via = n == 5
            return plan
        if verb in ("S", "C") and n in (5, 7) and parts[3] in _UTYPES:
            tloc = self._loc(parts[4])
            if tloc is None or (verb == "C" and (n != 7 or parts[3] != "A")):
                return None
            ttype = _UTYPES[parts[3]]
            target = _as_written(_owned(self._refs, ttype, tloc), ttype, tloc)  # DATC 4.B.4
            if n == 5:
                plan = _Plan(_SUPPORT_HOLD, text, utype, loc, self._refs)
            else:
                tdest = self._loc(parts[6])
                if parts[5] != "-" or tdest is None:
                    return None
                plan = _Plan(
                    _SUPPORT_MOVE if verb == "S" else _CONVOY, text, utype, loc, self._refs
                )
                plan.dest = tdest
            plan.target = target
            return plan
        return None

    def _dest(self, text: str, utype: UnitType, loc: Location, part: str) -> Location | None:
        """A move's or retreat's destination with `_fill_dest`'s coast (from the written
        location); None if the general path must say which coast."""
        dest = self._loc(part)
        gm = self.game_map
        if dest is None or utype is not FLEET or dest.coast is not None:
            return dest  # `_fill_dest` keeps it as it is
        if not gm.province(dest.province).coasts:
            return dest
        ctx = _Ctx(text, self.lang, gm.names(), gm, _messages(self.lang))
        try:
            return _fill_dest(ctx, UnitRef(utype, loc, None), dest)
        except OrderSyntaxError:
            return None


_PLANNERS: Final[dict[tuple[int, str], tuple[GameMap, Planner]]] = {}


def _held(game_map: GameMap, lang: str) -> Planner:
    """The reader of `parse_order`'s texts on this map in this language."""
    key = (id(game_map), lang)
    held = _PLANNERS.get(key)
    if held is None or held[0] is not game_map:  # held: the map's id stays its own
        if len(_PLANNERS) > 64:
            _PLANNERS.clear()
        # Bounded: ~1 kB a reading; a table sees a few thousand distinct texts a game.
        held = _PLANNERS[key] = (game_map, Planner(game_map, lang, 50_000, texts=10_000))
    return held[1]


def read(
    text: str, lang: str, power: Power | None, position: Position | None, game_map: GameMap
) -> Order | None:
    """`parse_order`'s result for a cleaned text, or its error raised, when the fast path
    reads it; None: the grammar. A new object each call: the reading is held per map and
    language (players send the same texts again: each edit of an order set re-sends all of
    it), the completion with the board is made each time."""
    reader = _held(game_map, lang)
    if position is not None:
        order = reader.canonical(text, power, position, None)
        if order is not None:
            return order
    return reader.fast(text, power, position)


def forget() -> None:
    """Drop every text's reading and plan held, keeping the places read (bench/parse.py's
    figure for texts read the first time)."""
    for _, reader in _PLANNERS.values():
        reader.forget()
