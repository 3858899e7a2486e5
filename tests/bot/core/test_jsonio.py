"""POSITION JSON (bot.core.jsonio): errors name what is wrong and where."""

from __future__ import annotations

import pytest

from bot.core.jsonio import FormatError, position_from_json, position_to_json


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
