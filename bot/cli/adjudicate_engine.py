"""The engine behind `parley adjudicate`: `Engine` (map, rules and parser loaded once; one
document in, its results out) and `run_jsonl`, which answers a stream of --jsonl lines with it.

It is the batch hot path (compiled: setup.py's NATIVE_MODULES). It is apart from the command
(adjudicate.py), which picks Stab!'s engine (stab.py) and the --jobs workers
(adjudicate_jobs.py): those build on this module, so it must import none of them (issue 33: no
import circle)."""

from __future__ import annotations

import gc
import json
from collections.abc import Callable, Iterable, Mapping
from typing import IO, Any, Final, TypeVar

from bot.core.compiled.native import mypyc_attr
from bot.core.map import GameMap
from bot.core.model import (
    MOVEMENT,
    ModelError,
    Position,
    Power,
    Unit,
)
from bot.core.orders import (
    Convoy,
    Hold,
    Move,
    Order,
    SupportHold,
    SupportMove,
)
from bot.core.outcome import Outcome
from bot.core.records.jsonio import (
    FormatError,
    occupy_error,
    outcome_to_json,
    position_from_json,
    unknown_key,
)
from bot.core.records.jsonio_fast import OutcomeWriter, PositionReader
from bot.core.rules import RuleSet

_CACHE_SIZE: Final = 200_000
_T = TypeVar("_T")
_FREEZE_EVERY: Final = 1000
_dumps: Final = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
_TARGETED: Final = (SupportHold, SupportMove, Convoy)
_BOARD_READ: Final = (Hold, Move, *_TARGETED)


class InputError(ValueError):
    """A document the user can fix: the message says what is wrong and where."""


