"""Next phase and skips: retreat phases with nobody to retreat, empty adjustment phases."""

from __future__ import annotations

from collections import Counter
from types import MappingProxyType

from bot.core.adjudicator.mapindex import map_index
from bot.core.adjudicator.phases import (
    adjustment_needed,
    copied,
    counts,
    next_position,
    update_centers,
)
from bot.core.model import DislodgedUnit, Phase, Power, Unit
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


def test_each_phase_leads_to_its_successor_in_any_year() -> None:
    # next_position takes its phases from a table made once per year: each index checked
    # against the phase spelt out, in years met before and not.
    waiting = board("S1901M", {FR: ["A PAR"]}).units["PAR"]
    gone = [DislodgedUnit(waiting, "BUR", frozenset({"PIC"}))]
    for year in (1901, 1901, 1957, 2043):
        cases = [
            (f"S{year}M", gone, f"S{year}R"),
            (f"F{year}M", gone, f"F{year}R"),
            (f"S{year}M", [], f"F{year}M"),
            (f"S{year}R", [], f"F{year}M"),
            (f"F{year}M", [], f"S{year + 1}M"),  # nobody builds: Winter skipped
            (f"W{year}A", [], f"S{year + 1}M"),
        ]
        for done, dislodged, want in cases:
            pos = next_position(Phase.parse(done), {}, {}, IDX, dislodged)
            assert pos.phase == Phase.parse(want), (done, want)
    units = {"PIC": Unit.parse(FR, "A PIC")}
    for year in (1901, 1988):
        pos = next_position(Phase.parse(f"F{year}R"), dict(units), {"PAR": FR, "MAR": FR}, IDX)
        assert pos.phase == Phase.parse(f"W{year}A")  # France builds


def test_counts_are_counters_and_copies_are_dicts() -> None:
    for items in ([], [FR], [DE, FR, DE, DE, FR], list("abcab")):
        got = counts(iter(items))
        assert type(got) is dict
        assert list(got.items()) == list(Counter(items).items())  # in the order met
    for m in ({"PAR": FR, "BER": DE}, MappingProxyType({"PAR": FR, "BER": DE})):
        got = copied(m)
        assert type(got) is dict
        assert list(got.items()) == list(m.items())
        got["MUN"] = DE
        assert "MUN" not in m
