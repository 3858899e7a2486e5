"""The EDC "Sandard" variant (edc-2023 section B): "game without Turkey with Turkey
represented by a neutral center and Romania without a center" - 31 centres."""

from __future__ import annotations

from bot.core.map import load_map
from bot.core.model import Power
from tests.standard import STANDARD


def test_sandard_loads_with_31_centres_and_six_powers() -> None:
    m = load_map("sandard")
    assert len(m.supply_centers) == 31
    assert Power.TURKEY not in m.powers
    assert len(m.powers) == 6
    assert len(m.start.units) == 19
    assert Power.TURKEY not in m.start.powers()


def test_sandard_changes_only_the_turkish_and_rumanian_centres() -> None:
    std, san = load_map("standard"), load_map("sandard")
    assert std.supply_centers - san.supply_centers == {"ANK", "SMY", "RUM"}
    assert san.supply_centers <= std.supply_centers
    # Constantinople is the one neutral centre that stands for Turkey.
    assert san.province("CON").supply_center
    assert san.province("CON").home is None
    assert not san.province("RUM").supply_center
    assert san.home_centers(Power.TURKEY) == frozenset()
    # Same geography: the standard orders, adjacencies and renderer geometry apply.
    assert san.army_adj == std.army_adj
    assert san.fleet_adj == std.fleet_adj
    assert set(san.provinces) == set(std.provinces)
    for p in STANDARD.powers:
        if p is not Power.TURKEY:
            assert san.home_centers(p) == std.home_centers(p)
            assert san.start.units_of(p) == std.start.units_of(p)


def test_sandard_shares_the_standard_names_and_geometry() -> None:
    # Same geography: a variant names its family, whose names/geometry files it uses.
    assert load_map("sandard").base == "standard"
    assert load_map("standard").base == "standard"
