"""Civil-disorder removals under each rule, checked against the seed lines and DATC 6.J."""

from __future__ import annotations

import json

import pytest

from bot.core.adjudicator.civil_disorder import EDC_SECTION_G, distance_to_targets, removal_rule
from bot.core.map import load_map
from bot.core.model import Phase, Position, Power, Unit
from bot.core.rules import CivilDisorder
from tests.shared import DATC_CASES

MAP = load_map("standard")
W1901 = Phase.parse("W1901A")


def pos(units: dict[Power, list[str]], centers: dict[Power, list[str]] | None = None) -> Position:
    us = [Unit.parse(p, t) for p, ts in units.items() for t in ts]
    owned = {c: p for p, cs in (centers or {}).items() for c in cs}
    return Position.build(W1901, us, owned)


def removed(rule: CivilDisorder, position: Position, power: Power, n: int = 1) -> list[str]:
    return [str(u) for u in removal_rule(rule)(position, power, n, MAP)]


def dist(rule: CivilDisorder, position: Position, prov: str) -> int:
    unit = position.units[prov]
    return distance_to_targets(rule, position, unit, MAP)


# --- World Masters: gm-order-correction-rules III(4) ------------------------------------------


def test_world_masters_army_counts_water_russian_army_in_con_is_two():
    # III(4): "a Russian army in Constantinople, for example, would stand two spaces distant".
    p = pos({Power.RUSSIA: ["A CON"]}, {Power.TURKEY: ["SEV"]})
    assert dist(CivilDisorder.WORLD_MASTERS, p, "CON") == 2


def test_world_masters_fleet_legal_moves_russian_fleet_bul_sc_is_three():
    # III(4): "a Russian fleet on the south coast of Bulgaria ... would stand three spaces".
    # "It does not matter ... whether a foreign Power controls the nearest home center".
    p = pos({Power.RUSSIA: ["F BUL/SC"]}, {Power.TURKEY: ["SEV"]})
    assert dist(CivilDisorder.WORLD_MASTERS, p, "BUL") == 3


def test_world_masters_fleets_before_armies_at_equal_distance():
    # III(4): "When an army and a fleet stand equally distant ... removes the fleet".
    p = pos({Power.FRANCE: ["A BUR", "F ENG"]})
    assert removed(CivilDisorder.WORLD_MASTERS, p, Power.FRANCE) == ["F ENG"]


def test_world_masters_ties_by_three_letter_abbreviation():
    # III(4) (* changed): "the names ... are those of the three letter abbreviation used by the
    # system". German fleets in NWY and NWG both need 3 fleet moves to Kiel; NWG < NWY.
    p = pos({Power.GERMANY: ["F NWY", "F NWG"]})
    assert removed(CivilDisorder.WORLD_MASTERS, p, Power.GERMANY) == ["F NWG"]
    # By English name ("Norway" < "Norwegian Sea") the pre-2023 rule picks the other one.
    assert removed(CivilDisorder.HOME_ANY_TERRAIN, p, Power.GERMANY) == ["F NWY"]


def test_world_masters_farthest_first_and_count():
    p = pos({Power.RUSSIA: ["A MOS", "A CON", "F BUL/SC"]})
    assert removed(CivilDisorder.WORLD_MASTERS, p, Power.RUSSIA, 2) == ["F BUL/SC", "A CON"]
    assert len(removed(CivilDisorder.WORLD_MASTERS, p, Power.RUSSIA, 5)) == 3
    assert removed(CivilDisorder.WORLD_MASTERS, p, Power.RUSSIA, 0) == []


# --- EDC "Renegade 2023": edc-2023 section E ------------------------------------------------


def test_edc_section_g_list_has_every_province_once():
    assert sorted(EDC_SECTION_G) == sorted(MAP.provinces)


def test_edc_measures_to_owned_centres_over_any_terrain():
    # E: "farthest from the centers belonging to this nation ... regardless of the nature
    # (land or sea)". DATC 6.J.11's position: Italy owns only Warsaw.
    p = pos({Power.ITALY: ["A TUS", "A WAR"]}, {Power.ITALY: ["WAR"]})
    assert removed(CivilDisorder.EDC_RENEGADE_2023, p, Power.ITALY) == ["A TUS"]


def test_edc_ties_by_section_g_number_not_by_alphabet():
    # E: "the provinces ... first in alphabetical order in English (lowest number in the list
    # appearing in section G)". Section G lists Tuscany (65) before Trieste (66).
    p = pos({Power.ITALY: ["A TRI", "A TUS"]}, {Power.ITALY: ["VEN"]})
    assert removed(CivilDisorder.EDC_RENEGADE_2023, p, Power.ITALY) == ["A TUS"]
    assert removed(CivilDisorder.RULE_2023, p, Power.ITALY) == ["A TRI"]


