"""Stab! public and private reports (seeds/stab-hidden-movement-variant.txt, rules 2, 3, 5, 6)."""

from __future__ import annotations

from bot.core.language.parser import parse_order
from bot.core.model import Power
from bot.core.orders import Retreat
from bot.core.stab.report import (
    CentreLost,
    RetreatCaused,
    adjustment_report,
    movement_report,
    visible_provinces,
)
from bot.core.stab.retreats import conditional_retreats
from tests.bot.core.stab.helpers import MAP, RULES, phase

E, F, G = Power("ENGLAND"), Power("FRANCE"), Power("GERMANY")

# The seed's "Example": "The following Autumn 1902 orders are received: ENGLAND: F(NTH) C
# A(Edi)-Hol; F(Pic) S F(ENG)-Bre. If necessary F(Pic) retreats to Bel, ENG. FRANCE: A(Par) S
# F(Bre)-Pic; A(Mar) S A(Gas)-Bur; F(MAO)-NAO; GERMANY: A(Mun) & A(Ruh) S A(Bur); A(Bur) S
# A(Bel)-Pic; A(Kie)-Den; F(Swe)-Den" and, per the GM's note, "the moves F (Bre) - Pic,
# A (Gas) - Bur, A (Bel) - Pic" (and the English A(Edi)-Hol, F(ENG)-Bre they imply).
EXAMPLE_UNITS = {
    "ENGLAND": ["F NTH", "A EDI", "F PIC", "F ENG"],
    "FRANCE": ["A PAR", "A MAR", "F MAO", "F BRE", "A GAS"],
    "GERMANY": ["A MUN", "A RUH", "A BUR", "A BEL", "A KIE", "F SWE"],
}
EXAMPLE_ORDERS = {
    "ENGLAND": ["F NTH C A EDI - HOL", "A EDI - HOL", "F PIC S F ENG - BRE", "F ENG - BRE"],
    "FRANCE": ["A PAR S F BRE - PIC", "A MAR S A GAS - BUR", "F MAO - NAO", "F BRE - PIC",
               "A GAS - BUR"],
    "GERMANY": ["A MUN S A BUR", "A RUH S A BUR", "A BUR S A BEL - PIC", "A KIE - DEN",
                "F SWE - DEN", "A BEL - PIC"],
}  # fmt: skip
# "Assuming that Germany owned Holland"
EXAMPLE_CENTRES = {"BRE": "FRANCE", "HOL": "GERMANY"}


def _example() -> tuple:
    pos, out = phase("F1902M", EXAMPLE_UNITS, EXAMPLE_ORDERS, EXAMPLE_CENTRES)
    at = out.position
    written = [
        parse_order(t, power=E, position=at, game_map=MAP) for t in ("F PIC R BEL", "F PIC R ENG")
    ]
    assert all(isinstance(r, Retreat) for r in written)
    settled = conditional_retreats(out, written, RULES, MAP)  # type: ignore[arg-type]
    return pos, out, settled, movement_report(pos, out, MAP, retreats=settled)


def test_the_seeds_autumn_1902_example_public_report() -> None:
    # "The game report would show: ENGLAND: F(Pic)*S [Dislodged] FRANCE: A(Par) S F(Bre)-Pic;
    # A(Mar) S A(Gas)-Bur; GERMANY: A(Mun) S A(Bur); A(Bur) S A(Bel)-Pic;" plus the moves
    # themselves ("the moves F (Bre) - Pic, A (Gas) - Bur, A (Bel) - Pic would be reported").
    report = _example()[3]
    assert report.public[E] == ("F PIC S ?; (cut) (dislodged)",)
    assert report.public[F] == (
        "A PAR S F BRE - PIC", "A MAR S A GAS - BUR", "F BRE - PIC", "A GAS - BUR; (failed)",
    )  # fmt: skip
    assert report.public[G] == (
        "A MUN S A BUR", "A BUR s A BEL - PIC; (cut)", "A BEL - PIC; (failed)",
    )  # fmt: skip
    text = " ".join(line for lines in report.public.values() for line in lines)
    # "The existence of the support from the German A(Ruh) is not revealed as it was not
    # necessary. German F(Swe) and A(Kie) are not revealed as they conducted a self-standoff.
    # Exactly what English F(Pic) was supporting is not revealed. The French move into the NAO
    # is kept secret." Nor the successful English moves, convoy, nor where F(Pic) went.
    for hidden in ("RUH", "SWE", "KIE", "DEN", "NAO", "MAO", "ENG", "NTH", "EDI", "HOL"):
        assert hidden not in text


