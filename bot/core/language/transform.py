"""From a parse tree to typed orders (`_ToOrders`), place resolution, and completion with
the board (`_complete`: a missing unit type, a fleet's only reachable coast, a retreat in a
retreat phase), never overriding what was written (DATC 6.A.*: the adjudicator rules)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from lark import Token, Transformer

from bot.core.language.lexicon import OrderSyntaxError, _check_words, _split_place
from bot.core.map import GameMap
from bot.core.model import (
    Coast,
    Location,
    PhaseKind,
    Position,
    Power,
    ProvinceKind,
    Unit,
    UnitType,
)
from bot.core.names import NameTable, fold_word
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

# --- tree to orders --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Place:
    location: Location


# Not frozen: a reading's scratch context (its lists fill as it reads), not a game value; a
# frozen one cost ~13.4k instructions to build per text read the first time, ~4.0k this way
# (issue 18). Nothing assigns its fields after construction.
@dataclass(slots=True)
class _Ctx:
    text: str
    lang: str
    names: NameTable
    game_map: GameMap
    msgs: dict[str, str]
    # Provinces read with a coast they do not have (DATC 4.B.6), in reading order; the
    # order keeps them (`Order.irrelevant_coasts`) for the rule set to rule on.
    dropped: list[str] = field(default_factory=list)
    # DATC 4.E.2 b (house III(1) B), a set read as a whole: the coast of a move that the
    # power's own support or convoy of it names, by (unit's province, destination province).
    hints: dict[tuple[str, str], Location] = field(default_factory=dict)


class _ToOrders(Transformer[Token, Any]):
    """Tree -> typed orders (power None: it is set afterwards)."""

    def __init__(self, ctx: _Ctx) -> None:
        super().__init__()
        self.ctx = ctx
        self.text_power: Power | None = None
        # "X C Y" with X's type left out: a convoyed army's move, or a fleet's convoy order
        # missing the convoyed unit; only the board (or a sea province) tells which.
        self.convoy_word = False

    # places
    def coast(self, items: list[Token]) -> list[str]:
        return [str(t) for t in items if t.type == "WORD"]

    def place(self, items: list[Any]) -> _Place:
        words = [str(t) for t in items if isinstance(t, Token)]
        coast_words: list[str] | None = next((i for i in items if isinstance(i, list)), None)
        return _Place(_place_location(self.ctx, words, coast_words))

    # units
    def unit(self, items: list[Any]) -> UnitRef:
        utype: UnitType | None = None
        power: Power | None = None
        place: _Place | None = None
        for item in items:
            if isinstance(item, _Place):
                place = item
            elif item.type == "UTYPE":
                utype = UnitType.FLEET if fold_word(str(item)).startswith("f") else UnitType.ARMY
            elif item.type == "POWER":
                power = self.ctx.game_map.power_word(fold_word(str(item)))
        assert place is not None  # the grammar guarantees a place
        return UnitRef(utype, place.location, power)

    def target(self, items: list[Any]) -> UnitRef:
        ref: UnitRef = items[0]
        return ref

    # orders
    def start(self, items: list[Any]) -> Order:
        for item in items:
            if isinstance(item, Token) and item.type == "POWER":
                self.text_power = self.ctx.game_map.power_word(fold_word(str(item)))
        order: Order = items[-1]
        return order

    def hold(self, items: list[Any]) -> Order:
        return Hold(None, unit=items[0])

    def move(self, items: list[Any]) -> Order:
        via = any(isinstance(i, Token) and i.type == "VIA" for i in items)
        return Move(None, unit=items[0], dest=items[2].location, via_convoy=via)

    def convoyed_move(self, items: list[Any]) -> Order:
        # EDC G: "attack by convoy: ... or C" — "A LON C BEL" is an army's convoyed move.
        unit: UnitRef = items[0]
        if unit.type is UnitType.FLEET:
            raise OrderSyntaxError(self.ctx.msgs["convoy_dest"], self.ctx.text)
        self.convoy_word = unit.type is None
        return Move(None, unit=unit, dest=items[2].location, via_convoy=True)

    def support_hold(self, items: list[Any]) -> Order:
        return SupportHold(None, unit=items[0], target=items[2])

    def support_move(self, items: list[Any]) -> Order:
        return SupportMove(None, unit=items[0], target=items[2], dest=items[4].location)

    def convoy(self, items: list[Any]) -> Order:
        return Convoy(None, unit=items[0], target=items[2], dest=items[4].location)

    def retreat(self, items: list[Any]) -> Order:
        return Retreat(None, unit=items[0], dest=items[-1].location)

    def disband(self, items: list[Any]) -> Order:
        unit = next(i for i in items if isinstance(i, UnitRef))
        return Disband(None, unit=unit)

    def build(self, items: list[Any]) -> Order:
        unit = next(i for i in items if isinstance(i, UnitRef))
        return Build(None, unit=unit)

    def waive(self, items: list[Any]) -> Order:  # noqa: ARG002 - lark callback signature
        return Waive(None)


def _place_location(ctx: _Ctx, words: list[str], coast_words: list[str] | None) -> Location:
    """A place's words (and the words after its slash or in its brackets) as a location."""
    coast: Coast | None = None
    if coast_words is not None:
        coast = ctx.names.coast(coast_words)
        pid_only = ctx.names.lookup(words, ctx.lang)
        if coast is None:
            shown = " ".join(coast_words)
            message = ctx.msgs["coast"].format(w=shown)
            if pid_only is not None and ctx.game_map.province(pid_only).coasts:
                message += ctx.msgs["write"].format(opts=_coast_options(ctx, pid_only))
            raise OrderSyntaxError(message, ctx.text, shown)
        found = _split_place(words, ctx.names, ctx.lang)
        if found is None or found[1] is not None:
            _check_words(words, ctx.msgs, ctx.names, ctx.lang, ctx.text)
            raise OrderSyntaxError(ctx.msgs["coast"].format(w=" ".join(words)), ctx.text)
        pid = found[0]
    else:
        found = _split_place(words, ctx.names, ctx.lang)
        if found is None:
            _check_words(words, ctx.msgs, ctx.names, ctx.lang, ctx.text)
            raise OrderSyntaxError(ctx.msgs["coast"].format(w=" ".join(words)), ctx.text)
        pid, coast = found
    return _location(ctx, pid, coast)


