"""Rule presets as data: the loader, and each preset's distinctive choices with its seed line."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.core import presets
from bot.core.map import load_map
from bot.core.model import Phase, Position, Power, Unit
from bot.core.presets import RulesError, list_presets, load_rules, load_rules_file
from bot.core.rules import (
    DATC,
    AdjacentConvoy,
    Choice,
    CivilDisorder,
    ConvoyParadox,
    DuplicateOrders,
    RuleSet,
)
from tests.standard import adjudicate, interpret, parse_order

PRESETS = ["datc", "edc2023", "house", "stab", "stabbeurfou", "world-masters"]


def test_the_six_presets_exist():
    assert list_presets() == PRESETS


@pytest.mark.parametrize("name", PRESETS)
def test_each_preset_loads_and_is_named(name):
    rules = load_rules(name)
    assert isinstance(rules, RuleSet)
    assert rules.name == name


def test_datc_preset_is_the_datc_preferred_ruleset():
    # OPTIONS.md "What the test data assumes": the RuleSet defaults are DATC v3.0 preferred.
    assert load_rules("datc") == DATC


def test_load_rules_is_cached():
    assert load_rules("house") is load_rules("house")


def test_unknown_preset_names_the_file_and_lists_the_presets():
    with pytest.raises(RulesError) as err:
        load_rules("nope")
    assert "nope.toml" in str(err.value)
    assert "stabbeurfou" in str(err.value)


@pytest.mark.parametrize("bad", ["../datc", "", ".hidden"])
def test_path_like_names_are_refused(bad):
    with pytest.raises(RulesError):
        load_rules(bad)


def _copy_without(tmp_path: Path, key: str, replace: str | None = None) -> Path:
    src = (presets.rules_dir() / "datc.toml").read_text(encoding="utf-8")
    out = []
    for line in src.splitlines():
        if line.startswith(f"{key} ="):
            if replace is not None:
                out.append(replace)
            continue
        out.append(line)
    path = tmp_path / "broken.toml"
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    return path


def test_missing_field_is_an_error_naming_file_and_key(tmp_path):
    path = _copy_without(tmp_path, "civil_disorder")
    with pytest.raises(RulesError) as err:
        load_rules_file(path)
    assert "broken.toml" in str(err.value)
    assert "civil_disorder" in str(err.value)


def test_unknown_key_is_an_error(tmp_path):
    path = _copy_without(tmp_path, "waive_allowed", "waive_allowed = true\nwaive_alowed = true")
    with pytest.raises(RulesError, match="waive_alowed"):
        load_rules_file(path)


def test_bad_enum_value_lists_the_allowed_ones(tmp_path):
    path = _copy_without(tmp_path, "convoy_paradox", 'convoy_paradox = "z"')
    with pytest.raises(RulesError) as err:
        load_rules_file(path)
    assert "convoy_paradox" in str(err.value)
    assert "'z'" in str(err.value)


def test_bool_field_refuses_a_string(tmp_path):
    path = _copy_without(tmp_path, "waive_allowed", 'waive_allowed = "yes"')
    with pytest.raises(RulesError, match="waive_allowed"):
        load_rules_file(path)


def test_malformed_toml_names_the_file(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text("multi_route = = b\n", encoding="utf-8")
    with pytest.raises(RulesError, match=r"bad\.toml"):
        load_rules_file(path)


def test_majority_means_none_for_solo_centers():
    assert load_rules("datc").solo_centers is None


@pytest.mark.parametrize("name", PRESETS)
def test_every_line_cites_its_source(name):
    # Every key line carries a comment citing the seed line or OPTIONS.md row.
    text = (presets.rules_dir() / f"{name}.toml").read_text(encoding="utf-8")
    keys = [ln for ln in text.splitlines() if ln and not ln.startswith(("#", "["))]
    assert len(keys) == len(RuleSet.option_names())
    for line in keys:
        assert "  # " in line, line
        assert len(line.split("  # ", 1)[1]) > 10, line


# --- distinctive choices, each from its seed line ---------------------------------------------


def test_stabbeurfou_distinctive_choices():
    sf = load_rules("stabbeurfou")
    # SF 4.A.2 'd d Compliant': DATC 2.x d is the Szykman rule (v3.0 f).
    assert sf.convoy_paradox is ConvoyParadox.SZYKMAN
    # SF 4.A.3 'c': "uses the land route first if unopposed, otherwise any successful convoy".
    assert sf.adjacent_convoy is AdjacentConvoy.RULE_1971
    # SF 4.A.5 'a': "a move by convoy [is] not different from a move by land on this matter".
    assert sf.retreat_to_convoyed_attacker_origin is False
    # SF 4.B.4 'e': "requires to specify coast in supported move when two coasts are possible".
    assert sf.support_requires_coast is True
    # SF 4.B.5 / 4.B.6 'a': rejects any wrong or unrequested coast.
    assert sf.wrong_unit_coast_ignored is False
    assert sf.irrelevant_coast_ignored is False
    # SF 4.C.2 / 4.C.6 'a': "rejects any order with any extra information that is inaccurate".
    assert sf.wrong_unit_type is Choice.A
    assert sf.wrong_nationality is Choice.A
    # SF 4.C.1 'a/b': the type is only mandatory for the ordered unit.
    assert sf.unit_type_required is True
    assert sf.missing_unit_type is Choice.B
    # SF 4.D.1-6: "rejects any set of order with any order extra than that is requested".
    assert sf.reject_inaccurate_order_sets is True
    # SF 4.D.8 'e': DATC 2.x e, armies and fleets both over any terrain.
    assert sf.civil_disorder is CivilDisorder.HOME_BOTH_ANY_TERRAIN
    # SF 2(i): "at least 18 centres for the absolute victory"; 2(a): three unchanged years.
    assert sf.solo_centers == 18
    assert sf.end.stalemate_years == 3
    assert sf.expedited_removal is True  # SF 3


def test_world_masters_distinctive_choices():
    wm = load_rules("world-masters")
    assert wm.duplicate_orders is DuplicateOrders.LAST  # I(5): "the last order ... will be used"
    # III(2): builds/disbands followed "from bottom to top"; III(3): first reading upwards.
    assert wm.too_many_builds is Choice.B
    assert wm.too_many_disbands is Choice.B
    assert wm.two_builds_same_province is Choice.B
    assert wm.builds_read_bottom_to_top is True
    assert wm.civil_disorder is CivilDisorder.WORLD_MASTERS  # III(4)
    # II(3)b: inaccurate coast never invalidates a move; II(3)c: nor a support, unless ambiguous.
    assert wm.unreachable_coast_illegal is False
    assert wm.support_coast_mismatch_ignored is True
    assert wm.support_requires_coast is True
    assert wm.army_build_with_coast_fails is True  # III(5) (added)
    assert wm.implicit_orders is False  # I(2)


def test_house_distinctive_choices():
    h = load_rules("house")
    assert h.convoyed_attack_cuts_support_on_itself is True  # VI(5) Alternative A
    assert h.retreat_to_convoyed_attacker_origin is False  # VI(1) Alternative A
    assert h.fleet_build_inland_makes_army is True  # V(5) Alternative B
    assert h.illegal_move_receives_hold_support is False  # III(5) Alternative A
    assert h.duplicate_orders is DuplicateOrders.HOLD  # III(6) Alternative C
    assert h.civil_disorder is CivilDisorder.HOUSE  # V(4) Alternative C
    assert h.order_sets is Choice.D  # III(4) Alternative A
    assert h.late_orders_accepted is True  # VII(3) Alternative B
    assert h.non_dias_draws is True  # IX(2)
    assert h.solo_centers == 18  # IX(1)


def test_edc2023_distinctive_choices_and_datc_elsewhere():
    edc = load_rules("edc2023")
    # E: "A unit receiving several different orders will be considered civil disorder, even if
    # some of the orders were invalid."
    assert edc.duplicate_orders is DuplicateOrders.CIVIL_DISORDER
    assert edc.duplicates_count_illegal_orders is True
    assert edc.too_many_builds is Choice.C  # E: "the lowest written orders are kept"
    assert edc.civil_disorder is CivilDisorder.EDC_RENEGADE_2023  # E: "Renegade rule 2023"
    assert edc.implicit_orders is True  # E: incomplete order completed by own support/convoy
    assert edc.first_year_imposed_builds == 2  # E: "up to two builds – no third build"
    # Where section E is silent, datc.
    changed = {"duplicate_orders", "duplicates_count_illegal_orders", "too_many_builds"}
    changed |= {"civil_disorder", "implicit_orders", "first_year_imposed_builds"}
    # edc-2023 B and E: 7 years, the End Game Request procedure; C: its own scoring.
    changed |= {f for f in RuleSet.option_names() if f.split(".")[0] in ("votes", "end")}
    changed |= {"scoring.system"}
    # E: "an unambiguous order must be applied and an order deemed ambiguous not applied".
    changed |= {"unreadable_orders"}
    for field in RuleSet.option_names():
        if field not in changed:
            assert edc.option(field) == DATC.option(field), field


# --- distinctive rulings, adjudicated (parser -> interpretation -> adjudicator) -----------------


def _adjudicate(rules, phase, units, given, centers=None):
    gm = load_map("standard")
    us = [Unit.parse(Power.of(p), t) for p, ts in units.items() for t in ts]
    owned = {c: Power.of(p) for p, cs in (centers or {}).items() for c in cs}
    pos = Position.build(Phase.parse(phase), us, owned)
    orders = [
        parse_order(t, power=Power.of(p), position=pos, game_map=gm)
        for p, ts in given.items()
        for t in ts
    ]
    it = interpret(pos, orders, rules, gm)
    return adjudicate(pos, list(it.orders), rules, gm)


def _units(outcome):
    return sorted(str(u) for u in outcome.position.units.values())


def test_house_convoyed_attack_cuts_support_on_itself_datc_6g13_alternative():
    # house-rules VI(5) Alternative A: "the convoyed army will cut the support" (4.A.4 b).
    units = {"Austria": ["F ADR", "A TRI"], "Italy": ["F ALB", "A VEN"]}
    given = {
        "Austria": ["F ADR C A TRI - VEN", "A TRI - VEN VIA"],
        "Italy": ["A VEN S F ALB - TRI", "F ALB - TRI"],
    }
    house = _adjudicate(load_rules("house"), "S1901M", units, given)
    assert not house.dislodged
    assert _units(house) == ["A TRI", "A VEN", "F ADR", "F ALB"]
    datc = _adjudicate(load_rules("datc"), "S1901M", units, given)
    assert [str(d.unit) for d in datc.dislodged] == ["A TRI"]


def test_house_and_stabbeurfou_no_retreat_to_convoyed_attackers_origin_datc_6h11():
    # house-rules VI(1) Alternative A; Stabbeurfou 4.A.5 'a': "a move by convoy [is] not
    # different from a move by land on this matter".
    units = {"France": ["A BUR", "A GAS", "F LYO", "F MAO", "F WES"], "Italy": ["A MAR"]}
    given = {
        "France": [
            "A GAS - MAR VIA",
            "A BUR S A GAS - MAR",
            "F MAO C A GAS - MAR",
            "F WES C A GAS - MAR",
            "F LYO C A GAS - MAR",
        ],
        "Italy": ["A MAR H"],
    }
    datc = _adjudicate(load_rules("datc"), "S1901M", units, given)
    assert "GAS" in datc.dislodged[0].retreats  # 4.A.5 b (2023 rulebook)
    house = _adjudicate(load_rules("house"), "S1901M", units, given)
    assert [str(d.unit) for d in house.dislodged] == ["A MAR"]
    assert "GAS" not in house.dislodged[0].retreats


def test_house_fleet_built_inland_becomes_an_army_datc_6i2_alternative():
    # house-rules V(5) Alternative B: "an army will be built based on that order" (4.C.4 b).
    units = {"Russia": ["F SEV", "F STP/SC"]}
    centers = {"Russia": ["MOS", "SEV", "STP", "WAR"]}
    house = _adjudicate(load_rules("house"), "W1901A", units, {"Russia": ["F MOS B"]}, centers)
    assert "A MOS" in _units(house)
    datc = _adjudicate(load_rules("datc"), "W1901A", units, {"Russia": ["F MOS B"]}, centers)
    assert "A MOS" not in _units(datc)


def test_house_unit_ordered_to_move_gets_no_hold_support():
    # house-rules III(5) Alternative A: "A unit ordered to move will not be allowed to receive
    # support to hold, irrespective of whether the unit is able to move in the manner stated."
    units = {"France": ["A PAR", "A PIC"], "Germany": ["A BUR", "A GAS"]}
    given = {
        "France": ["A PAR - MUN", "A PIC S A PAR"],
        "Germany": ["A BUR - PAR", "A GAS S A BUR - PAR"],
    }
    house = _adjudicate(load_rules("house"), "S1901M", units, given)
    assert [str(d.unit) for d in house.dislodged] == ["A PAR"]
    datc = _adjudicate(load_rules("datc"), "S1901M", units, given)  # 4.E.1: it holds, supported
    assert not datc.dislodged


def test_world_masters_army_build_with_a_coast_builds_nothing():
    # gm-order-correction-rules III(5) (added): "If a player orders to build an army on a coast
    # where a fleet could be legally built, nothing will be built."
    centers = {"Russia": ["STP"]}
    wm = _adjudicate(load_rules("world-masters"), "W1901A", {}, {"Russia": ["A STP/NC B"]}, centers)
    assert _units(wm) == []
    datc = _adjudicate(load_rules("datc"), "W1901A", {}, {"Russia": ["A STP/NC B"]}, centers)
    assert _units(datc) == ["A STP"]  # 4.B.6 b: the coast is ignored


def test_stabbeurfou_adjacent_convoy_uses_land_route_unless_opposed():
    # Stabbeurfou 4.A.3 'c': "uses the land route first if unopposed, otherwise any successful
    # convoy route"; "Any notation 'by convoy' ... will be ignored". An English army ordered
    # via convoy to the adjacent Belgium with no fleet ordered: it moves by land.
    units = {"England": ["A PIC"]}
    given = {"England": ["A PIC - BEL VIA"]}
    sf = _adjudicate(load_rules("stabbeurfou"), "S1901M", units, given)
    assert _units(sf) == ["A BEL"]
    datc = _adjudicate(load_rules("datc"), "S1901M", units, given)  # 4.A.3 c: no fallback
    assert _units(datc) == ["A PIC"]


def test_edc_civil_disorder_removal_by_section_g_order():
    # edc-2023 E: ties "in alphabetical order in English (lowest number in the list appearing
    # in section G)": Tuscany (65) before Trieste (66); the 2023 rule of datc says Trieste.
    units = {"Italy": ["A TRI", "A TUS"]}
    centers = {"Italy": ["VEN"]}
    edc = _adjudicate(load_rules("edc2023"), "W1901A", units, {}, centers)
    assert _units(edc) == ["A TRI"]
    datc = _adjudicate(load_rules("datc"), "W1901A", units, {}, centers)
    assert _units(datc) == ["A TUS"]
