"""Stab! rule 1: "Initial units may start the game in any home space"."""

from __future__ import annotations

import pytest

from bot.core.model import Power
from bot.core.stab.placement import PlacementError, place, split_placement
from tests.bot.core.stab.helpers import MAP

E = Power("ENGLAND")


def test_england_may_start_in_any_home_space() -> None:
    # the issue: "England may start A YOR, A WAL, F CLY"
    placed = place(E, ["A YOR", "A WAL", "F CLY"], MAP)
    assert [f"{u.type.value} {u.location}" for u in placed.units] == ["A YOR", "A WAL", "F CLY"]


@pytest.mark.parametrize(
    ("lines", "words"),
    [
        (["A YOR", "A WAL", "F CLY", "A LON"], "4 units placed"),
        (["A PIC"], "not in a home space"),
        (["F YOR", "F WAL", "F LVP"], ""),  # coastal: accepted
        (["F BUR"], "not in a home space"),
    ],
)
def test_placement_errors(lines: list[str], words: str) -> None:
    if not words:
        assert len(place(E, lines, MAP).units) == 3
        return
    with pytest.raises(PlacementError, match=words):
        place(E, lines, MAP)


def test_a_fleet_inland_a_missing_coast_and_a_doubled_space_are_refused() -> None:
    with pytest.raises(PlacementError, match="inland"):
        place(Power("FRANCE"), ["F PAR"], MAP)
    with pytest.raises(PlacementError, match="two coasts"):
        place(Power("RUSSIA"), ["F STP"], MAP)
    assert place(Power("RUSSIA"), ["F STP/NC"], MAP).units[0].location.coast is not None
    with pytest.raises(PlacementError, match="two units placed in YOR"):
        place(E, ["A YOR", "F YOR"], MAP)


def test_the_placement_lines_lead_the_spring_1901_set() -> None:
    assert split_placement(["A YOR", "F CLY", "A YOR - LVP"]) == (
        ["A YOR", "F CLY"],
        ["A YOR - LVP"],
    )
