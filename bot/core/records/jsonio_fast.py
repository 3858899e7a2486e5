"""The POSITION reader and the output writer of bulk runs (`parley adjudicate --jsonl`, issue 18).

A corpus replays thousands of positions in which a power's list of units or centres recurs
from phase to phase; `PositionReader` reads and map-checks each distinct list once and keeps
the result (units are immutable). It reads only well-formed documents: anything else (a
dislodged unit, an unknown key, a bad name, two units in a province...) returns None, and the
caller takes jsonio's `position_from_json` and its map check, whose errors name the place.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from json.encoder import encode_basestring as _q  # the string encoding of ensure_ascii=False
from types import MappingProxyType
from typing import Any, Final

from bot.core.adjudicator.mapindex import MapIndex, map_index
from bot.core.map import GameMap
from bot.core.messages import Message, Name, Prov, render
from bot.core.model import (
    ARMY,
    RETREAT,
    DislodgedUnit,
    Location,
    ModelError,
    Phase,
    Position,
    Power,
    Unit,
    UnitType,
    dislodged_unit,
)
from bot.core.orders import Convoy, Hold, Move, Order, SupportHold, SupportMove, UnitRef
from bot.core.outcome import OrderResult, Outcome, Reason, Verdict
from bot.core.records.jsonio import POSITION_KEYS, _unit, retreat_locations

_ESCAPED: Final = re.compile(r'["\\\x00-\x1f]')
_SEP: Final = '","'  # between the items of a list of plain strings
_SIZE: Final = 100_000  # entries per cache; cleared when full (a bulk run's memory stays bounded)
_KEYS: Final = frozenset(POSITION_KEYS)
# A POSITION's centres as (power name, its list as a tuple, None if not a list) pairs
_CenterKey = tuple[tuple[str, tuple[object, ...] | None], ...]
_Owned = tuple[tuple[str, Power], ...]  # (centre, owner) pairs
_UnitTable = dict[object, tuple[str, Unit]]  # unit text -> (its province, the unit)


def _units_by_text(idx: MapIndex) -> dict[Power, _UnitTable]:
    """The map's units by power and canonical text, as `_one_unit` reads them (a test
    checks): new tables of the index's shared Unit objects."""
    tables: dict[Power, _UnitTable] = {}
    for pid, units in idx.units.items():
        for (power, _, _), unit in units.items():
            tables.setdefault(power, {})[str(unit)] = (pid, unit)
    return tables


