"""The interpretation step under each preset, driving the real parser and adjudicator."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.core.adjudicator.legality import as_given
from bot.core.adjudicator.mapindex import map_index
from bot.core.adjudicator.random_phases import random_orders, random_position
from bot.core.language.interpret import DecisionKind
from bot.core.map import load_map
from bot.core.model import Coast, DislodgedUnit, Location, Phase, Position, Power, Unit, UnitType
from bot.core.orders import Convoy, Order, SupportHold, SupportMove, UnitOrder
from bot.core.outcome import OrderResult, Reason, Verdict
from bot.core.presets import list_presets, load_rules
from bot.core.rules import RuleSet
from tests.standard import (
    adjudicate,
    adjudicate_interpreted,
    check_submission,
    interpret,
    parse_order,
)

MAP = load_map("standard")
DATC = load_rules("datc")
EDC = load_rules("edc2023")
WM = load_rules("world-masters")
HOUSE = load_rules("house")
SF = load_rules("stabbeurfou")


def board(units: dict[Power, list[str]], phase: str = "S1901M", centers=None) -> Position:
    us = [Unit.parse(p, t) for p, ts in units.items() for t in ts]
    owned = {c: p for p, cs in (centers or {}).items() for c in cs}
    return Position.build(Phase.parse(phase), us, owned)


def read(position: Position, given: dict[Power, list[str]]) -> list[Order]:
    return [
        parse_order(t, power=p, position=position, game_map=MAP)
        for p, texts in given.items()
        for t in texts
    ]


def play(position, given, rules):
    orders = read(position, given)
    it = interpret(position, orders, rules, MAP)
    outcome = adjudicate(position, list(it.orders), rules, MAP)
    units = sorted(str(u) for u in outcome.position.units.values())
    return it, units


# --- EDC section E: several orders to one unit ----------------------------------------------


def test_edc_several_orders_civil_disorder_even_if_one_is_invalid():
    # edc-2023 E: "A unit receiving several different orders will be considered civil
    # disorder, even if some of the orders were invalid." (A PAR - MUN is illegal.)
    pos = board({Power.FRANCE: ["A PAR"]})
    given = {Power.FRANCE: ["A PAR - BUR", "A PAR - MUN"]}
    it, units = play(pos, given, EDC)
    assert units == ["A PAR"]
    assert [d.kind for d in it.decisions] == [DecisionKind.CIVIL_DISORDER] * 2
    assert all(d.dropped for d in it.decisions)
    assert "civil disorder" in it.decisions[0].text
    # DATC 4.D.3: illegal orders are ignored first (4.E.1), so the legal move is made.
    _, units = play(pos, given, DATC)
    assert units == ["A BUR"]


def test_edc_unit_in_civil_disorder_can_be_supported_in_defence():
    # edc-2023 E: "A unit without orders ... will be considered to be in civil disorder. It
    # can be supported in defense." Here A PAR is in disorder through two orders.
    pos = board({Power.FRANCE: ["A PAR", "A PIC"], Power.GERMANY: ["A BUR", "A GAS"]})
    given = {
        Power.FRANCE: ["A PAR - BRE", "A PAR - GAS", "A PIC S A PAR"],
        Power.GERMANY: ["A BUR - PAR", "A GAS S A BUR - PAR"],
    }
    _, units = play(pos, given, EDC)
    assert "A PAR" in units
    assert "A BUR" in units


def test_edc_same_order_twice_is_one_order():
    pos = board({Power.FRANCE: ["A PAR"]})
    it, units = play(pos, {Power.FRANCE: ["A PAR - BUR", "A PAR - BUR"]}, EDC)
    assert units == ["A BUR"]
    assert not [d for d in it.decisions if d.kind is DecisionKind.CIVIL_DISORDER]


# --- EDC section E: inferred orders -----------------------------------------------------------


def test_edc_move_inferred_from_own_convoy_order():
    # edc-2023 E: "Example: A BRE and F ATL C BRE – POR" (A BRE is incomplete: no order).
    pos = board({Power.FRANCE: ["A BRE", "F MAO"]})
    given = {Power.FRANCE: ["F MAO C A BRE - POR"]}
    it, units = play(pos, given, EDC)
    assert units == ["A POR", "F MAO"]
    inferred = [d for d in it.decisions if d.kind is DecisionKind.INFERRED]
    assert len(inferred) == 1
    assert inferred[0].used is not None
    assert inferred[0].used.canonical() == "A BRE - POR"
    # DATC 4.E.3 b: implicit orders are not allowed; the army holds.
    _, units = play(pos, given, DATC)
    assert units == ["A BRE", "F MAO"]


def test_edc_move_inferred_from_own_support_order():
    pos = board({Power.FRANCE: ["A PAR", "A MAR"], Power.GERMANY: ["A MUN"]})
    given = {Power.FRANCE: ["A MAR S A PAR - BUR"], Power.GERMANY: ["A MUN - BUR"]}
    _, units = play(pos, given, EDC)
    assert "A BUR" in units
    assert "A PAR" not in units


def test_never_inferred_from_another_powers_orders():
    # edc-2023 E: "written for another unit of the same nationality" (and 4.E.3 a).
    pos = board({Power.FRANCE: ["A PAR"], Power.GERMANY: ["A MUN"]})
    it, units = play(pos, {Power.GERMANY: ["A MUN S A PAR - BUR"]}, EDC)
    assert "A PAR" in units
    assert not it.decisions


def test_edc_convoy_inferred_when_it_is_the_only_fleet_that_makes_it_possible():
    # edc-2023 E: "Example: A BRE – POR and F ATL C BRE" (the convoy order is incomplete).
    pos = board({Power.FRANCE: ["A BRE", "F MAO"]})
    given = {Power.FRANCE: ["A BRE - POR"]}
    it, units = play(pos, given, EDC)
    assert units == ["A POR", "F MAO"]
    assert [d.used.canonical() for d in it.decisions if d.used] == ["F MAO C A BRE - POR"]
    _, units = play(pos, given, DATC)
    assert units == ["A BRE", "F MAO"]


def test_no_convoy_inferred_when_two_fleets_could_do_it():
    pos = board({Power.ENGLAND: ["A LON", "F NTH", "F ENG"]})
    it, units = play(pos, {Power.ENGLAND: ["A LON - BEL"]}, EDC)
    assert "A LON" in units
    assert not it.decisions


# --- World Masters leniency (gm-order-correction-rules II) --------------------------------------


def test_world_masters_wrong_unit_type_is_corrected_and_told():
    # II(1): "An omitted or inaccurate designation of the type of a unit ... will not
    # invalidate the order."
    pos = board({Power.FRANCE: ["A PAR"]})
    it, units = play(pos, {Power.FRANCE: ["F PAR - BUR"]}, WM)
    assert units == ["A BUR"]
    (d,) = it.decisions
    assert d.kind is DecisionKind.CORRECTED
    assert "A PAR - BUR" in d.text
    assert "an army" in d.text
    # Stabbeurfou 4.C.2 'a': an inaccurate type makes the order fail.
    _, units = play(pos, {Power.FRANCE: ["F PAR - BUR"]}, SF)
    assert units == ["A PAR"]


def test_world_masters_support_with_another_coast_still_supports():
    # II(3)c: "conflicting designations will never invalidate support orders". F GAS can only
    # reach Spain's north coast; the support names the south coast.
    pos = board({Power.FRANCE: ["F GAS", "F MAO"], Power.ENGLAND: ["F POR"]})
    given = {
        Power.FRANCE: ["F GAS - SPA/NC", "F MAO S F GAS - SPA/SC"],
        Power.ENGLAND: ["F POR - SPA/NC"],
    }
    it, units = play(pos, given, WM)
    assert "F SPA/NC" in units
    assert units.count("F POR") == 1
    assert any(d.kind is DecisionKind.CORRECTED for d in it.decisions)
    # house IV(7) C agrees; DATC 4.B.4 (6.B.9): the support is invalid and the fleets bounce.
    _, units = play(pos, given, HOUSE)
    assert "F SPA/NC" in units
    _, units = play(pos, given, DATC)
    assert "F GAS" in units
    assert "F POR" in units


def test_world_masters_builds_read_bottom_to_top():
    # III(2): "followed in order, from bottom to top (right to left) of the order set".
    pos = board({Power.FRANCE: ["A PIC"]}, "W1901A", {Power.FRANCE: ["PAR", "BRE"]})
    given = {Power.FRANCE: ["A PAR B", "F BRE B"]}
    it, units = play(pos, given, WM)
    assert units == ["A PIC", "F BRE"]
    assert [d.kind for d in it.decisions] == [DecisionKind.READING]
    assert "bottom to top" in it.decisions[0].text
    # DATC 4.D.4 b: the first legal build.
    _, units = play(pos, given, DATC)
    assert units == ["A PAR", "A PIC"]


def test_edc_supernumerary_build_lowest_kept():
    # edc-2023 E: "In the event of a supernumerary build order, the lowest written orders are
    # kept."
    pos = board({Power.FRANCE: ["A PIC"]}, "W1901A", {Power.FRANCE: ["PAR", "BRE"]})
    _, units = play(pos, {Power.FRANCE: ["A PAR B", "F BRE B"]}, EDC)
    assert units == ["A PIC", "F BRE"]


# --- Stabbeurfou: refusal at submission -------------------------------------------------------


def test_stabbeurfou_refuses_a_set_with_two_orders_for_one_unit_even_the_same():
    # SF 4.D.3: "rejects any set of order with any order extra ... That also applies if a unit
    # receives several same orders."
    pos = board({Power.FRANCE: ["A PAR"]})
    orders = read(pos, {Power.FRANCE: ["A PAR - BUR", "A PAR - BUR"]})
    assert check_submission(pos, orders, SF, MAP)
    assert check_submission(pos, orders, DATC, MAP) == []


def test_stabbeurfou_refuses_inaccurate_information():
    # SF 4.C.2, 4.C.6: "rejects any order with any extra information that is inaccurate".
    pos = board({Power.FRANCE: ["A PAR", "A MAR"], Power.GERMANY: ["A MUN"]})
    wrong_type = read(pos, {Power.FRANCE: ["F PAR - BUR"]})
    (problem,) = check_submission(pos, wrong_type, SF, MAP)
    assert "PAR" in problem
    fine = read(pos, {Power.FRANCE: ["A PAR - BUR", "A MAR S A PAR - BUR"]})
    assert check_submission(pos, fine, SF, MAP) == []


def test_stabbeurfou_type_mandatory_only_for_the_ordered_unit():
    # SF 4.C.1: "unit designation is only mandatory for an active unit (the one ordered.)"
    pos = board({Power.FRANCE: ["A PAR", "A MAR"]})
    missing = read(pos, {Power.FRANCE: ["PAR - BUR"]})
    problems = check_submission(pos, missing, SF, MAP)
    assert len(problems) == 1
    assert "army (A) or a fleet (F)" in problems[0]
    passive = read(pos, {Power.FRANCE: ["A MAR S PAR - BUR", "A PAR - BUR"]})
    assert check_submission(pos, passive, SF, MAP) == []


def test_stabbeurfou_refuses_a_whimsical_move():
    # SF 4.E.1: "A whimsical order of movement is refused by the system".
    pos = board({Power.FRANCE: ["A PAR"]})
    orders = read(pos, {Power.FRANCE: ["A PAR - MUN"]})
    (problem,) = check_submission(pos, orders, SF, MAP)
    assert problem.startswith("A PAR - MUN")


def test_stabbeurfou_refuses_too_many_builds():
    # SF 4.D.4: "rejects any set of order with any order extra than that is requested".
    pos = board({Power.FRANCE: ["A PIC"]}, "W1901A", {Power.FRANCE: ["PAR", "BRE"]})
    orders = read(pos, {Power.FRANCE: ["A PAR B", "F BRE B"]})
    problems = check_submission(pos, orders, SF, MAP)
    assert problems == ["France may build 1, not 2"]
    assert check_submission(pos, orders[:1], SF, MAP) == []


def test_stabbeurfou_refuses_a_retreat_to_a_forbidden_province():
    pos = Position.build(
        Phase.parse("S1901R"),
        [],
        {},
        [DislodgedUnit(Unit.parse(Power.ENGLAND, "F NAO"), "MAO", frozenset({"IRI"}))],
    )
    orders = read(pos, {Power.ENGLAND: ["F NAO R NWG"]})
    (problem,) = check_submission(pos, orders, SF, MAP)
    assert "IRI" in problem


def test_interpretation_keeps_the_given_order_sequence():
    pos = board({Power.FRANCE: ["A PAR", "A MAR", "F BRE"]})
    orders = read(pos, {Power.FRANCE: ["F BRE - MAO", "A PAR - BUR", "A MAR - SPA"]})
    for rules in (DATC, EDC, WM, HOUSE, SF):
        assert list(interpret(pos, orders, rules, MAP).orders) == orders


def test_orders_set_aside_still_get_a_failed_result_with_the_reason():
    pos = board({Power.FRANCE: ["A PAR"]})
    orders = read(pos, {Power.FRANCE: ["A PAR - BUR", "A PAR - PIC"]})
    outcome, decisions = adjudicate_interpreted(pos, orders, EDC, MAP)
    aside = [r for r in outcome.results if r.order in orders]
    assert len(aside) == 2
    assert all(r.verdict is Verdict.FAILS and r.reason is Reason.ILLEGAL for r in aside)
    assert "civil disorder" in aside[0].detail
    assert len(decisions) == 2


def test_stabbeurfou_missing_type_also_in_french_notation():
    pos = board({Power.FRANCE: ["A PAR"]})
    fr = [
        parse_order(t, lang="fr", power=Power.FRANCE, position=pos, game_map=MAP)
        for t in ("PAR - BOU",)
    ]
    assert len(check_submission(pos, fr, SF, MAP)) == 1
    ok = [parse_order("A PAR - BOU", lang="fr", power=Power.FRANCE, position=pos, game_map=MAP)]
    assert check_submission(pos, ok, SF, MAP) == []


# --- the legality step first (adjudicate_interpreted): the same outcome and decisions -----------


def _reference(position: Position, orders: list[Order], rules: RuleSet) -> tuple[Any, Any]:
    """adjudicate_interpreted as it reads without its shortcut: interpretation, then the
    adjudicator, then the results of the orders set aside."""
    it = interpret(position, orders, rules, MAP)
    outcome = adjudicate(position, list(it.orders), rules, MAP)
    aside = tuple(
        OrderResult(d.power, d.order, Verdict.FAILS, Reason.ILLEGAL, d.text, message=d.message)
        for d in it.decisions
        if d.dropped and d.order is not None
    )
    return replace(outcome, results=outcome.results + aside), it.decisions


def _slip(rng: random.Random, order: Order, position: Position) -> Order:
    """The order with one designation a player might get wrong: the unit's type, coast or
    power, or a support's or convoy's target type or power (missing or another)."""
    if not isinstance(order, UnitOrder):
        return order
    kind = rng.randrange(5)
    ref = order.unit
    other = UnitType.FLEET if ref.type is UnitType.ARMY else UnitType.ARMY
    if kind == 0:
        return replace(order, unit=replace(ref, type=rng.choice([None, other])))
    if kind == 1:
        return replace(order, unit=replace(ref, location=Location(ref.province, Coast.NORTH)))
    if kind == 2:
        return replace(order, power=rng.choice([None, Power.RUSSIA]))
    if isinstance(order, SupportHold | SupportMove | Convoy):
        t = order.target
        if kind == 3:
            return replace(order, target=replace(t, type=rng.choice([None, other])))
        return replace(order, target=replace(t, power=rng.choice([None, Power.TURKEY])))
    return order


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), slips=st.sampled_from([0.0, 0.05, 0.3]))
def test_legality_first_gives_what_interpretation_first_gives(seed: int, slips: float) -> None:
    rng = random.Random(seed)
    idx = map_index(MAP)
    position = random_position(rng, MAP, 28)
    orders = [
        _slip(rng, o, position) if rng.random() < slips else o
        for o in random_orders(rng, position, idx, wild=0.1)
    ]
    for name in list_presets():
        rules = load_rules(name)
        outcome, decisions = adjudicate_interpreted(position, orders, rules, MAP)
        want, want_decisions = _reference(position, orders, rules)
        assert outcome == want
        assert [r.detail for r in outcome.results] == [r.detail for r in want.results]
        assert decisions == want_decisions


def test_as_given_orders_are_never_corrected() -> None:
    """An order `as_given` passes is one the interpretation hands over as it is."""
    rng = random.Random(18)
    idx = map_index(MAP)
    for _ in range(200):
        position = random_position(rng, MAP, 28)
        for drawn in random_orders(rng, position, idx, wild=0.1):
            o = _slip(rng, drawn, position) if rng.random() < 0.5 else drawn
            if as_given(o, position.units):
                assert list(interpret(position, [o], DATC, MAP).orders) == [o]
