"""The legality step (DATC 4.E.1): illegal orders are reported and ignored, the unit holds."""

from __future__ import annotations

from bot.core.adjudicator.legality import as_given
from bot.core.model import Location, Power, UnitType
from bot.core.orders import Hold, Move, Retreat, SupportHold, UnitRef
from bot.core.outcome import Reason, Verdict
from bot.core.rules import DATC, Choice, DuplicateOrders
from tests.bot.core.adjudicator.helpers import GM, board, result, run, units_of
from tests.standard import adjudicate

A, F = UnitType.ARMY, UnitType.FLEET
FR, DE, EN = Power.FRANCE, Power.GERMANY, Power.ENGLAND


def test_order_for_no_unit_is_illegal_and_named() -> None:
    pos = board("S1901M", {FR: ["A PAR"]})
    order = Move(FR, UnitRef(A, Location("MAR")), Location("SPA"))
    out = adjudicate(pos, [order], DATC, GM)
    r = out.results[0]
    assert (r.verdict, r.reason) == (Verdict.FAILS, Reason.ILLEGAL)
    assert "no unit in MAR" in r.detail
    # the French army got no order: it holds, reported as an implied order
    implied = [x for x in out.results if x.implied]
    assert [str(x.order) for x in implied] == ["A PAR H"]


def test_foreign_unit_order_is_illegal_and_the_unit_holds_with_support() -> None:
    # Germany orders the English fleet away; England supports it holding; France attacks
    # with support. The illegal order is ignored, so the hold support counts: 2 v 2.
    pos = board("S1901M", {EN: ["F NTH", "F YOR"], FR: ["F BEL", "F HOL"], DE: []})
    moves = [
        Move(DE, UnitRef(F, Location("NTH")), Location("NWG")),
        SupportHold(EN, UnitRef(F, Location("YOR")), UnitRef(F, Location("NTH"))),
        Move(FR, UnitRef(F, Location("BEL")), Location("NTH")),
        SupportHold(FR, UnitRef(F, Location("HOL")), UnitRef(F, Location("BEL"))),
    ]
    out = adjudicate(pos, moves, DATC, GM)
    assert out.results[0].reason is Reason.ILLEGAL
    assert "belongs to England" in out.results[0].detail
    assert out.results[1].verdict is Verdict.SUCCEEDS
    assert out.results[2].verdict is Verdict.FAILS
    assert "ENG F NTH" in units_of(out.position)


def test_retreat_order_in_movement_phase_is_illegal() -> None:
    pos = board("S1901M", {FR: ["A PAR"]})
    out = adjudicate(pos, [Retreat(FR, UnitRef(A, Location("PAR")), Location("BUR"))], DATC, GM)
    assert out.results[0].reason is Reason.ILLEGAL
    assert "movement phase" in out.results[0].detail


def _duplicate_case(rule: DuplicateOrders) -> set[str]:
    # Two different orders for A BUR; France supports it holding; Germany attacks with one
    # support (2). If BUR holds (rule c) the hold support makes 2 v 2 and BUR stays.
    pos = board("S1901M", {FR: ["A BUR", "A PAR"], DE: ["A MUN", "A RUH"]})
    out = run(
        pos,
        {
            FR: ["A BUR - PIC", "A BUR - GAS", "A PAR S A BUR"],
            DE: ["A MUN - BUR", "A RUH S A MUN - BUR"],
        },
        DATC.with_options(duplicate_orders=rule),
    )
    return units_of(out.position)


def test_duplicate_orders_hold_rule_unit_holds_and_takes_hold_support() -> None:
    assert "FRA A BUR" in _duplicate_case(DuplicateOrders.HOLD)


def test_duplicate_orders_first_and_last() -> None:
    assert "FRA A PIC" in _duplicate_case(DuplicateOrders.FIRST)
    assert "FRA A GAS" in _duplicate_case(DuplicateOrders.LAST)


def test_identical_duplicate_counts_once() -> None:
    pos = board("S1901M", {FR: ["A PAR"]})
    out = run(pos, {FR: ["A PAR - BUR", "A PAR - BUR"]})
    assert out.results[0].verdict is Verdict.SUCCEEDS
    assert out.results[1].reason is Reason.ILLEGAL
    assert units_of(out.position) == {"FRA A BUR"}


def test_wrong_unit_type_ignored_by_default_and_illegal_under_4c2a() -> None:
    pos = board("S1901M", {FR: ["A PAR"]})
    order = Move(FR, UnitRef(F, Location("PAR")), Location("BUR"))
    assert units_of(adjudicate(pos, [order], DATC, GM).position) == {"FRA A BUR"}
    strict = DATC.with_options(wrong_unit_type=Choice.A)
    out = adjudicate(pos, [order], strict, GM)
    assert out.results[0].reason is Reason.ILLEGAL
    assert units_of(out.position) == {"FRA A PAR"}


