"""The bulk run's position reader and output writer (bot.core.records.jsonio_fast, issue 18): the
same positions as jsonio's reader and map check, the same bytes as the JSON encoder on
`outcome_to_json`, on the corpus sample and on random boards with many supports and convoys."""

from __future__ import annotations

import functools
import gzip
import json
import random
from typing import Any

import pytest

from bench.adjudicate import random_orders, random_position
from bot.core.adjudicator.mapindex import map_index
from bot.core.language.interpret import adjudicate_interpreted
from bot.core.language.parser import OrderSyntaxError, parse_order
from bot.core.map import load_map
from bot.core.messages import Message, Name, Prov, render
from bot.core.model import (
    Coast,
    DislodgedUnit,
    Location,
    Phase,
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
    Retreat,
    SupportHold,
    SupportMove,
    UnitRef,
    Waive,
)
from bot.core.presets import load_rules
from bot.core.records.jsonio import outcome_to_json, position_from_json, position_to_json
from bot.core.records.jsonio_fast import OutcomeWriter, PositionReader
from tests.shared import CORPUS

GM = load_map("standard")
DUMPS = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


@functools.cache
def _records() -> list[dict[str, Any]]:
    """The sample's records, read once a process and only where a test here runs (not in
    every xdist worker that imports this module to collect it)."""
    with gzip.open(CORPUS, "rt", encoding="utf-8") as fh:
        return [json.loads(line) for line in fh]


def test_reader_reads_every_sample_position_as_jsonio_does() -> None:
    reader = PositionReader(GM)
    for rec in _records():
        doc = rec["position"]
        got = reader.read(doc)
        assert got is not None
        want = position_from_json(doc, GM)
        assert got == want
        assert list(got.units) == list(want.units)  # board order kept (results follow it)
        assert list(got.centers) == list(want.centers)
    assert any(rec["position"].get("dislodged") for rec in _records())


@pytest.mark.parametrize(
    "doc",
    [
        {"units": {"FRANCE": ["A PAR"]}},  # no phase
        {"phase": "X1901M"},
        {"phase": "S1901M", "ordres": {}},  # unknown key
        {"phase": "S1901M", "units": {"FRANCE": ["A PAR"], "france": ["A PAR"]}},
        {"phase": "S1901M", "units": {"FRANCE": ["A PAR", "F PAR"]}},
        {"phase": "S1901M", "units": {"FRANCE": ["A PAR", "A PAR"]}},
        {"phase": "S1901M", "units": {"FRANCE": ["A PAR"], "ITALY": ["A PAR"]}},
        {"phase": "S1901M", "units": {"FRANCE": ["F PAR"]}},  # a fleet inland
        {"phase": "S1901M", "units": {"FRANCE": ["F SPA"]}},  # no coast
        {"phase": "S1901M", "units": {"FRANCE": ["A XYZ"]}},
        {"phase": "S1901M", "units": {"NARNIA": ["A PAR"]}},
        {"phase": "S1901M", "units": {"FRANCE": [["A PAR"]]}},  # unhashable
        {"phase": "S1901M", "units": {"FRANCE": "A PAR"}},
        {"phase": "S1901M", "centers": {"FRANCE": ["PAR"], "france": ["PAR"]}},
        {"phase": "S1901M", "centers": {"FRANCE": ["PAR", "PAR"]}},
        {"phase": "S1901M", "centers": {"FRANCE": ["BUR"]}},  # not a centre
        {"phase": "S1901M", "centers": {"FRANCE": ["PAR"], "GERMANY": ["PAR"]}},
        {"phase": "S1901M", "centers": {"FRANCE": "PAR"}},  # not a list
        {"phase": "S1901M", "centers": {"FRANCE": [["PAR"]]}},  # unhashable
        {"phase": "S1901M", "centers": {"NARNIA": ["PAR"]}},
        {"phase": "F1901M", "dislodged": [{"power": "FRANCE", "unit": "A PAR"}]},
        {"phase": "F1901R", "dislodged": [{"power": "FRANCE", "unit": "A PAR", "retreats": 1}]},
        {"phase": "F1901R", "dislodged": [{"power": "FRANCE", "unit": "F PAR"}]},
        {
            "phase": "F1901R",
            "dislodged": [{"power": "FRANCE", "unit": "A PAR", "retreats": ["XY"]}],
        },
        {
            "phase": "F1901R",
            "dislodged": [{"power": "FRANCE", "unit": "A PAR", "attacker_from": 5}],
        },
        {"phase": "F1901R", "dislodged": [{"power": "NARNIA", "unit": "A PAR"}]},
        {"phase": "F1901R", "dislodged": {"power": "FRANCE", "unit": "A PAR"}},
        ["S1901M"],
    ],
)
def test_reader_leaves_anything_unusual_to_jsonio(doc: object) -> None:
    # None: the caller reads it with position_from_json, whose error names the place
    assert PositionReader(GM).read(doc) is None