# bot/cli/stab.py's StabEngine (interpreted) and tests subclass it (the native spike).
@mypyc_attr(allow_interpreted_subclasses=True)
class Engine:
    """Map, rules and parser loaded once; `run(doc)` adjudicates one input document."""

    def __init__(self, rules: RuleSet, game_map: GameMap) -> None:
        # Imported here so that `parley --help` works while these modules are being written.
        from bot.core.language.bulk import BulkReader  # noqa: PLC0415
        from bot.core.language.interpret import adjudicate_interpreted  # noqa: PLC0415
        from bot.core.language.parser import OrderSyntaxError  # noqa: PLC0415

        self.rules = rules
        self.game_map = game_map
        self._run_phase = adjudicate_interpreted
        self._syntax_error: type[Exception] = OrderSyntaxError
        # Each distinct order text is read once (bulk runs repeat the same texts thousands
        # of times) and completed with each phase's board: parse_order's result exactly.
        self._centers = game_map.supply_centers
        self._reader = BulkReader(game_map, size=_CACHE_SIZE)
        # Completed movement orders by (text, power), with the board units they were completed
        # from: an order is immutable, so the next phase with the same units there reuses it.
        self._done: dict[tuple[str, Power], tuple[Order, str, Unit | None, str, Unit | None]] = {}
        self._given: set[int] = set()  # ids of the orders handed out for the current phase
        self._powers: dict[str, Power] = {}  # the power each name read as
        self._positions = PositionReader(game_map)
        self._writer = OutcomeWriter(game_map)
        # A subclass with its own `run` (Stab!'s reports) writes its documents as they are.
        self._writes_text = type(self).run is Engine.run

    def parse(self, text: str, power: Power, position: Position) -> Order:
        """`parse_order(text, power=power, position=position)`, each distinct text read once.

        In a movement phase the order completed with the board (parse_order's `_complete`
        reads only the units in the ordered unit's and the target's provinces) is kept and
        reused while those two units are the same; within one phase each call still gets its
        own object, as the adjudicator tells repeated orders apart by identity."""
        canonical = self._reader.canonical(text, power, position, self._given)
        if canonical is not None:  # `read` asks this first itself
            return canonical
        if position.phase.kind is not MOVEMENT:
            return self._reader.parse(text, power=power, position=position)
        units = position.units
        hit = self._done.get((text, power))
        if hit is not None:
            order, p1, u1, p2, u2 = hit
            b1, b2 = units.get(p1), units.get(p2) if p2 else None
            # `is`: the units come from jsonio's cache; an equal copy only costs a re-read
            if b1 is u1 and b2 is u2 and id(order) not in self._given:
                self._given.add(id(order))
                return order
        order = self._reader.parse(text, power=power, position=position)
        if isinstance(order, _BOARD_READ):
            p1 = order.unit.province
            p2 = order.target.province if isinstance(order, _TARGETED) else ""
            if len(self._done) >= _CACHE_SIZE:
                self._done.clear()
            self._done[text, power] = (order, p1, units.get(p1), p2, units.get(p2))
            self._given.add(id(order))
        return order

    # --- input -------------------------------------------------------------------------

    def _power(self, name: object, where: str) -> Power:
        power = self._powers.get(name) if isinstance(name, str) else None
        if power is None:
            power = self._powers[name] = self._read_power(name, where)  # type: ignore[index]
        return power

    def _read_power(self, name: object, where: str) -> Power:
        if not isinstance(name, str):
            raise InputError(f"{where}: a power name must be a string, not {name!r}")
        try:
            power = self.game_map.parse_power(name)
        except ModelError:
            raise InputError(f"{where}: unknown power {name!r}") from None
        if power not in self.game_map.powers:
            raise InputError(f"{where}: {power.value} does not play on this map")
        return power

    def read(self, doc: object) -> tuple[Position, list[Order], list[tuple[Power, str, str]]]:
        """The position, the parsed orders, and (power, text, message) for unparsable texts."""
        # `type(x) is dict` first: json.loads makes dicts, and an ABC check costs more
        if type(doc) is not dict and not isinstance(doc, Mapping):
            raise InputError('expected a JSON object {"position": ..., "orders": ...}')
        if "position" not in doc:
            if "phase" in doc:  # a bare POSITION, as `parley parse --position` takes
                raise InputError(
                    'missing "position": this file is a POSITION; adjudicate takes'
                    ' {"position": POSITION, "orders": {"FRANCE": ["A PAR - BUR"], ...}}'
                )
            raise InputError('missing "position"')
        # Other fields pass (a corpus record's own, "orders_raw"...) beside "orders"; without
        # it, a key such as "ordres" is the player's orders, not a silent all-hold.
        bad = None if "orders" in doc else unknown_key(doc, ("position", "orders"), "input")
        if bad is not None:
            raise InputError(bad)
        position = self._positions.read(doc["position"])
        if position is None:  # not in the reader's cache's shape: read it here, errors named
            try:
                position = position_from_json(doc["position"])
            except FormatError as exc:
                raise InputError(str(exc)) from None
            self._check_position(position)
        raw_orders = doc.get("orders", {})
        if type(raw_orders) is not dict and not isinstance(raw_orders, Mapping):
            raise InputError('"orders": expected an object of power -> list of orders')
        orders: list[Order] = []
        unparsed: list[tuple[Power, str, str]] = []
        seen: set[Power] = set()
        given = self._given
        given.clear()
        canonical = self._reader.canonical  # most texts: read without a call more (issue 18)
        moves = self._reader.moves if position.phase.kind is MOVEMENT else None
        board = position.units.get
        for pname, texts in raw_orders.items():
            power = self._power(pname, "orders")
            if power in seen:
                raise InputError(f"orders: {power.value} is given twice")
            seen.add(power)
            if not isinstance(texts, list):
                raise InputError(f"orders.{pname}: expected a list of order strings")
            # The order handed out last time for this text while the board's unit it read
            # is the same object: `canonical`'s answer in one look-up (issue 18). Only when no
            # text repeats in the list: no order object serves two (text, power) pairs, so
            # none is handed out twice in the phase without `given`.
            done = moves(power).get if moves is not None and _distinct(texts) else None
            for text in texts:
                if done is not None:
                    hit = done(text)
                    if hit is not None and board(hit[0]) is hit[1]:
                        orders.append(hit[2])
                        continue
                if not isinstance(text, str):
                    raise InputError(f"orders.{pname}: expected a list of order strings")
                order = canonical(text, power, position, given)
                if order is not None:
                    orders.append(order)
                    continue
                try:
                    orders.append(self.parse(text, power, position))
                except self._syntax_error as unread:  # not `exc`: mypyc types it FormatError
                    unparsed.append((power, text, str(getattr(unread, "message", unread))))
        return position, orders, unparsed

    def _check_position(self, position: Position) -> None:
        """jsonio's map check, with the map's sets computed once (bulk runs call it per line)."""
        gm = self.game_map
        for power in position.powers():
            if power not in gm.powers:
                raise InputError(f"position: unknown power {power.value!r} on map {gm.name}")
        for u in [*position.units.values(), *(d.unit for d in position.dislodged)]:
            if u.province not in gm.provinces:
                raise InputError(f"position: unknown province {u.province!r} in unit {u}")
            if not gm.can_occupy(u.type, u.location):
                raise InputError(f"position: {occupy_error(u, gm)}")
        for pid in position.centers:
            if pid not in self._centers:
                raise InputError(f"position.centers: {pid} is not a supply centre")
        for d in position.dislodged:
            for r in (*d.retreats, *([d.attacker_from] if d.attacker_from else [])):
                if r not in gm.provinces:
                    raise InputError(f"position.dislodged: unknown province {r!r}")

    # --- adjudication --------------------------------------------------------------------

    def run(self, doc: object) -> dict[str, Any]:
        return self.run_phase(doc)[0]

    def adjudicated(self, doc: object) -> tuple[Position, Outcome, list[dict[str, Any]], list[str]]:
        """The position, its outcome, the result lines of the texts that are not orders at
        all, and the interpretation's notes."""
        position, orders, unparsed = self.read(doc)
        outcome, decisions = self._run_phase(position, orders, self.rules, self.game_map)
        # Texts that are not orders at all still get a result line: nothing is lost silently.
        extra = [
            {
                "power": p.value,
                "order": text,
                "outcome": "fails",
                "reason": "illegal",
                "detail": f"not understood: {msg}",
            }
            for p, text, msg in unparsed
        ]
        return position, outcome, extra, [d.text for d in decisions if not d.dropped]

    def run_phase(self, doc: object) -> tuple[dict[str, Any], Position, Outcome]:
        """The output document, with the position and outcome it came from."""
        position, outcome, extra, notes = self.adjudicated(doc)
        out = outcome_to_json(outcome, self.game_map)
        out["results"] += extra
        if notes:
            out["notes"] = notes
        return out, position, outcome

    def _guarded(self, line: str, answer: Callable[[object], _T]) -> _T | dict[str, Any]:
        """`answer(document)` for one --jsonl line, or {"error": ...}."""
        try:
            doc = json.loads(line)
        except json.JSONDecodeError as exc:
            return {"error": f"not valid JSON: {exc}"}
        try:
            return answer(doc)
        except InputError as exc:
            return {"error": str(exc)}
        except Exception as exc:  # noqa: BLE001 - one bad record must not stop a bulk run
            return {"error": f"internal error: {type(exc).__name__}: {exc}"}

    def run_line(self, line: str) -> dict[str, Any]:
        """One --jsonl line: its output document, or {"error": ...}."""
        return self._guarded(line, self.run)

    def line_text(self, line: str) -> tuple[str, bool]:
        """One --jsonl line's output text (the encoding of `run_line`'s document, written
        from fragments when `run` is this class's own), and whether it is an error line."""
        out = self._guarded(line, self._text) if self._writes_text else self.run_line(line)
        if isinstance(out, str):
            return out, False
        return _dumps(out), "error" in out

    def _text(self, doc: object) -> str:
        _, outcome, extra, notes = self.adjudicated(doc)
        return self._writer.text(outcome, extra, notes)