def test_the_seeds_example_private_reports() -> None:
    # "The GM would inform France privately that it had lost Brest and that the English F(Pic)
    # had retreated to ENG. England would be informed that F(Pic) had retreated to ENG.
    # Assuming that Germany owned Holland, he would be informed privately that he had lost it."
    report = _example()[3]
    assert report.private[F].centres_lost == (CentreLost("BRE", E, "F BRE"),)
    assert report.private[F].retreats_caused == (RetreatCaused(E, "F PIC", "ENG"),)
    assert "F ENG" in report.private[E].units
    assert "F PIC" not in report.private[E].units
    assert report.private[G].centres_lost == (CentreLost("HOL", E, "A HOL"),)
    assert report.private[E].centres_lost == ()
    assert report.private[G].retreats_caused == ()


def test_a_separate_retreat_phase_keeps_the_dislodged_unit_waiting() -> None:
    pos, out = phase("F1902M", EXAMPLE_UNITS, EXAMPLE_ORDERS, EXAMPLE_CENTRES)
    report = movement_report(pos, out, MAP)
    assert report.private[E].dislodged == ("F PIC",)
    assert report.private[F].retreats_caused == ()  # known after the retreat phase


# The seed's convoy notes: "If a convoying fleet is attacked by a foreign unit":
def test_convoy_case_a_the_convoying_fleet_is_dislodged() -> None:
    # "i) The attack is revealed as usual. ii) The convoying fleet is reported as dislodged,
    # but the details of the convoy are obscured. For example F NTS c ?-? (*fails*
    # *dislodged*). iii) The move of the convoyed army will be revealed in full as a failed move."
    pos, out = phase(
        "S1902M",
        {"ENGLAND": ["F NTH", "A YOR"], "GERMANY": ["F HEL", "F DEN"]},
        {"ENGLAND": ["F NTH C A YOR - NWY", "A YOR - NWY"],
         "GERMANY": ["F HEL - NTH", "F DEN S F HEL - NTH"]},
    )  # fmt: skip
    public = movement_report(pos, out, MAP).public
    assert public[E] == ("F NTH C ? - ?; (dislodged)", "A YOR - NWY; (failed)")
    assert public[G] == ("F HEL - NTH", "F DEN S F HEL - NTH")


def test_convoy_case_b_the_army_arrives_and_the_fleet_holds() -> None:
    # "B). If the convoying fleet is not dislodged, the convoyed army occupies its destination
    # and is not the cause of another move to fail, i) The attack is revealed as usual ii) The
    # convoying fleet is reported as holding. iii) The move of the convoyed army is not reported"
    pos, out = phase(
        "S1902M",
        {"ENGLAND": ["F NTH", "A YOR"], "GERMANY": ["F HEL"]},
        {"ENGLAND": ["F NTH C A YOR - NWY", "A YOR - NWY"], "GERMANY": ["F HEL - NTH"]},
    )
    public = movement_report(pos, out, MAP).public
    assert public[E] == ("F NTH H",)
    assert public[G] == ("F HEL - NTH; (failed)",)