def test_reader_keeps_what_it_read_apart_per_list() -> None:
    reader = PositionReader(GM)
    first = reader.read({"phase": "S1901M", "units": {"FRANCE": ["A PAR"]}})
    second = reader.read({"phase": "F1901M", "units": {"FRANCE": ["A PAR", "A BUR"]}})
    assert first is not None
    assert second is not None
    assert position_to_json(first)["units"] == {"FRANCE": ["A PAR"]}
    assert position_to_json(second) == {
        "phase": "F1901M",
        "units": {"FRANCE": ["A BUR", "A PAR"]},
        "centers": {},
    }


@pytest.mark.parametrize("name", ["standard", "sandard"])
def test_reader_holds_each_unit_of_the_map_as_one_read_the_first_time_would(name: str) -> None:
    """The units made once per map are `_one_unit`'s, and every text that it reads as
    canonical ("A PAR", "F STP/SC") is there: none is left to be read again."""
    gm = load_map(name)
    tables = PositionReader(gm)._by_power
    fresh = PositionReader(gm)
    # each reader its own tables (it adds the spellings it meets), of the map's own units
    assert fresh._by_power == tables
    assert all(fresh._by_power[p] is not t for p, t in tables.items())
    idx = map_index(gm)
    for power, table in tables.items():
        for pid, u in table.values():
            assert idx.units[pid][power, u.type, u.location.coast] is u
    assert set(tables) == set(gm.powers)
    coasts = ["", *(f"/{c.value}" for c in Coast)]
    for power, table in tables.items():
        met = 0
        for pid in gm.provinces:
            for text in [f"{t} {pid}{c}" for t in "AF" for c in coasts]:
                fresh._by_power = {}  # as a reader read it the first time
                read = fresh._one_unit(power, text)
                assert table.get(text) == read, (power, text)
                met += read is not None
        assert met == len(table)


def test_reader_reads_names_in_any_case_as_jsonio_does() -> None:
    reader = PositionReader(GM)
    docs: list[dict[str, Any]] = [
        {"phase": "S1901M", "units": {"FRANCE": ["A PAR"]}, "centers": {"FRANCE": ["PAR"]}},
        {"phase": "S1901M", "units": {"france": ["a par"]}, "centers": {"france": ["par"]}},
        {"phase": "S1901M", "units": {"France": ["A PAR", "f bre"]}, "centers": {"ITALY": ["par"]}},
    ]
    for doc in docs:
        got = reader.read(doc)
        assert got == position_from_json(doc, GM)
        assert got is not None
        assert list(got.units) == list(position_from_json(doc, GM).units)


def test_reader_shares_the_centres_of_equal_documents_only() -> None:
    reader = PositionReader(GM)
    centers = {"FRANCE": ["PAR", "BRE"], "ITALY": ["ROM"]}
    a = reader.read({"phase": "S1901M", "units": {}, "centers": centers})
    b = reader.read({"phase": "F1901M", "units": {"ITALY": ["A ROM"]}, "centers": dict(centers)})
    c = reader.read({"phase": "F1901M", "centers": {"FRANCE": ["PAR"], "ITALY": ["ROM", "BRE"]}})
    assert a is not None
    assert b is not None
    assert c is not None
    assert a.centers is b.centers  # the writer keeps the text by this mapping
    assert dict(c.centers) == {"PAR": "FRANCE", "ROM": "ITALY", "BRE": "ITALY"}
    writer = OutcomeWriter(GM)
    texts = [writer._centers(p.centers) for p in (a, b, c, a)]
    assert texts[0] == texts[1] == texts[3] == '"FRANCE":["BRE","PAR"],"ITALY":["ROM"]'
    assert texts[2] == '"FRANCE":["PAR"],"ITALY":["BRE","ROM"]'


