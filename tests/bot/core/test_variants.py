"""Variants are data: a map naming other powers than the classical seven loads, parses its
power words, and adjudicates; nothing assumes the seven."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.core.adjudicator import adjudicate
from bot.core.ending.endgame import solo_threshold
from bot.core.language.notation import notation_lines
from bot.core.language.parser import parse_orders
from bot.core.map import MapError, bundled_maps, load_map, parse_map
from bot.core.model import ModelError, Phase, Power
from bot.core.rules import DATC
from bot.core.scoring import score
from bot.paths import data_dir
from tests.variants import TRI_PATH, tri

NORTH, EAST, WEST = Power("NORTH"), Power("EAST"), Power("WEST")


def orders(game_map, position, sheet: str) -> list:
    res = parse_orders(sheet, position=position, game_map=game_map)
    assert res.errors == []
    return res.orders


def test_the_test_variant_loads_from_a_path_with_its_own_powers() -> None:
    gm = tri()
    assert gm.powers == (NORTH, EAST, WEST)
    assert len(gm.supply_centers) == 7
    assert gm.solo_threshold == 4  # no solo_centers in the file: strictly more than half
    assert solo_threshold(gm, 18) == 18  # a rule set's number applies when the file is silent
    assert gm.home_centers(WEST) == frozenset({"WES", "WHI"})
    assert gm.parse_power("nord") is NORTH
    assert gm.parse_power("Occident") is WEST
    assert gm.power_name(EAST, "fr") == "Est"
    assert gm.power_adjective(EAST, "fr") == "orientale"
    with pytest.raises(ModelError):
        gm.parse_power("France")  # not a power of this variant


def test_three_phases_adjudicated_on_the_test_variant() -> None:
    gm = tri()
    start = gm.start
    sheet = "Ouest:\nA Willow - Waste\nF WES - CLD\nEast:\nF EAS - CLD\nNORTH:\nF NOR - CSE"
    spring = adjudicate(start, orders(gm, start, sheet), DATC, gm)
    assert spring.position.phase == Phase.parse("F1901M")  # no retreat: skipped
    assert {p: str(u) for p, u in spring.position.units.items()} == {
        "WST": "A WST",
        "WES": "F WES",  # bounced with East in the Cold Sea
        "EAS": "F EAS",
        "CSE": "F CSE",
        "EHI": "A EHI",
        "NHI": "A NHI",
    }
    lines = notation_lines(spring, "fr", gm)
    assert lines[0] == "Nord :"  # headings in the variant's order and names
    assert [ln for ln in lines if ln.endswith(":")] == ["Nord :", "Est :", "Ouest :"]

    fall_sheet = "West: A WST - MID\nWest: F WES S A WST - MID\nNorth: F CSE - MID"
    fall = adjudicate(spring.position, orders(gm, spring.position, fall_sheet), DATC, gm)
    assert fall.position.centers["MID"] is WEST  # the neutral centre, taken in the fall
    winter = fall.position
    assert winter.phase == Phase.parse("W1901A")
    builds = orders(gm, winter, "West: build army Willow")
    after = adjudicate(winter, builds, DATC, gm)
    assert str(after.position.units["WHI"]) == "A WHI"
    assert after.position.units["WHI"].power is WEST
    assert len(after.position.centers_of(WEST)) == 3


def test_a_convoy_across_the_test_variants_seas() -> None:
    gm = tri()
    start = gm.start
    sheet = "WEST: F WES - CLD\nEAST: F EAS - NOR\nNORTH: F NOR - CSE\nNORTH: A NHI H"
    spring = adjudicate(start, orders(gm, start, sheet), DATC, gm)
    assert str(spring.position.units["CLD"]) == "F CLD"
    fall_sheet = "WEST: A WHI - WES\nWEST: F CLD H"
    fall = adjudicate(spring.position, orders(gm, spring.position, fall_sheet), DATC, gm)
    assert str(fall.position.units["WES"]) == "A WES"


def test_scoring_uses_the_variants_powers_and_centres() -> None:
    scores = score("sum-of-squares", {NORTH: 3, EAST: 2, WEST: 2}, game_map=tri())
    assert set(scores) == {NORTH, EAST, WEST}
    assert scores[NORTH] == pytest.approx(100 * 9 / 17)


def test_sandard_is_bundled_with_six_powers_and_a_solo_at_16() -> None:
    assert set(bundled_maps()) >= {"standard", "sandard"}
    six = load_map("sandard")
    assert len(six.powers) == 6
    assert Power.TURKEY not in six.powers
    assert len(six.supply_centers) == 31
    assert solo_threshold(six, 18) == 16  # the board's own threshold beats a preset's 18
    assert solo_threshold(load_map("standard"), None) == 18


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["provinces"][0].update(home="SOUTH"), "not a power of the map"),
        (lambda d: d["start"]["units"].update(SOUTH=["A WST"]), "not powers"),
        (lambda d: d["powers"].append(d["powers"][0]), "names a power twice"),
        (lambda d: d["powers"][0].update(colour="blue"), "colour"),
        (lambda d: d["powers"][0].update(id="north"), "power id"),
        (lambda d: d.update(solo_centers=0), "solo_centers"),
    ],
)
def test_a_broken_variant_file_is_refused_with_the_reason(tmp_path: Path, change, message) -> None:
    doc = json.loads(TRI_PATH.read_text(encoding="utf-8"))
    change(doc)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(MapError, match=message):
        load_map(str(bad))


def test_a_variant_name_is_a_name_or_a_path() -> None:
    with pytest.raises(MapError, match="not a map name"):
        load_map("..")
    with pytest.raises(MapError, match="not found"):
        load_map("atlantis")


def test_free_placement_is_a_start_in_winter_with_centres_and_no_units() -> None:
    doc = json.loads(TRI_PATH.read_text(encoding="utf-8"))
    doc["start"] = {"phase": "W1900A", "centers": doc["start"]["centers"]}
    doc["expected_start_units"] = 0
    gm = parse_map(doc, "free")
    sheet = "West: build F WES\nWest: build A WHI\nNorth: build A NOR"
    out = adjudicate(gm.start, orders(gm, gm.start, sheet), DATC, gm)
    assert out.position.phase == Phase.parse("S1901M")
    assert {p: str(u) for p, u in out.position.units.items()} == {
        "WES": "F WES",
        "WHI": "A WHI",
        "NOR": "A NOR",
    }


def test_home_spaces_are_variant_data_and_checked() -> None:
    # Stab! rule 1 starts units in the coloured home regions: the map file says which.
    gm = load_map("standard")
    assert gm.power_info[Power.ENGLAND].home_spaces == {"CLY", "EDI", "LON", "LVP", "WAL", "YOR"}
    raw = json.loads((data_dir() / "maps" / "standard.json").read_text(encoding="utf-8"))
    raw["powers"][0]["home_spaces"].append("ADR")
    with pytest.raises(MapError, match="home space ADR of AUSTRIA is a sea"):
        parse_map(raw, "standard")