def test_choice_c_prefers_the_order_with_the_right_type() -> None:
    pos = board("S1901M", {FR: ["A PAR"]})
    wrong = Move(FR, UnitRef(F, Location("PAR")), Location("PIC"))
    right = Move(FR, UnitRef(A, Location("PAR")), Location("BUR"))
    rules = DATC.with_options(wrong_unit_type=Choice.C)
    out = adjudicate(pos, [wrong, right], rules, GM)
    assert units_of(out.position) == {"FRA A BUR"}
    assert out.results[0].reason is Reason.ILLEGAL


def test_army_move_without_route_is_illegal_but_with_fleets_it_is_legal() -> None:
    # DATC 6.D.32 vs 6.D.8: legality looks at fleets on the board, not at their orders.
    no_fleet = board("S1901M", {EN: ["A YOR"]})
    out = run(no_fleet, {EN: ["A YOR - HOL"]})
    assert out.results[0].reason is Reason.ILLEGAL
    with_fleet = board("S1901M", {EN: ["A YOR", "F NTH"]})
    out = run(with_fleet, {EN: ["A YOR - HOL", "F NTH - HEL"]})
    assert (out.results[0].verdict, out.results[0].reason) == (Verdict.FAILS, Reason.NO_CONVOY)


def test_convoy_by_fleet_not_needed_on_any_route_is_illegal() -> None:
    # DATC 6.G.19: LYO alone links MAR and SPA, so WES is on no route that needs it.
    pos = board("S1901M", {FR: ["A MAR", "F WES", "F LYO"]})
    out = run(pos, {FR: ["A MAR - SPA", "F WES C A MAR - SPA", "F LYO C A MAR - SPA"]})
    assert result(out, "F WES C A MAR - SPA").reason is Reason.ILLEGAL
    assert result(out, "F LYO C A MAR - SPA").verdict is Verdict.SUCCEEDS


def test_support_to_unreachable_place_is_illegal_with_reason() -> None:
    pos = board("S1901M", {FR: ["A PAR", "A MAR"], DE: ["A MUN"]})
    out = run(pos, {FR: ["A PAR S A MAR - PIE"], DE: ["A MUN H"]})
    r = result(out, "A PAR S A MAR - PIE")
    assert r.reason is Reason.ILLEGAL
    assert "could not move there" in r.detail


def test_hold_order_keeps_type_in_result() -> None:
    pos = board("S1901M", {FR: ["F BRE"]})
    h = Hold(FR, UnitRef(F, Location("BRE")))
    out = adjudicate(pos, [h], DATC, GM)
    assert out.results[0].order is h
    assert out.results[0].verdict is Verdict.SUCCEEDS


def test_missing_nationality_of_foreign_unit_under_4c5a() -> None:
    pos = board("S1901M", {FR: ["A PAR"], DE: ["A BUR", "A MUN"]})
    support = SupportHold(FR, UnitRef(A, Location("PAR")), UnitRef(A, Location("BUR")))
    own = SupportHold(DE, UnitRef(A, Location("MUN")), UnitRef(A, Location("BUR")))
    assert adjudicate(pos, [support, own], DATC, GM).results[0].verdict is Verdict.SUCCEEDS
    strict = DATC.with_options(missing_nationality=Choice.A)
    out = adjudicate(pos, [support, own], strict, GM)
    assert out.results[0].reason is Reason.ILLEGAL
    assert out.results[1].verdict is Verdict.SUCCEEDS  # own unit: no nationality needed


def test_as_given_reads_a_supports_target_as_it_stands() -> None:
    # A support naming its target's type or power otherwise than the board has it is not "as
    # given": interpretation may correct it (the batch path's shortcut must not take it).
    fr, de = Power("FRANCE"), Power("GERMANY")
    pos = board("S1901M", {fr: ["A BUR"], de: ["A MUN"]})
    bur = UnitRef(UnitType.ARMY, Location("BUR"), fr)

    def support(utype: UnitType | None, power: Power | None, where: str = "MUN") -> bool:
        target = UnitRef(utype, Location(where), power)
        return as_given(SupportHold(fr, unit=bur, target=target), pos.units)

    assert support(UnitType.ARMY, de)
    assert support(None, None)
    assert not support(UnitType.ARMY, fr)  # the wrong power
    assert not support(UnitType.FLEET, de)  # the wrong type
    assert support(UnitType.FLEET, fr, "RUH")  # no unit there: nothing to correct
