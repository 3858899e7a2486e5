"""Movement results: reasons, dislodgements, retreat options, standoffs, paradox reports."""

from __future__ import annotations

from bot.core.model import Power
from bot.core.outcome import Reason, Verdict
from bot.core.rules import DATC, ConvoyParadox
from tests.bot.core.adjudicator.helpers import board, result, run, units_of

FR, DE, EN, IT, RU = Power.FRANCE, Power.GERMANY, Power.ENGLAND, Power.ITALY, Power.RUSSIA


def _paradox() -> tuple[object, dict[Power, list[str]]]:
    # DATC 6.F.14, the simple convoy paradox
    pos = board("S1901M", {EN: ["F LON", "F WAL"], FR: ["A BRE", "F ENG"]})
    return pos, {
        EN: ["F LON S F WAL - ENG", "F WAL - ENG"],
        FR: ["A BRE - LON", "F ENG C A BRE - LON"],
    }


def test_szykman_paradox_reports_paradox() -> None:
    pos, orders = _paradox()
    out = run(pos, orders)  # type: ignore[arg-type]
    r = result(out, "A BRE - LON")
    assert (r.verdict, r.reason) == (Verdict.FAILS, Reason.PARADOX)
    assert result(out, "F ENG C A BRE - LON").reason is Reason.DISLODGED
    assert [str(d.unit) for d in out.dislodged] == ["F ENG"]


def test_all_hold_paradox_rule_fails_every_move_in_the_paradox() -> None:
    pos, orders = _paradox()
    out = run(pos, orders, DATC.with_options(convoy_paradox=ConvoyParadox.ALL_HOLD))  # type: ignore[arg-type]
    assert result(out, "A BRE - LON").verdict is Verdict.FAILS
    assert result(out, "F WAL - ENG").verdict is Verdict.FAILS
    assert out.dislodged == ()


def test_void_support_names_the_order_it_did_not_match() -> None:
    pos = board("S1901M", {FR: ["A PAR", "A MAR"]})
    out = run(pos, {FR: ["A PAR S A MAR - BUR", "A MAR - GAS"]})
    r = result(out, "A PAR S A MAR - BUR")
    assert (r.verdict, r.reason) == (Verdict.FAILS, Reason.VOID)
    assert "A MAR" in r.detail
    assert "GAS" in r.detail


def test_cut_and_dislodged_support_reasons() -> None:
    pos = board("S1901M", {FR: ["A PAR", "A MAR"], DE: ["A MUN", "A PIC"]})
    out = run(
        pos,
        {FR: ["A PAR S A MAR - BUR", "A MAR - BUR"], DE: ["A MUN - BUR", "A PIC - PAR"]},
    )
    assert result(out, "A PAR S A MAR - BUR").reason is Reason.CUT
    assert result(out, "A MAR - BUR").reason is Reason.BOUNCED


def test_convoy_broken_reason() -> None:
    pos = board("S1901M", {EN: ["A LON", "F NTH"], DE: ["F HEL", "F SKA"]})
    out = run(
        pos,
        {EN: ["A LON - HOL", "F NTH C A LON - HOL"], DE: ["F HEL - NTH", "F SKA S F HEL - NTH"]},
    )
    r = result(out, "A LON - HOL")
    assert (r.verdict, r.reason) == (Verdict.FAILS, Reason.CONVOY_BROKEN)


def test_dislodged_unit_retreats_exclude_attacker_standoff_and_occupied() -> None:
    # A BUR dislodged from MUN; PIC is a standoff (PAR and BEL bounce there); GAS is
    # occupied; so BUR may go to MAR only (RUH is German and occupied too).
    pos = board(
        "S1901M",
        {
            FR: ["A BUR", "A PAR", "A GAS"],
            DE: ["A MUN", "A RUH", "A BEL"],
        },
    )
    out = run(
        pos,
        {
            FR: ["A BUR H", "A PAR - PIC", "A GAS H"],
            DE: ["A MUN - BUR", "A RUH S A MUN - BUR", "A BEL - PIC"],
        },
    )
    (d,) = out.dislodged
    assert str(d.unit) == "A BUR"
    assert d.attacker_from == "MUN"
    assert d.retreats == frozenset({"MAR"})
    assert out.position.phase.kind.value == "R"
    assert [str(x.unit) for x in out.position.dislodged] == ["A BUR"]


def test_move_that_could_not_reach_makes_no_standoff() -> None:
    # The convoyed army LON-BEL loses its convoy (NTH dislodged), so BEL is no standoff:
    # the fleet dislodged from NTH may retreat there.
    pos = board("S1901M", {EN: ["A LON", "F NTH"], DE: ["F HEL", "F DEN"]})
    out = run(
        pos,
        {EN: ["A LON - BEL", "F NTH C A LON - BEL"], DE: ["F HEL - NTH", "F DEN S F HEL - NTH"]},
    )
    (d,) = out.dislodged
    assert "BEL" in d.retreats
    assert "HEL" not in d.retreats


def test_fleet_retreat_options_are_provinces() -> None:
    # F MAO dislodged from BRE: Spain is one option (the coast is chosen by the retreat order;
    # `parley adjudicate` writes SPA/NC and SPA/SC).
    pos = board("S1901M", {FR: ["F MAO"], EN: ["F BRE", "F ENG"]})
    out = run(pos, {FR: ["F MAO H"], EN: ["F BRE - MAO", "F ENG S F BRE - MAO"]})
    (d,) = out.dislodged
    assert {"SPA", "POR", "NAF", "WES", "NAO", "IRI", "GAS"} == set(d.retreats)


