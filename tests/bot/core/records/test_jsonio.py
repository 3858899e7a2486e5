"""POSITION JSON (bot.core.records.jsonio): errors name what is wrong and where."""

from __future__ import annotations

import pytest

from bot.core.map import load_map
from bot.core.records.jsonio import FormatError, position_from_json, position_to_json


def test_missing_phase_says_it_is_missing() -> None:
    with pytest.raises(FormatError) as err:
        position_from_json({"units": {"FRANCE": ["A PAR"]}})
    assert str(err.value) == 'position: missing "phase" (e.g. "S1901M")'


def test_bad_phase_names_the_value() -> None:
    with pytest.raises(FormatError) as err:
        position_from_json({"phase": "X1901M"})
    assert str(err.value).startswith("position.phase: not a phase: 'X1901M'")


def test_round_trip() -> None:
    doc = {"phase": "S1901M", "units": {"FRANCE": ["A PAR"]}, "centers": {"FRANCE": ["PAR"]}}
    assert position_to_json(position_from_json(doc)) == doc


def test_fleet_in_a_two_coast_province_is_told_to_name_the_coast() -> None:
    with pytest.raises(FormatError) as err:
        position_from_json(
            {"phase": "S1901M", "units": {"FRANCE": ["F SPA"]}}, load_map("standard")
        )
    assert str(err.value) == (
        "position: F SPA: a fleet there stands on a coast: write F SPA/NC or F SPA/SC"
    )


def test_army_at_sea_cannot_stand_there() -> None:
    with pytest.raises(FormatError) as err:
        position_from_json(
            {"phase": "S1901M", "units": {"FRANCE": ["A NTH"]}}, load_map("standard")
        )
    assert str(err.value) == "position: A NTH cannot stand in NTH"


def test_dislodged_units_only_in_a_retreat_phase() -> None:
    dislodged = [{"power": "FRANCE", "unit": "A BUR", "attacker_from": "MUN", "retreats": []}]
    with pytest.raises(FormatError) as err:
        position_from_json({"phase": "S1901M", "dislodged": dislodged})
    assert str(err.value) == (
        "position.dislodged: units await retreat only in a retreat phase, not in S1901M"
    )
    assert position_from_json({"phase": "S1901R", "dislodged": dislodged}).dislodged