class PositionReader:
    """`position_from_json(doc)` plus the map check, for well-formed documents (else None)."""

    def __init__(self, game_map: GameMap) -> None:
        self.game_map = game_map
        self._phases: dict[str, Phase] = {}
        self._powers: dict[str, Power | None] = {}  # a name as read, or None
        # per power name as written: its power and {unit text: (province, unit)}
        self._tables: dict[str, tuple[Power, dict[object, tuple[str, Unit]]]] = {}
        # per power, every unit the map allows by its canonical text ("A PAR", "F STP/SC"):
        # the map index's units (built once per map), where each new reader read each text
        # the first time (`_one_unit`: ~47k instructions, ~20k a bench line; issue 18); this
        # reader's own tables, as other spellings are added to them as met
        self._by_power = _units_by_text(map_index(game_map))
        self._centers: dict[tuple[str, tuple[object, ...] | None], _Owned] = {}
        self._center_maps: dict[_CenterKey, MappingProxyType[str, Power]] = {}
        self._owned: dict[Power, dict[object, tuple[str, Power]]] = {}  # name as written -> pair

    def read(self, doc: object) -> Position | None:
        try:
            return self._read(doc)
        except TypeError:  # an unhashable item in a list: the slow path says what is wrong
            return None

    def _read(self, doc: object) -> Position | None:
        if type(doc) is not dict or not _KEYS.issuperset(doc):
            return None
        text = doc.get("phase")
        phase = self._phases.get(text) if type(text) is str else None
        if phase is None:
            phase = self._phase(text)
            if phase is None:
                return None
        # two units in one province, or a centre owned twice: the slow path says so
        by_prov = self._unit_map(doc.get("units", {}))
        if by_prov is None:
            return None
        centers = self._center_map(doc.get("centers", {}))
        if centers is None:
            return None
        raw_dislodged = doc.get("dislodged", [])
        if not raw_dislodged:
            return Position.adopt(phase, by_prov, centers)
        if phase.kind is not RETREAT or type(raw_dislodged) is not list:
            return None
        dislodged = []
        for d in raw_dislodged:
            waiting = self._dislodged(d)
            if waiting is None:
                return None
            dislodged.append(waiting)
        if len({d.unit.province for d in dislodged}) != len(dislodged):
            return None  # Position.build does not check these: the slow path decides
        return Position.adopt(phase, by_prov, centers, tuple(dislodged))

    def _center_map(self, raw: object) -> MappingProxyType[str, Power] | None:
        """The centres as one read-only mapping per distinct document: ownership changes only
        after a Fall turn, so positions share it (and the writer keeps its text by it)."""
        if type(raw) is not dict:
            return None
        key = tuple([(p, tuple(v) if type(v) is list else None) for p, v in raw.items()])
        found = self._center_maps.get(key)
        if found is None:
            merged = self._merged(key)
            if merged is None:
                return None
            if len(self._center_maps) >= _SIZE:
                self._center_maps.clear()
            found = self._center_maps[key] = MappingProxyType(merged)
        return found

    def _merged(self, key: _CenterKey) -> dict[str, Power] | None:
        """{centre: owner} from the document's (power name, its list) pairs, each pair read
        once (the pairs of `_center_map`'s key are `_centers`' keys: a document read the
        first time makes no tuple again, issue 18); None if anything is amiss or a centre
        comes twice."""
        merged: dict[str, Power] = {}
        given = 0
        cache = self._centers
        for pair in key:
            pairs = cache.get(pair)
            if pairs is None:
                pairs = self._center_list(pair)
                if pairs is None:
                    return None
            given += len(pairs)
            merged.update(pairs)
        return merged if given == len(merged) else None

    def _dislodged(self, d: object) -> DislodgedUnit | None:
        """One unit awaiting retreat, as jsonio reads it, if all is well."""
        if type(d) is not dict:
            return None
        power, unit_text, retreats = (
            self._power(d.get("power")),
            d.get("unit"),
            d.get("retreats", []),
        )
        attacker = d.get("attacker_from", "")
        if power is None or type(unit_text) is not str or type(retreats) is not list:
            return None
        if type(attacker) is not str or not all(type(r) is str for r in retreats):
            return None
        item = self._table(power).get(unit_text) or self._one_unit(power, unit_text)
        if item is None:
            return None
        places = frozenset(r.upper().split("/")[0] for r in retreats)
        attacker = attacker.upper()
        provinces = self.game_map.provinces
        if not all(r in provinces for r in places) or (attacker and attacker not in provinces):
            return None
        return dislodged_unit(item[1], attacker, places)

    def _phase(self, text: object) -> Phase | None:
        if type(text) is not str:
            return None
        try:
            phase = Phase.parse(text)
        except ModelError:
            return None
        if len(self._phases) >= _SIZE:
            self._phases.clear()
        self._phases[text] = phase
        return phase

    def _power(self, name: object) -> Power | None:
        if type(name) is not str:
            return None
        if name in self._powers:
            return self._powers[name]
        try:
            power: Power | None = Power.of(name)
        except ModelError:
            power = None
        if power not in self.game_map.powers:
            power = None
        if len(self._powers) < 1000:  # names, well or badly written
            self._powers[name] = power
        return power

    def _unit_map(self, raw: object) -> dict[str, Unit] | None:
        """{province: unit} from a POSITION's `units`, in the document's order; None if
        anything is amiss or a province comes twice. Each unit text is read once per power."""
        if type(raw) is not dict:
            return None
        merged: dict[str, Unit] = {}
        given = 0
        tables = self._tables
        for pname, items in raw.items():
            entry = tables.get(pname)
            if entry is None:
                entry = self._named(pname)
                if entry is None:
                    return None
            if type(items) is not list:
                return None
            table = entry[1]
            # a plain loop: 40% fewer instructions than update(map(table.__getitem__, ...))
            for text in items:
                item = table.get(text)  # an unhashable text: TypeError, in `read`
                if item is None:
                    item = self._one_unit(entry[0], text)
                    if item is None:
                        return None
                merged[item[0]] = item[1]
            given += len(items)
        return merged if given == len(merged) else None

    def _named(self, pname: str) -> tuple[Power, dict[object, tuple[str, Unit]]] | None:
        power = self._power(pname)
        if power is None:
            return None
        entry = (power, self._table(power))
        if len(self._tables) < 1000:  # names, well or badly written
            self._tables[pname] = entry
        return entry

    def _table(self, power: Power) -> dict[object, tuple[str, Unit]]:
        table = self._by_power.get(power)
        if table is None:
            table = self._by_power[power] = {}
        return table

    def _one_unit(self, power: Power, text: object) -> tuple[str, Unit] | None:
        gm = self.game_map
        try:
            unit = _unit(power, str(text))
        except ModelError:
            return None
        if unit.province not in gm.provinces or not gm.can_occupy(unit.type, unit.location):
            return None
        table = self._table(power)
        if len(table) >= _SIZE:
            table.clear()
        item = table[text] = (unit.province, unit)
        return item

    def _center_list(self, pair: tuple[str, tuple[object, ...] | None]) -> _Owned | None:
        """(centre, owner) for one power's list; a centre twice is left to `_merged`'s count."""
        pname, provs = pair
        if provs is None:  # not a list
            return None
        power = self._power(pname)
        if power is None:
            return None
        table = self._owned.get(power)
        if table is None:
            table = self._owned[power] = {}
        try:
            pairs = tuple(map(table.__getitem__, provs))
        except KeyError:  # a name not read yet: at most one per centre and spelling
            centres = self.game_map.supply_centers
            for p in provs:
                pid = str(p).upper()
                if pid not in centres:
                    return None
                table[p] = (pid, power)
            pairs = tuple(map(table.__getitem__, provs))
        if len(self._centers) >= _SIZE:
            self._centers.clear()
        self._centers[pair] = pairs
        return pairs