def test_unit_with_no_retreat_is_destroyed_at_once_and_retreat_phase_skipped() -> None:
    # A VEN dislodged with every neighbour occupied or the attacker's origin
    pos = board(
        "S1901M",
        {IT: ["A VEN"], Power.AUSTRIA: ["A TRI", "A TYR", "F ADR"], FR: ["A PIE", "A TUS"]},
        {IT: ["VEN"]},
    )
    out = run(
        pos,
        {
            Power.AUSTRIA: ["A TRI - VEN", "A TYR S A TRI - VEN", "F ADR H"],
            FR: ["A PIE H", "A TUS H"],
        },
    )
    (d,) = out.dislodged
    assert d.retreats == frozenset({"ROM", "APU"})
    pos2 = board(
        "S1901M",
        {
            IT: ["A VEN"],
            Power.AUSTRIA: ["A TRI", "A TYR", "F ADR"],
            FR: ["A PIE", "A TUS", "A ROM", "A APU"],
        },
    )
    out2 = run(
        pos2,
        {Power.AUSTRIA: ["A TRI - VEN", "A TYR S A TRI - VEN"]},
    )
    (d2,) = out2.dislodged
    assert d2.retreats == frozenset()
    assert [str(u) for u in out2.removed] == ["A VEN"]
    assert str(out2.position.phase) == "F1901M"
    assert out2.position.dislodged == ()


def test_circular_movement_succeeds() -> None:
    pos = board("S1901M", {FR: ["A PAR", "A BUR", "A PIC"]})
    out = run(pos, {FR: ["A PAR - BUR", "A BUR - PIC", "A PIC - PAR"]})
    assert units_of(out.position) == {"FRA A BUR", "FRA A PIC", "FRA A PAR"}
    assert all(r.verdict is Verdict.SUCCEEDS for r in out.results)


def test_missing_orders_are_implied_holds() -> None:
    pos = board("S1901M", {FR: ["A PAR"], RU: ["A MOS"]})
    out = run(pos, {FR: ["A PAR - BUR"]})
    implied = [r for r in out.results if r.implied]
    assert [(str(r.order), r.power) for r in implied] == [("A MOS H", RU)]


def test_hold_support_for_a_power_in_civil_disorder_4d9() -> None:
    # Russia gives no orders; Germany supports its army in WAR against a supported attack.
    pos = board("S1901M", {RU: ["A WAR"], DE: ["A SIL"], Power.AUSTRIA: ["A GAL", "A UKR"]})
    orders = {DE: ["A SIL S A WAR"], Power.AUSTRIA: ["A GAL - WAR", "A UKR S A GAL - WAR"]}
    assert "RUS A WAR" in units_of(run(pos, orders).position)  # 4.D.9 b: 2 v 2
    strict = DATC.with_options(hold_support_for_civil_disorder=False)
    out = run(pos, orders, strict)
    assert result(out, "A SIL S A WAR").reason is Reason.VOID
    assert "AUS A WAR" in units_of(out.position)


def test_cut_and_dislodged_details_name_the_unit() -> None:
    pos = board("S1901M", {FR: ["A PAR", "A MAR", "A BUR"], DE: ["A MUN", "A PIC", "A RUH"]})
    out = run(
        pos,
        {
            FR: ["A PAR S A MAR - GAS", "A MAR - GAS", "A BUR H"],
            DE: ["A PIC - PAR", "A MUN - BUR", "A RUH S A MUN - BUR"],
        },
    )
    assert result(out, "A PAR S A MAR - GAS").detail == "cut by A PIC from PIC"
    assert result(out, "A BUR H").detail == "dislodged by A MUN from MUN"


def test_coastless_support_stands_when_the_fleet_reaches_one_coast() -> None:
    # stabbeurfou 4.B.4: a coast is required "when two coasts are possible"; Gascony reaches
    # only SPA/NC, so F MAO S F GAS - SPA is good support and France beats Italy's single move.
    strict = DATC.with_options(support_requires_coast=True)
    pos = board("S1901M", {FR: ["F MAO", "F GAS"], IT: ["F WES"]})
    out = run(pos, {FR: ["F MAO S F GAS - SPA", "F GAS - SPA"], IT: ["F WES - SPA/SC"]}, strict)
    assert result(out, "F MAO S F GAS - SPA").verdict is Verdict.SUCCEEDS
    assert result(out, "F GAS - SPA/NC").verdict is Verdict.SUCCEEDS


def test_coastless_support_is_void_when_the_fleet_could_reach_two_coasts() -> None:
    strict = DATC.with_options(support_requires_coast=True)
    pos = board("S1901M", {FR: ["F POR", "F MAO"], IT: ["F WES"]})
    out = run(pos, {FR: ["F POR S F MAO - SPA", "F MAO - SPA/NC"], IT: ["F WES - SPA/SC"]}, strict)
    assert result(out, "F POR S F MAO - SPA").reason is Reason.VOID
    assert result(out, "F MAO - SPA/NC").verdict is Verdict.FAILS
