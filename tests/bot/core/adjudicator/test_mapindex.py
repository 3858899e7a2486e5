"""Precomputed tables: convoy routes, distances, fleet reach."""

from __future__ import annotations

from bot.core.adjudicator.legality import chordless_route_through
from bot.core.adjudicator.mapindex import distances, map_index
from bot.core.model import Coast, Location, Power, Unit, UnitType
from bot.core.orders import Hold, UnitRef
from bot.core.outcome import OrderResult, Verdict
from tests.bot.core.adjudicator.helpers import GM

IDX = map_index(GM)


def test_map_index_is_cached_per_map() -> None:
    assert map_index(GM) is IDX


def test_route_exists() -> None:
    assert IDX.route_exists("LON", "BEL", {"ENG"})
    assert IDX.route_exists("LON", "TUN", {"ENG", "MAO", "WES"})
    assert not IDX.route_exists("LON", "TUN", {"ENG", "WES"})


def test_chordless_route_through() -> None:
    assert chordless_route_through(IDX, "MAR", "SPA", frozenset({"LYO", "WES"}), "LYO")
    assert not chordless_route_through(IDX, "MAR", "SPA", frozenset({"LYO", "WES"}), "WES")


def test_distances_cross_land_and_sea() -> None:
    d = distances(IDX, ["WAR"])
    assert d["WAR"] == 0
    assert d["MOS"] == 1
    assert d["BAL"] == 2  # WAR - PRU - BAL


def test_fleet_reach_by_coast() -> None:
    assert IDX.fleet_reach[Location("MAO")]["SPA"] == (
        Location.parse("SPA/NC"),
        Location.parse("SPA/SC"),
    )
    assert IDX.fleet_reach_s["GAS"]["SPA"] == (Location.parse("SPA/NC"),)


def test_unit_and_implied_hold_tables() -> None:
    fleet = Unit(Power.RUSSIA, UnitType.FLEET, Location("STP", Coast.SOUTH))
    assert IDX.units["STP"][Power.RUSSIA, UnitType.FLEET, Coast.SOUTH] == fleet
    army = Unit(Power.FRANCE, UnitType.ARMY, Location("PAR"))
    assert IDX.units["PAR"][Power.FRANCE, UnitType.ARMY, None] == army
    assert (Power.FRANCE, UnitType.FLEET, None) not in IDX.units["PAR"]  # inland
    assert (Power.FRANCE, UnitType.ARMY, None) not in IDX.units["NTH"]  # sea
    hold = Hold(Power.FRANCE, UnitRef(UnitType.ARMY, Location("PAR"), Power.FRANCE))
    expected = OrderResult(Power.FRANCE, hold, Verdict.SUCCEEDS, implied=True)
    assert IDX.held["PAR"][Power.FRANCE, UnitType.ARMY, None] == expected


def test_distances_memo_by_target_set() -> None:
    first = distances(IDX, ["MOS", "WAR"])
    assert distances(IDX, ("WAR", "MOS")) is first  # the same set, in any order
    IDX.dist_memo.clear()
    again = distances(IDX, ["WAR", "MOS"])
    assert again is not first
    assert again == first
    assert again["PRU"] == 1


def test_fleet_reach_lists_coasts_in_the_maps_order() -> None:
    # fleet_dest names the coasts a fleet could mean in this order (illegal.which_coast)
    for loc, near in GM.fleet_adj.items():
        for pid, reach in IDX.fleet_reach[loc].items():
            assert reach == tuple(x for x in GM.fleet_locations(pid) if x in near)
        assert set(IDX.fleet_reach[loc]) == {d.province for d in near}