def test_convoy_case_c_the_army_fails_and_both_are_reported_in_full() -> None:
    # "C). If the convoying fleet is not dislodged, but the convoyed army fails to occupy its
    # destination or is the cause for another move to fail, i) The attack is revealed as usual
    # ii) The convoying fleet move is reported in full iii) The convoyed army move is reported
    # in full"
    pos, out = phase(
        "S1902M",
        {"ENGLAND": ["F NTH", "A YOR"], "GERMANY": ["F HEL"], "RUSSIA": ["F NWY"]},
        {"ENGLAND": ["F NTH C A YOR - NWY", "A YOR - NWY"], "GERMANY": ["F HEL - NTH"],
         "RUSSIA": ["F NWY H"]},
    )  # fmt: skip
    public = movement_report(pos, out, MAP).public
    assert public[E] == ("F NTH C A YOR - NWY", "A YOR - NWY; (failed)")
    assert public[G] == ("F HEL - NTH; (failed)",)
    assert public[Power("RUSSIA")] == ("F NWY H",)  # the recipient of an unsuccessful attack


def test_a_self_standoff_that_makes_another_players_move_fail_shows_that_unit_only() -> None:
    # "A self-standoff is not revealed unless it also results in the failure of a move by
    # another player. Only the unit whose presence results in the failure of the other
    # player's move is revealed (as 'self-standoff')"
    pos, out = phase(
        "S1902M",
        {"GERMANY": ["A KIE", "F SWE"], "RUSSIA": ["F BOT"]},
        {"GERMANY": ["A KIE - DEN", "F SWE - DEN"], "RUSSIA": ["F BOT - SWE"]},
    )
    public = movement_report(pos, out, MAP).public
    assert public[G] == ("F SWE - DEN; (self-standoff)",)
    assert public[Power("RUSSIA")] == ("F BOT - SWE; (failed)",)


def test_surplus_supports_follow_the_players_preference() -> None:
    # "the player may elect only to reveal those supports necessary ... In the absence of
    # specific instructions, the GM will reveal supports from other spaces as necessary
    # alphabetically, supports from other players being revealed first."
    units = {"GERMANY": ["A BUR", "A MUN", "A RUH"], "FRANCE": ["A GAS", "A MAR", "A PAR"]}
    orders = {"GERMANY": ["A BUR H", "A MUN S A BUR", "A RUH S A BUR"],
              "FRANCE": ["A GAS - BUR", "A MAR S A GAS - BUR", "A PAR S A BUR"]}  # fmt: skip
    pos, out = phase("S1902M", units, orders)
    # strength 2 against BUR: one support needed; France's A PAR first (another player's)
    default = movement_report(pos, out, MAP).public
    assert "A PAR S A BUR" in default[F]
    assert default[G] == ("A BUR H",)
    chosen = movement_report(pos, out, MAP, preferences={G: ["RUH"]}).public
    assert chosen[G] == ("A BUR H", "A RUH S A BUR")
    assert "A PAR S A BUR" not in chosen[F]


def test_misorders_and_nmrs() -> None:
    # "A mis-order or an unlawful order is not revealed." / "All NMRs are reported as such"
    pos, out = phase("S1902M", {"FRANCE": ["A PAR"], "ITALY": ["A VEN"]},
                     {"FRANCE": ["A PAR - MUN"]})  # fmt: skip
    public = movement_report(pos, out, MAP, nmr=[Power("ITALY")]).public
    assert F not in public
    assert public[Power("ITALY")] == ("NMR",)


def test_winter_reports_totals_publicly_and_centres_privately() -> None:
    pos, _ = phase("W1902A", {"FRANCE": ["A PAR"]}, {}, {"PAR": "FRANCE", "BRE": "FRANCE"})
    report = adjustment_report(pos, MAP)
    assert report.centre_totals[F] == 2
    assert report.centre_totals[E] == 0
    assert report.private[F].centres == ("BRE", "PAR")
    assert report.public == {}


def test_a_viewer_sees_its_units_and_what_the_report_named() -> None:
    pos, _out, _, report = _example()
    seen = visible_provinces(G, pos, report)
    assert {"RUH", "KIE", "SWE", "PIC", "BUR"} <= seen
    assert "NTH" not in seen
    assert "MAO" not in seen
    assert "RUH" not in visible_provinces(None, pos, report)
