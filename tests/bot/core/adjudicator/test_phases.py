"""Next phase and skips: retreat phases with nobody to retreat, empty adjustment phases."""

from __future__ import annotations

from bot.core.adjudicator.mapindex import map_index
from bot.core.adjudicator.phases import adjustment_needed, next_position, update_centers
from bot.core.model import Phase, Power, Unit
from tests.bot.core.adjudicator.helpers import GM, board, run

FR, DE = Power.FRANCE, Power.GERMANY
IDX = map_index(GM)


def test_spring_without_dislodgement_goes_to_fall_and_keeps_centres() -> None:
    pos = board("S1901M", {FR: ["A PAR"]}, {FR: ["PAR"]})
    out = run(pos, {FR: ["A PAR - BUR"]})
    assert str(out.position.phase) == "F1901M"
    assert dict(out.position.centers) == {"PAR": FR}


def test_fall_takes_centres_and_skips_adjustment_when_nobody_can_build() -> None:
    # France takes Belgium (5 centres, 4 units) but every French home centre is occupied:
    # no build is possible and nobody must remove, so the adjustment phase is skipped.
    pos = board(
        "F1901M",
        {FR: ["A PAR", "A MAR", "F BRE", "A PIC"]},
        {FR: ["PAR", "MAR", "BRE", "SPA"]},
    )
    out = run(pos, {FR: ["A PIC - BEL"]})
    assert out.position.centers["BEL"] is FR
    assert str(out.position.phase) == "S1902M"


def test_fall_with_a_build_goes_to_winter() -> None:
    pos = board("F1901M", {FR: ["A PAR", "A PIC"]}, {FR: ["PAR", "MAR", "BRE"]})
    out = run(pos, {FR: ["A PIC - BEL"]})
    assert str(out.position.phase) == "W1901A"


def test_adjustment_needed_and_update_centers() -> None:
    units = {"PAR": Unit.parse(FR, "A PAR"), "MUN": Unit.parse(DE, "A MUN")}
    centers = {"PAR": DE, "MUN": DE}
    new = update_centers(units, centers, IDX)
    assert new == {"PAR": FR, "MUN": DE}
    assert adjustment_needed(units, new, IDX) is False
    assert adjustment_needed(units, {"MUN": DE}, IDX) is True  # France must remove


def test_adjustment_phase_leads_to_next_spring() -> None:
    pos = next_position(Phase.parse("W1905A"), {}, {}, IDX)
    assert str(pos.phase) == "S1906M"
