"""Adjustment phase: builds, waives, removals, civil disorder, reading direction."""

from __future__ import annotations

import pytest

from bot.core.adjudicator import removals_2023
from bot.core.model import Location, Power
from bot.core.orders import Build, UnitRef
from bot.core.outcome import Reason, Verdict
from bot.core.rules import DATC, Choice, CivilDisorder
from tests.bot.core.adjudicator.helpers import GM, board, orders, result, run, units_of
from tests.standard import adjudicate

FR, DE, IT, RU = Power.FRANCE, Power.GERMANY, Power.ITALY, Power.RUSSIA


def test_builds_waive_and_implied_waive() -> None:
    pos = board("W1901A", {FR: ["A PAR"]}, {FR: ["PAR", "MAR", "BRE", "SPA"]})
    out = run(pos, {FR: ["A MAR B", "WAIVE"]})
    assert result(out, "A MAR B").verdict is Verdict.SUCCEEDS
    assert result(out, "WAIVE").verdict is Verdict.SUCCEEDS
    # 3 builds, 2 free home centres (MAR, BRE): one used, one waived, none left to imply
    assert [r for r in out.results if r.implied] == []
    assert units_of(out.position) == {"FRA A PAR", "FRA A MAR"}
    assert str(out.position.phase) == "S1902M"
    out2 = run(pos, {})
    implied = [str(r.order) for r in out2.results if r.implied]
    assert implied == ["WAIVE", "WAIVE"]


def test_build_rules_home_owned_empty_coast() -> None:
    pos = board(
        "W1901A", {RU: ["A MOS"], DE: ["A WAR"]}, {RU: ["MOS", "STP", "SEV", "RUM"], DE: []}
    )
    out = run(pos, {RU: ["F STP B", "A RUM B", "A WAR B", "F SEV B"]})
    assert result(out, "F STP B").reason is Reason.ILLEGAL  # 4.B.7: which coast?
    assert result(out, "A RUM B").reason is Reason.ILLEGAL  # not a home centre
    assert result(out, "A WAR B").reason is Reason.ILLEGAL  # occupied, not owned
    assert result(out, "F SEV B").verdict is Verdict.SUCCEEDS


def test_builds_read_bottom_to_top() -> None:
    pos = board("W1901A", {DE: ["A BER"]}, {DE: ["BER", "KIE", "MUN"]})
    rules = DATC.with_options(builds_read_bottom_to_top=True)
    out = run(pos, {DE: ["A KIE B", "A MUN B", "F KIE B"]}, rules)
    # read upwards: F KIE, A MUN are the two builds; A KIE is a second build in Kiel
    assert units_of(out.position) == {"GER A BER", "GER F KIE", "GER A MUN"}
    assert result(out, "A KIE B").verdict is Verdict.FAILS


def test_too_many_builds_choice_a_all_fail() -> None:
    pos = board("W1901A", {DE: ["A BER", "A RUH"]}, {DE: ["BER", "KIE", "MUN"]})
    out = run(pos, {DE: ["A KIE B", "A MUN B"]}, DATC.with_options(too_many_builds=Choice.A))
    assert units_of(out.position) == {"GER A BER", "GER A RUH"}


def test_missing_build_type_choice_c() -> None:
    # (typed orders: the parser itself asks for the type where it is needed)
    pos = board("W1901A", {DE: ["A BER"]}, {DE: ["BER", "KIE", "MUN"]})
    builds = [Build(DE, UnitRef(None, Location(p))) for p in ("MUN", "KIE")]
    out = adjudicate(pos, builds, DATC, GM)
    # 4.C.3 c: an army in a land province; in a coastal province only with a coast: fails
    assert out.results[0].verdict is Verdict.SUCCEEDS
    assert out.results[1].verdict is Verdict.FAILS
    assert units_of(out.position) == {"GER A BER", "GER A MUN"}


def test_civil_disorder_2023_removes_farthest_from_owned_centre() -> None:
    # DATC 6.J.11: Italy owns only Warsaw: Tuscany is farther, so it goes.
    pos = board("W1901A", {IT: ["A TUS", "A WAR"]}, {IT: ["WAR"]})
    out = run(pos, {})
    cd = [r for r in out.results if r.reason is Reason.CIVIL_DISORDER]
    assert [(str(r.order), r.implied) for r in cd] == [("A TUS D", True)]
    assert units_of(out.position) == {"ITA A WAR"}


def test_removals_2023_ties_fleet_first_then_english_name() -> None:
    # France owns only Brest: A BUR is 2 away and goes first; A PAR, F ENG and F MAO are 1
    # away: fleets first, "English Channel" before "Mid-Atlantic Ocean".
    pos = board("W1901A", {FR: ["A PAR", "F ENG", "F MAO", "A BUR"]}, {FR: ["BRE"]})
    got = removals_2023(pos, FR, 3, GM)
    assert [str(u) for u in got] == ["A BUR", "F ENG", "F MAO"]


def test_other_civil_disorder_rules_dispatch_to_civil_disorder_module() -> None:
    # pre-2023 (distance to HOME centres): 6.J.11's alternative keeps Tuscany.
    pos = board("W1901A", {IT: ["A TUS", "A WAR"]}, {IT: ["WAR"]})
    rules = DATC.with_options(civil_disorder=CivilDisorder.HOME_ANY_TERRAIN)
    out = adjudicate(pos, orders(pos, {}), rules, GM)
    assert units_of(out.position) == {"ITA A TUS"}


@pytest.mark.parametrize("rule", [Choice.A, Choice.C])
def test_too_many_disbands(rule: Choice) -> None:
    pos = board("W1901A", {FR: ["A PAR", "A PIC", "A BUR"]}, {FR: ["PAR", "BRE"]})
    out = run(pos, {FR: ["A PIC D", "A BUR D"]}, DATC.with_options(too_many_disbands=rule))
    if rule is Choice.C:  # the last legal removal
        assert units_of(out.position) == {"FRA A PAR", "FRA A PIC"}
    else:  # 4.D.6 a: civil disorder picks; PIC and BUR are 1 from Paris: "Burgundy" first
        gone = [str(r.order) for r in out.results if r.reason is Reason.CIVIL_DISORDER]
        assert gone == ["A BUR D"]
        assert result(out, "A PIC D").verdict is Verdict.FAILS