def _writer_cases() -> list[tuple[Any, list[Any]]]:
    """(position, orders) of every sample record, then of seeded random boards."""
    cases: list[tuple[Any, list[Any]]] = []
    for rec in _records():
        pos = position_from_json(rec["position"], GM)
        orders = []
        for pname, texts in rec.get("orders", {}).items():
            power = GM.parse_power(pname)
            for text in texts:
                try:
                    orders.append(parse_order(text, power=power, position=pos, game_map=GM))
                except OrderSyntaxError:
                    continue
        cases.append((pos, orders))
    rng, idx = random.Random(18), map_index(GM)
    for _ in range(300):
        pos = random_position(rng, GM, 28)
        cases.append((pos, random_orders(rng, pos, idx)))
    return cases


def _extra() -> list[dict[str, str]]:
    return [{"power": "FRANCE", "order": "é?", "outcome": "fails", "reason": "illegal"}]


@pytest.fixture(scope="module")
def writer_expected() -> tuple[list[tuple[Any, list[str], str]], set[str]]:
    """Each case's outcome, notes and the encoder's bytes, and the kinds the cases cover:
    adjudicated and encoded once for the module (both writer paths below compare with them)."""
    rules = load_rules("datc")
    expected: list[tuple[Any, list[str], str]] = []
    kinds: set[str] = set()
    for i, (pos, orders) in enumerate(_writer_cases()):
        outcome, decisions = adjudicate_interpreted(pos, orders, rules, GM)
        # the datc preset makes no notes: some are made up, with text to escape
        notes = [d.text for d in decisions if not d.dropped] or ['« A PAR » read "\\"'] * (i % 2)
        want = outcome_to_json(outcome, GM)
        want["results"] += _extra()
        if notes:
            want["notes"] = notes
            kinds.add("notes")
        kinds |= {r.reason.value for r in outcome.results if r.detail}
        kinds |= {"dislodged"} if outcome.dislodged else set()
        kinds |= {"waiting"} if outcome.position.dislodged else set()
        kinds |= {"implied"} if any(r.implied for r in outcome.results) else set()
        expected.append((outcome, notes, DUMPS(want)))
    return expected, kinds


@pytest.mark.parametrize("plain", [True, False])
def test_writer_writes_the_encoders_bytes(
    plain: bool, writer_expected: tuple[list[tuple[Any, list[str], str]], set[str]]
) -> None:
    expected, kinds = writer_expected
    writer = OutcomeWriter(GM)
    assert writer._plain  # the standard map's ids need no escaping ...
    writer._plain = plain  # ... and the path for a map whose ids would is checked too
    for outcome, notes, want in expected:
        assert writer.text(outcome, _extra(), notes) == want
    # the cases cover details, both dislodged lists, implied orders and notes
    assert {"dislodged", "waiting", "implied", "notes", "illegal", "void", "cut"} <= kinds


def test_writer_keeps_details_by_the_texts_their_parameters_render_as() -> None:
    writer = OutcomeWriter(GM)
    # equal messages (a Power is a str, True == 1) whose texts differ: never one for the other
    as_power = Message("build.only", (("power", Power.FRANCE), ("n", 1)))
    as_text = Message("build.only", (("power", "FRANCE"), ("n", True)))
    assert as_power == as_text
    assert writer._detail(as_power) == render(as_power, "en") == "France may build only 1"
    assert writer._detail(as_text) == render(as_text, "en") == "FRANCE may build only True"
    unit = Unit(Power.FRANCE, UnitType.ARMY, Location("PAR"))
    cut = Message("result.cut_by_from", (("unit", unit), ("origin", Prov("BUR"))))
    assert writer._detail(cut) == render(cut, "en")
    # kept by the parameters' texts: Units and Provs only
    assert writer._details == {
        ("result.cut_by_from", "unit", "A PAR", "origin", "BUR"): render(cut, "en")
    }
    # a Name renders as its English name if it has one, else its id; a Location with its coast
    for shown in ("", "Burgundy"):
        via = Message(
            "illegal.no_route_via",
            (("here", Name("BUR", shown)), ("src", Name("PAR")), ("place", Name("MAR", shown))),
        )
        assert writer._detail(via) == render(via, "en")
    coast = Message(
        "void.other_coast",
        (("place", Location("STP", Coast.NORTH)), ("written", Location("STP", Coast.SOUTH))),
    )
    assert writer._detail(coast) == render(coast, "en") == writer._detail(coast)