def _location(ctx: _Ctx, pid: str, coast: Coast | None) -> Location:
    prov = ctx.game_map.province(pid)
    if coast is None:
        return Location(pid)
    coast = ctx.names.coast_for(pid, coast)
    if not prov.coasts:
        # GM rules II(3): an inaccurate coast never invalidates an order; one-coast
        # provinces have nothing to choose, so the designation is dropped - and noted, for
        # a rule set that refuses it (stabbeurfou 4.B.6).
        if pid not in ctx.dropped:
            ctx.dropped.append(pid)
        return Location(pid)
    if coast not in prov.coasts:
        name = ctx.names.full_name(pid, ctx.lang)
        raise OrderSyntaxError(
            ctx.msgs["no_coast"].format(
                p=name,
                c=ctx.names.coast_name(coast, ctx.lang),
                opts=_coast_options(ctx, pid),
            ),
            ctx.text,
            name,
        )
    return Location(pid, coast)


def _coast_options(ctx: _Ctx, pid: str) -> str:
    prov = ctx.game_map.province(pid)
    abbr = ctx.names.abbreviation(pid, ctx.lang).lower()
    opts = [f"{abbr}/{ctx.names.coast_abbreviation(c, ctx.lang).lower()}" for c in prov.coasts]
    return ctx.msgs["or"].join(opts)


# --- completion with the board -----------------------------------------------------------------


def _board_unit(position: Position | None, pid: str, dislodged_first: bool) -> Unit | None:
    if position is None:
        return None
    if dislodged_first:
        d = position.dislodged_in(pid)
        if d is not None:
            return d.unit
    return position.unit_in(pid)


def _fill_ref(
    ref: UnitRef, position: Position | None, game_map: GameMap, *, own: bool, retreat: bool
) -> tuple[UnitRef, Unit | None]:
    """Fill the type (and, for the ordered unit, its coast and owner) from the board."""
    board = _board_unit(position, ref.province, retreat)
    utype = ref.type
    location = ref.location
    power = ref.power
    if board is not None:
        if utype is None:
            utype = board.type
        if (
            own
            and utype is UnitType.FLEET
            and board.type is UnitType.FLEET
            and location.coast is None
            and board.location.coast is not None
        ):
            location = board.location
        if own and power is None:
            power = board.power
    # With a board, a unit in a sea can only be a fleet and one inland only an army. Without
    # one the type stays as written: interpret.py re-reads orders bare to see what was omitted.
    if utype is None and position is not None and ref.province in game_map.provinces:
        kind = game_map.province(ref.province).kind
        if kind is ProvinceKind.SEA:
            utype = UnitType.FLEET
        elif kind is ProvinceKind.LAND:
            utype = UnitType.ARMY
    if utype is ref.type and location is ref.location and power is ref.power:
        return ref, board  # nothing to fill: no new object (the fast path's usual case)
    return UnitRef(utype, location, power), board


