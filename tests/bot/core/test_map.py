import json
from pathlib import Path

import pytest

from bot.core.map import MapError, load_map, load_map_file
from bot.core.model import Coast, Location, Power, ProvinceKind, UnitType
from bot.paths import data_dir
from tests.standard import STANDARD


@pytest.fixture(scope="module")
def std():
    return load_map("standard")


def test_counts(std):
    assert len(std.provinces) == 75
    assert len(std.supply_centers) == 34
    assert len(std.start.units) == 22
    kinds = [p.kind for p in std.provinces.values()]
    assert kinds.count(ProvinceKind.SEA) == 19
    assert kinds.count(ProvinceKind.LAND) == 14


def test_split_coasts(std):
    assert std.province("SPA").coasts == (Coast.NORTH, Coast.SOUTH)
    assert std.province("STP").coasts == (Coast.NORTH, Coast.SOUTH)
    assert std.province("BUL").coasts == (Coast.EAST, Coast.SOUTH)


def test_homes(std):
    assert std.home_centers(Power.RUSSIA) == {"MOS", "SEV", "STP", "WAR"}
    assert sum(len(std.home_centers(p)) for p in STANDARD.powers) == 22


@pytest.mark.parametrize(
    ("src", "pid", "expected"),
    [
        ("GAS", "SPA", ["SPA/NC"]),
        ("MAO", "SPA", ["SPA/NC", "SPA/SC"]),
        ("POR", "SPA", ["SPA/NC", "SPA/SC"]),
        ("CON", "BUL", ["BUL/EC", "BUL/SC"]),
        ("BLA", "BUL", ["BUL/EC"]),
        ("BOT", "STP", ["STP/SC"]),
        ("WES", "SPA", ["SPA/SC"]),
    ],
)
def test_reachable_coasts(std, src, pid, expected):
    got = [str(x) for x in std.reachable_coasts(Location.parse(src), pid)]
    assert got == expected


def test_adjacency_rules(std):
    # Kiel and Constantinople are canals: fleets pass, armies too by land.
    assert std.adjacent(UnitType.FLEET, Location("KIE"), Location("BAL"))
    assert std.adjacent(UnitType.FLEET, Location("HOL"), Location("KIE"))
    # No fleet move along a coast that is not shared: Yorkshire-Wales is land only.
    assert not std.adjacent(UnitType.FLEET, Location("YOR"), Location("WAL"))
    assert std.adjacent(UnitType.ARMY, Location("YOR"), Location("WAL"))
    assert not std.adjacent(UnitType.ARMY, Location("PAR"), Location("ENG"))
    assert not std.adjacent(UnitType.FLEET, Location("SPA", Coast.NORTH), Location("MAR"))


def _broken(tmp_path: Path, mutate) -> Path:
    raw = json.loads((data_dir() / "maps" / "standard.json").read_text(encoding="utf-8"))
    mutate(raw)
    p = tmp_path / "broken.json"
    p.write_text(json.dumps(raw), encoding="utf-8")
    return p


def test_asymmetric_adjacency_names_province(tmp_path):
    def mutate(raw):
        raw["army_adjacency"]["PAR"].remove("BUR")

    with pytest.raises(MapError, match="BUR"):
        load_map_file(_broken(tmp_path, mutate))


def test_wrong_centre_count_is_an_error(tmp_path):
    def mutate(raw):
        for p in raw["provinces"]:
            if p["id"] == "BEL":
                p["supply_center"] = False

    with pytest.raises(MapError, match="33 supply centres"):
        load_map_file(_broken(tmp_path, mutate))


def test_unknown_province_in_adjacency(tmp_path):
    def mutate(raw):
        raw["fleet_adjacency"]["NTH"].append("XYZ")

    with pytest.raises(MapError, match="XYZ"):
        load_map_file(_broken(tmp_path, mutate))


def test_missing_file(tmp_path):
    with pytest.raises(MapError, match="not found"):
        load_map_file(tmp_path / "nope.json")
