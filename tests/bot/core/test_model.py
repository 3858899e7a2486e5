import pickle
from dataclasses import fields
from types import MappingProxyType

import pytest

from bot.core.map import load_map
from bot.core.model import (
    NATIVE,
    Coast,
    DislodgedUnit,
    Location,
    ModelError,
    Phase,
    PhaseKind,
    Position,
    Power,
    Season,
    Unit,
    UnitType,
    _PositionTwin,
    dislodged_unit,
)
from tests.standard import STANDARD


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("S1901M", "S1901M"),
        ("f1903r", "F1903R"),
        ("W1905A", "W1905A"),
        ("Spring 1901 Movement", "S1901M"),
        ("Printemps 1901", "S1901M"),
        ("Automne 1902 Retraites", "F1902R"),
        ("Winter 1901", "W1901A"),
        ("Hiver 1910", "W1910A"),
    ],
)
def test_phase_parse(text, expected):
    assert str(Phase.parse(text)) == expected


@pytest.mark.parametrize("text", ["", "S1901A", "W1901M", "Summer", "Spring nineteen"])
def test_phase_parse_rejects(text):
    with pytest.raises(ModelError):
        Phase.parse(text)


def test_phase_sequence():
    p = Phase.parse("S1901M")
    seq = [str(p)]
    for _ in range(5):
        p = p.next
        seq.append(str(p))
    assert seq == ["S1901M", "S1901R", "F1901M", "F1901R", "W1901A", "S1902M"]
    assert Phase(1901, Season.FALL, PhaseKind.MOVEMENT).describe("fr") == "Automne 1901 Mouvements"


def test_power_names_are_the_variants():
    assert STANDARD.parse_power("autriche") is Power.AUSTRIA
    assert STANDARD.parse_power("Autriche-Hongrie") is Power.AUSTRIA
    assert STANDARD.parse_power(" TURKEY ") is Power.TURKEY
    assert STANDARD.parse_power("française") is Power.FRANCE
    with pytest.raises(ModelError):
        STANDARD.parse_power("Prussia")
    with pytest.raises(ModelError):  # Turkey does not play on the six-player board
        load_map("sandard").parse_power("Turquie")


def test_powers_are_open_interned_ids():
    assert Power("NORTH") is Power.of(" north ")
    assert Power("FRANCE") is Power.FRANCE
    assert Power.FRANCE == "FRANCE"
    assert pickle.loads(pickle.dumps(Power("NORTH"))) is Power("NORTH")
    with pytest.raises(ModelError):
        Power("not an id")
    with pytest.raises(TypeError):
        iter(Power)  # type: ignore[call-overload]  # no fixed list to walk


def test_unit_and_location():
    u = Unit.parse(Power.RUSSIA, "f stp/sc")
    assert str(u) == "F STP/SC"
    assert Location.parse("SPA/NC").coast is not None
    with pytest.raises(ModelError):
        Unit.parse(Power.RUSSIA, "X PAR")


def test_position_adopt_wraps_without_copying():
    phase = Phase.parse("F1901M")
    units = {"PAR": Unit.parse(Power.FRANCE, "A PAR")}
    centers = MappingProxyType({"PAR": Power.FRANCE})
    pos = Position.adopt(phase, units, centers)
    assert pos == Position(phase, units, dict(centers))
    assert pos.centers is centers  # a read-only view is kept as it is
    assert isinstance(pos.units, MappingProxyType)
    with pytest.raises(TypeError):
        pos.units["BUR"] = units["PAR"]  # type: ignore[index]
    assert type(pos) is Position
    with pytest.raises(AttributeError):
        pos.phase = phase  # type: ignore[misc]
    gone = (DislodgedUnit(units["PAR"], "BUR", frozenset({"GAS"})),)
    full = Position.adopt(phase, units, centers, gone)
    assert (full.phase, dict(full.units), full.centers, full.dislodged) == (
        phase,
        units,
        centers,
        gone,
    )
    assert hash(full.phase) == hash(phase)
    # adopt fills a twin of Position's slots (bot.core.compiled.twin): they must be its fields
    if not NATIVE:  # compiled: no twin, its constructor
        assert sorted(_PositionTwin.__slots__) == sorted(f.name for f in fields(Position))


def test_dislodged_unit_is_the_dataclasss_construction() -> None:
    unit = Unit(Power("FRANCE"), UnitType.FLEET, Location("STP", Coast.SOUTH))
    fast = dislodged_unit(unit, "BOT", frozenset({"LVN", "FIN"}))
    slow = DislodgedUnit(unit, "BOT", frozenset({"LVN", "FIN"}))
    assert type(fast) is DislodgedUnit
    assert (fast.unit, fast.attacker_from, fast.retreats) == (unit, "BOT", {"LVN", "FIN"})
    assert (fast, hash(fast), repr(fast)) == (slow, hash(slow), repr(slow))