def _fill_dest(ctx: _Ctx, unit: UnitRef, dest: Location) -> Location:
    """A fleet's only reachable coast; two reachable coasts is an error (GM rules II(3)b)."""
    if unit.type is not UnitType.FLEET or dest.coast is not None:
        return dest
    if not ctx.game_map.province(dest.province).coasts:
        return dest
    reach = ctx.game_map.reachable_coasts(unit.location, dest.province)
    if len(reach) == 1:
        return reach[0]
    if len(reach) > 1:
        hinted = ctx.hints.get((unit.province, dest.province))
        if hinted in reach:  # DATC 4.E.2 b: the set says which coast
            return hinted
        name = ctx.names.full_name(dest.province, ctx.lang)
        raise OrderSyntaxError(
            ctx.msgs["two_coasts"].format(p=name, opts=_coast_options(ctx, dest.province)),
            ctx.text,
            name,
        )
    return dest  # not adjacent: the adjudicator rules on it


def _complete(
    order: Order,
    ctx: _Ctx,
    position: Position | None,
    power: Power | None,
    *,
    convoy_word: bool = False,
) -> Order:
    kind = position.phase.kind if position is not None else None
    retreat_phase = kind is PhaseKind.RETREAT
    if not isinstance(order, UnitOrder):
        return dataclasses.replace(order, power=power, source=ctx.text)
    if isinstance(order, Build):
        unit = order.unit
        if unit.type is None:
            prov = ctx.game_map.province(unit.province)
            if prov.kind is ProvinceKind.LAND:
                unit = dataclasses.replace(unit, type=UnitType.ARMY)  # GM rules III(1)
            elif unit.location.coast is not None:
                unit = dataclasses.replace(unit, type=UnitType.FLEET)  # GM rules III(1)
            else:
                name = ctx.names.full_name(unit.province, ctx.lang)
                raise OrderSyntaxError(ctx.msgs["build_type"].format(p=name), ctx.text, name)
        if power is None and position is not None:
            power = position.centers.get(unit.province)
        return Build(power, unit=unit, source=ctx.text, irrelevant_coasts=tuple(ctx.dropped))
    unit, board = _fill_ref(order.unit, position, ctx.game_map, own=True, retreat=retreat_phase)
    if power is None and board is not None:
        power = board.power
    result: Order
    if isinstance(order, Move):
        if convoy_word and (
            unit.type is UnitType.FLEET
            or ctx.game_map.province(unit.province).kind is ProvinceKind.SEA
        ):
            # "NTH C BEL" is a fleet's convoy order without the convoyed army, not a move.
            raise OrderSyntaxError(ctx.msgs["convoy_dest"], ctx.text)
        dest = _fill_dest(ctx, unit, order.dest)
        if retreat_phase:
            result = Retreat(power, unit=unit, dest=dest, source=ctx.text)
        else:
            result = Move(power, unit=unit, dest=dest, via_convoy=order.via_convoy, source=ctx.text)
    elif isinstance(order, Retreat):
        dest = _fill_dest(ctx, unit, order.dest)
        result = Retreat(power, unit=unit, dest=dest, source=ctx.text)
    elif isinstance(order, SupportHold | SupportMove | Convoy):
        # DATC 4.B.4: the coast of a supported or convoyed move is never filled in.
        target, _ = _fill_ref(order.target, position, ctx.game_map, own=False, retreat=False)
        # Constructors, not dataclasses.replace: this runs for every order (issue 18).
        if isinstance(order, SupportHold):
            result = SupportHold(power, unit=unit, target=target, source=ctx.text)
        elif isinstance(order, SupportMove):
            result = SupportMove(power, unit=unit, target=target, dest=order.dest, source=ctx.text)
        else:
            result = Convoy(power, unit=unit, target=target, dest=order.dest, source=ctx.text)
    elif isinstance(order, Hold):
        result = Hold(power, unit=unit, source=ctx.text)
    else:
        result = dataclasses.replace(order, power=power, unit=unit, source=ctx.text)
    if ctx.dropped:  # rare: a coast written where the province has none (DATC 4.B.6)
        result = dataclasses.replace(result, irrelevant_coasts=tuple(ctx.dropped))
    return result
