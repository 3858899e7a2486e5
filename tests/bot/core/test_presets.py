"""Rule presets as data: the loader, and each preset's distinctive choices with its seed line."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.core import presets
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

PRESETS = ["datc", "edc2023", "house", "stabbeurfou", "world-masters"]


def test_the_five_presets_exist():
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
    keys = [ln for ln in text.splitlines() if ln and not ln.startswith("#")]
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
    assert sf.stalemate_years == 3
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
    for field in RuleSet.option_names():
        if field not in changed:
            assert getattr(edc, field) == getattr(DATC, field), field