# (order, its power, `{"power":...,"order":...`, its usual line: succeeds, no reason)
_Head = tuple[Order, Power | None, str, str]
_SUCCEEDS: Final = Verdict.SUCCEEDS
_NONE: Final = Reason.NONE
# an Enum's class attribute costs ~900 instructions read in a function (issue 18)
# The orders `OutcomeWriter._quoted` writes from their parts (the movement phase's five).
_FROM_PARTS: Final = frozenset({Move, Hold, SupportHold, SupportMove, Convoy})
_TYPES: Final[dict[UnitType | None, str]] = {None: "", **{t: f"{t.value} " for t in UnitType}}


class OutcomeWriter:
    """`parley adjudicate`'s output line, written from fragments: the text that
    `JSONEncoder(ensure_ascii=False, separators=(",", ":"))` makes of `outcome_to_json`'s
    document (with the extra results and notes the CLI adds), byte for byte (a test compares
    them). Each order's and unit's quoted text is made once: the bulk reader hands the same
    order objects out again, the map index the same units and implied holds.

    The caches keyed by `id(x)` keep `x` in their entry: while it is there no other object
    has its id, so a hit is `x` itself."""

    def __init__(self, game_map: GameMap) -> None:
        self.game_map = game_map
        self._dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
        self._heads: dict[int, _Head] = {}
        self._whole: dict[int, tuple[OrderResult, str]] = {}  # implied results: shared
        self._details: dict[tuple[object, ...], str] = {}  # key, names and texts -> text
        self._units: dict[int, tuple[int, str, Unit]] = {}  # id -> its power's rank, text, unit
        # id -> loc, its army's text, its fleet's, its own escaped for JSON
        self._locations: dict[int, tuple[Location, str, str, str]] = {}
        self._refs: dict[int, tuple[UnitRef, str]] = {}  # id -> a UnitRef, its escaped text
        self._center_texts: dict[int, tuple[Mapping[str, Power], str]] = {}
        self._phases: dict[tuple[int, str, str], str] = {}
        self._waiting: dict[tuple[str, str, str, frozenset[str]], str] = {}
        # The powers seen, by rank (the order seen); the ranks in their names' order; the
        # powers' keys by rank (`"FRANCE":["`, or `"FRANCE":[` when items need escaping).
        self._ranks: dict[Power, int] = {}
        self._names: list[Power] = []
        self._order: list[int] = []
        self._keys: list[str] = []
        self._powers: dict[Power | None, str] = {None: '{"power":null,"order":'}
        # Power ids are [A-Z][A-Z0-9_]*; a unit's text and a centre are made of the map's
        # province ids and coasts: when none has a character JSON escapes, none is escaped.
        self._plain = not any(_ESCAPED.search(pid) for pid in game_map.provinces)
        self._usual = f',"outcome":{_q(_SUCCEEDS.value)},"reason":{_q(_NONE.value)}}}'
        self._tails = {
            (v, r): f',"outcome":{_q(v.value)},"reason":{_q(r.value)}'
            for v in Verdict
            for r in Reason
        }
        self._ends = {key: tail + "}" for key, tail in self._tails.items()}

    def text(self, outcome: Outcome, extra: list[dict[str, Any]], notes: list[str]) -> str:
        """The output line (without its newline)."""
        heads, whole, ends = self._heads, self._whole, self._ends
        parts: list[str] = []
        add = parts.append
        for r in outcome.results:
            if r.message is not None or r.note:
                add(self._detailed(r))
            elif r.implied:  # the map index's implied holds: one result object each
                hit = whole.get(id(r))
                add(hit[1] if hit is not None else self._keep(r))
            else:
                head = heads.get(id(r.order))
                if head is None or head[1] is not r.power:
                    head = self._head(r)
                if r.verdict is _SUCCEEDS and r.reason is _NONE:
                    add(head[3])
                else:
                    add(head[2] + ends[r.verdict, r.reason])
        if extra:
            parts += [self._dumps(e) for e in extra]
        end = f',"notes":{self._dumps(notes)}}}' if notes else "}"
        # one f-string: the line's ~3 KB are copied once more, not once per piece
        return (
            f'{{"results":[{",".join(parts)}],"dislodged":{self._dislodged(outcome.dislodged)}'
            f',"position":{self._position(outcome.position)}{end}'
        )

    def _head(self, r: OrderResult) -> _Head:
        """A new head (the caller found none for the order and its power)."""
        order, power = r.order, r.power
        if len(self._heads) >= _SIZE:
            self._heads.clear()
        who = self._powers.get(power)
        if who is None:
            who = f'{{"power":{"null" if power is None else _q(power.value)},"order":'
            self._powers[power] = who
        text = who + self._quoted(order)
        head = self._heads[id(order)] = (order, power, text, text + self._usual)
        return head

    def _quoted(self, order: Order) -> str:
        """`_q(order.canonical())`, from the texts of its unit references and locations: the
        bulk reader's new orders share those objects, and look-ups cost less than canonical()'s
        calls (issue 18: ~8,500 instructions an order). Each part is kept escaped (JSON escapes
        character by character). Exact types only: a subclass may write itself otherwise."""
        kind = type(order)
        if kind not in _FROM_PARTS:
            return _q(order.canonical())
        o: Any = order  # one of _FROM_PARTS: a UnitOrder
        refs, locs = self._refs, self._locations
        head = (refs.get(id(o.unit)) or self._ref(o.unit))[1]
        if kind is Move:
            dest = (locs.get(id(o.dest)) or self._location(o.dest))[3]
            return f'"{head} - {dest} VIA"' if o.via_convoy else f'"{head} - {dest}"'
        if kind is Hold:
            return f'"{head} H"'
        of = (refs.get(id(o.target)) or self._ref(o.target))[1]
        if kind is SupportHold:
            return f'"{head} S {of}"'
        dest = (locs.get(id(o.dest)) or self._location(o.dest))[3]
        return f'"{head} {"S" if kind is SupportMove else "C"} {of} - {dest}"'

    def _ref(self, ref: UnitRef) -> tuple[UnitRef, str]:
        if len(self._refs) >= _SIZE:
            self._refs.clear()
        # `ref.canonical()` escaped, from its location's kept text (a support's or a convoy's
        # target is a new UnitRef at a location the orders share)
        loc = ref.location
        text = (self._locations.get(id(loc)) or self._location(loc))[3]
        hit = self._refs[id(ref)] = (ref, f"{_TYPES[ref.type]}{text}")
        return hit

    def _known(self, r: OrderResult) -> _Head:
        head = self._heads.get(id(r.order))
        return head if head is not None and head[1] is r.power else self._head(r)

    def _keep(self, r: OrderResult) -> str:
        """An implied result's line, kept by the result."""
        if len(self._whole) >= _SIZE:
            self._whole.clear()
        line = f'{self._known(r)[2]}{self._tails[r.verdict, r.reason]},"implied":true}}'
        self._whole[id(r)] = (r, line)
        return line

    def _detailed(self, r: OrderResult) -> str:
        text = self._known(r)[2] + self._tails[r.verdict, r.reason]
        detail = r.note or (self._detail(r.message) if r.message is not None else "")
        if detail:
            text += f',"detail":{_q(detail)}'
        if r.implied:
            text += ',"implied":true'
        return text + "}"

    def _detail(self, message: Message) -> str:
        """`render(message, "en")` (an OrderResult's `detail`), kept by its key and its
        parameters' English texts when all are of the types below: a Message's hash and
        equality are Python calls down to each Location (issue 18: ~25,000 instructions a
        detailed result, ~10,000 now)."""
        key: list[object] = [message.key]
        params: tuple[tuple[str, Any], ...] = message.params
        for name, v in params:
            kind = type(v)
            if kind is Unit:  # str(unit), kept by the unit's id
                text = self._unit_entry(v)[1]
            elif kind is Prov:
                text = v.pid
            elif kind is Name:  # rendered without the map: its English name or its id
                text = v.shown or v.pid
            elif kind is Location:
                text = str(v)
            else:  # a str or an int may equal a Power or a bool that renders otherwise
                return render(message, "en")
            key += (name, text)
        whole = tuple(key)
        hit = self._details.get(whole)
        if hit is None:
            if len(self._details) >= _SIZE:
                self._details.clear()
            hit = self._details[whole] = render(message, "en")
        return hit

    def _dislodged(self, dislodged: tuple[DislodgedUnit, ...]) -> str:
        if not dislodged:
            return "[]"
        return f"[{','.join([self._waiting_text(d) for d in dislodged])}]"

    def _waiting_text(self, d: DislodgedUnit) -> str:
        """`_dislodged_json(d)`'s text, by what determines it (a moved-out unit's text tells
        its type and location, which its fleet's retreat coasts depend on)."""
        unit = d.unit
        key = (unit.power, self._unit_entry(unit)[1], d.attacker_from, d.retreats)
        text = self._waiting.get(key)
        if text is None:
            if len(self._waiting) >= _SIZE:
                self._waiting.clear()
            # `_dumps(_dislodged_json(d, ...))` written out: the encoder's call and the dict
            # cost ~19k instructions a new one, met by half the bench lines (issue 18)
            retreats = ",".join([_q(r) for r in retreat_locations(unit, d.retreats, self.game_map)])
            text = self._waiting[key] = (
                f'{{"power":{_q(unit.power.value)},"unit":{_q(key[1])},'
                f'"attacker_from":{_q(d.attacker_from)},"retreats":[{retreats}]}}'
            )
        return text

    def _position(self, position: Position) -> str:
        # Grouped in one list per power, by its rank (an index: cheaper than a look-up by
        # the Power and a test for a new group, issue 18); a unit's entry keeps its rank.
        units: list[list[str]] = [[] for _ in self._names]
        cache = self._units
        for u in position.units.values():
            hit = cache.get(id(u))
            if hit is None:
                hit = self._unit_entry(u)
                if len(units) < len(self._names):  # a new power
                    units += [[] for _ in range(len(units), len(self._names))]
            units[hit[0]].append(hit[1])
        text = self._lists(units)  # first: a power met later has no list here
        waiting = position.dislodged
        end = f',"dislodged":{self._dislodged(waiting)}}}' if waiting else "}"
        return (
            f'{{"phase":{self._phase(position.phase)},"units":{{{text}}},'
            f'"centers":{{{self._centers(position.centers)}}}{end}'
        )

    def _unit_entry(self, unit: Unit) -> tuple[int, str, Unit]:
        hit = self._units.get(id(unit))
        if hit is None:
            if len(self._units) >= _SIZE:
                self._units.clear()
            power = unit.power
            rank = self._ranks.get(power)
            if rank is None:
                rank = self._rank(power)
            hit = self._units[id(unit)] = (rank, self._unit_text(unit), unit)
        return hit

    def _rank(self, power: Power) -> int:
        """A new power's rank: the next (ranks never change; `_order` sorts them by name)."""
        rank = self._ranks[power] = len(self._names)
        self._names.append(power)
        self._order = sorted(self._ranks.values(), key=self._names.__getitem__)
        # `"FRANCE":["`: Power ids are [A-Z][A-Z0-9_]* (no escape), and a Power's `.value`
        # property costs a call
        self._keys.append(f'"{str.__str__(power)}":["' if self._plain else _q(power) + ":[")
        return rank

    def _unit_text(self, unit: Unit) -> str:
        """`str(unit)`, by its location object: a moved unit is a new object at a location
        that the orders share."""
        loc = unit.location
        hit = self._locations.get(id(loc))
        if hit is None:
            hit = self._location(loc)
        return hit[1] if unit.type is ARMY else hit[2]

    def _location(self, loc: Location) -> tuple[Location, str, str, str]:
        if len(self._locations) >= _SIZE:
            self._locations.clear()
        text = str(loc)
        hit = self._locations[id(loc)] = (loc, f"A {text}", f"F {text}", _q(text)[1:-1])
        return hit

    def _phase(self, phase: Phase) -> str:
        # keyed by its parts: a Phase's hash is a Python-level call (a StrEnum's is str's)
        key = (phase.year, phase.season, phase.kind)
        text = self._phases.get(key)
        if text is None:
            if len(self._phases) >= _SIZE:
                self._phases.clear()
            text = self._phases[key] = _q(str(phase))
        return text

    def _centers(self, centers: Mapping[str, Power]) -> str:
        """The centres' text, kept for the mapping object itself: positions share it while
        ownership does not change (the reader hands out one per distinct list, the
        adjudicator keeps it until a Fall turn)."""
        hit = self._center_texts.get(id(centers))
        if hit is not None:
            return hit[1]
        owners: list[list[str]] = [[] for _ in self._names]
        ranks = self._ranks
        for pid, owner in centers.items():
            rank = ranks.get(owner)
            if rank is None:
                rank = self._rank(owner)
                owners.append([])
            owners[rank].append(pid)
        text = self._lists(owners)
        if len(self._center_texts) >= 64:  # a few live at a time: the last phases'
            self._center_texts.clear()
        self._center_texts[id(centers)] = (centers, text)
        return text

    def _lists(self, by_rank: list[list[str]]) -> str:
        """`"A":["x","y"],"B":[...]` of the powers' lists: keys sorted, each list sorted (as
        position_to_json), empty lists left out."""
        keys = self._keys
        if self._plain:  # nothing to escape: the items are joined between quotes
            return ",".join(
                [keys[i] + _SEP.join(sorted(by_rank[i])) + '"]' for i in self._order if by_rank[i]]
            )
        return ",".join(
            f"{keys[i]}{','.join(_q(x) for x in sorted(by_rank[i]))}]"
            for i in self._order
            if by_rank[i]
        )