def test_edc_fleets_before_land_armies():
    # E: "fleets before land armies". Both are two moves from Warsaw over any terrain.
    p = pos({Power.RUSSIA: ["A BOH", "F BAL"]}, {Power.RUSSIA: ["WAR"]})
    assert removed(CivilDisorder.EDC_RENEGADE_2023, p, Power.RUSSIA) == ["F BAL"]


# --- house-rules V(4) Alternative C ---------------------------------------------------------


def test_house_counts_a_convoy_as_one_move():
    # V(4) C: "nearest Home SC by shortest legal route including convoys". With a (Turkish)
    # fleet in the Ionian Sea, A GRE reaches Naples in one convoyed move; A MAR needs two.
    with_fleet = pos({Power.ITALY: ["A GRE", "A MAR"], Power.TURKEY: ["F ION"]})
    assert dist(CivilDisorder.HOUSE, with_fleet, "GRE") == 1
    assert removed(CivilDisorder.HOUSE, with_fleet, Power.ITALY) == ["A MAR"]
    # Without a fleet the route is over land: GRE-ALB-TRI-VEN is three moves.
    without = pos({Power.ITALY: ["A GRE", "A MAR"]})
    assert dist(CivilDisorder.HOUSE, without, "GRE") == 3
    assert removed(CivilDisorder.HOUSE, without, Power.ITALY) == ["A GRE"]


def test_house_army_with_no_legal_route_is_farthest():
    # An English army in Norway with no fleet to carry it cannot reach England at all.
    p = pos({Power.ENGLAND: ["A NWY", "F NAO"]})
    assert removed(CivilDisorder.HOUSE, p, Power.ENGLAND) == ["A NWY"]


def test_house_fleets_use_legal_moves():
    p = pos({Power.RUSSIA: ["F BUL/SC"]})
    assert dist(CivilDisorder.HOUSE, p, "BUL") == 3


# --- pre-2023 practice and Stabbeurfou 4.D.8 'e' ---------------------------------------------


def test_pre_2023_measures_to_home_centres_datc_6j11_alternative():
    # DATC 6.J.11: "Under older rulebooks the army in Tuscany was kept."
    p = pos({Power.ITALY: ["A TUS", "A WAR"]}, {Power.ITALY: ["WAR"]})
    assert removed(CivilDisorder.HOME_ANY_TERRAIN, p, Power.ITALY) == ["A WAR"]
    assert removed(CivilDisorder.RULE_2023, p, Power.ITALY) == ["A TUS"]


def test_stabbeurfou_fleets_also_cross_land():
    # Stabbeurfou 4.D.8 'e' (DATC 2.x e): "Armies may move as a fleet, and fleets may move as
    # an army". F BER is two from Warsaw over land, three by legal fleet moves (to StP).
    p = pos({Power.RUSSIA: ["F BER", "A TYR"]})
    assert dist(CivilDisorder.HOME_BOTH_ANY_TERRAIN, p, "BER") == 2
    assert dist(CivilDisorder.HOME_ANY_TERRAIN, p, "BER") == 3
    assert removed(CivilDisorder.HOME_BOTH_ANY_TERRAIN, p, Power.RUSSIA) == ["A TYR"]
    # Pre-2023 practice: both three, so the fleet goes first.
    assert removed(CivilDisorder.HOME_ANY_TERRAIN, p, Power.RUSSIA) == ["F BER"]


# --- DATC 6.J.3-6.J.11 (2023 rule) under the 2023 rule and EDC Renegade 2023 ----------------


def _six_j_cases() -> list[dict]:
    cases = json.loads(DATC_CASES.read_text(encoding="utf-8"))["cases"]
    return [c for c in cases if c["steps"][0]["expected"].get("civil_disorder_removals")]


@pytest.mark.parametrize("case", _six_j_cases(), ids=lambda c: c["id"])
@pytest.mark.parametrize("rule", [CivilDisorder.RULE_2023, CivilDisorder.EDC_RENEGADE_2023])
def test_datc_6j_removals(case, rule):
    pre = case["prestate"]
    units = {Power.of(p): [u.upper() for u in us] for p, us in pre["units"].items()}
    centers = {Power.of(p): [c.upper() for c in cs] for p, cs in pre["supply_centers"].items()}
    for order in case["steps"][0]["orders"]:  # 6.J.2: drop the unit its valid order removes
        if order["expect"] == "succeeds":
            units[Power.of(order["power"])].remove(f"{order['unit']} {order['loc'].upper()}")
    position = pos(units, centers)
    for pname, expected in case["steps"][0]["expected"]["civil_disorder_removals"].items():
        power = Power.of(pname)
        got = removed(rule, position, power, len(expected))
        assert sorted(got) == sorted(u.upper() for u in expected)