def test_writer_writes_each_order_as_its_canonical_text() -> None:
    """`_quoted` builds an order's text from its parts' kept texts: equal to the encoded
    `canonical()` for every kind, with or without a type, a coast or characters to escape,
    while the parts are new objects whose ids recur (a wrong hit would show)."""
    writer = OutcomeWriter(GM)
    rng = random.Random(18)
    names = [*list(GM.provinces)[:20], 'P"R', "L\\N", "T\tX"]
    types = [UnitType.ARMY, UnitType.FLEET, None]

    def loc() -> Location:
        return Location(rng.choice(names), rng.choice([None, *Coast]))

    def ref() -> UnitRef:
        return UnitRef(rng.choice(types), loc(), rng.choice([None, Power.FRANCE]))

    kinds: set[type] = set()
    for _ in range(3000):
        power = rng.choice([None, Power.ITALY])
        order = rng.choice(
            [
                Hold(power, ref()),
                Move(power, ref(), loc(), rng.random() < 0.5),
                SupportHold(power, ref(), ref()),
                SupportMove(power, ref(), ref(), loc()),
                Convoy(power, ref(), ref(), loc()),
                Retreat(power, ref(), loc()),
                Disband(power, ref()),
                Build(power, ref()),
                Waive(power),
            ]
        )
        kinds.add(type(order))
        assert writer._quoted(order) == DUMPS(order.canonical())
    assert len(kinds) == 9


@pytest.mark.parametrize("plain", [True, False])
def test_writer_groups_by_power_whatever_order_it_meets_the_powers_in(plain: bool) -> None:
    """The writer numbers powers as it meets them and its unit entries keep the number: on
    boards whose powers come in any order, one first met among the units after others were
    grouped, only as a centre's owner or a dislodged unit's, it groups and sorts as
    position_to_json does."""
    writer = OutcomeWriter(GM)
    writer._plain = plain
    rng = random.Random(18)
    names = ["ZED", "FRANCE", "AAA", "ITALY", "FRANCEX", "B_1", "FRANCE_", "Q"]
    provinces = sorted(GM.provinces)
    phase = Phase.parse("S1901M")
    kept: list[Unit] = [Unit(Power("ZED"), UnitType.ARMY, Location("PAR"))]
    for i in range(300):
        powers = [Power(n) for n in names[: 2 + i // 40]]  # a new power every 40 boards
        rng.shuffle(powers)
        units = [*kept] if i % 2 else []  # unit objects met before (their entries kept)
        for pid in rng.sample(provinces, rng.randrange(0, 12)):
            if all(u.province != pid for u in units):
                units.append(Unit(rng.choice(powers), rng.choice([*UnitType]), Location(pid)))
        rng.shuffle(units)
        centers = {pid: rng.choice(powers) for pid in rng.sample(provinces, rng.randrange(8))}
        # a power met only in a dislodged army (armies: its retreats are its provinces)
        where = rng.choice([p for p in provinces if all(u.province != p for u in units)])
        army = Unit(Power(f"GONE{i}"), UnitType.ARMY, Location(where))
        dislodged = [DislodgedUnit(army, "BUR", frozenset(["PAR", "GAS"]))] * (i % 3 == 0)
        position = Position.build(phase, units, centers, dislodged)
        assert writer._position(position) == DUMPS(position_to_json(position))
        kept = units[:3]