def _distinct(texts: list[Any]) -> bool:
    """No text twice in the list (False too if an item is unhashable: the slow path says so)."""
    try:
        return len(set(texts)) == len(texts)
    except TypeError:
        return False


def _answer(engine: Engine, number: int, raw: str | bytes) -> tuple[str, bool]:
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            return _dumps({"error": f"line {number} is not UTF-8 text"}), True
    line = raw.strip()
    return engine.line_text(line) if line else (_dumps({"error": "empty line"}), True)


def run_jsonl(engine: Engine, lines: Iterable[str | bytes], out: IO[str], start: int = 1) -> int:
    """Answer every line (text, or bytes read as UTF-8), numbered from `start` in error
    messages; returns the number of error lines."""
    errors = 0
    # The collector runs here, between lines, not on its own: the engine's caches grow to
    # ~10^5 long-lived objects that its automatic passes walk again and again (~8% of a bench
    # line). Every _FREEZE_EVERY lines the youngest generation (all that the lines made since
    # the last time: nothing is promoted while paused) is collected, freeing the few cycles
    # a line leaves, and what lives on is frozen: each object is walked about once.
    paused = gc.isenabled()
    gc.disable()
    try:
        for number, raw in enumerate(lines, start):
            if number % _FREEZE_EVERY == 1:
                _tidy()
            text, bad = _answer(engine, number, raw)
            errors += bad
            out.write(text)
            out.write("\n")
    finally:
        _tidy()  # else the collector's first pass would walk all the lines left
        if paused:
            gc.enable()
    return errors


def _tidy() -> None:
    gc.collect(0)
    gc.freeze()
