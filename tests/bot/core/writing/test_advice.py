"""Advice on a set of orders (bot.core.writing.advice): pure, before any wording."""

from __future__ import annotations

from bot.core.map import load_map
from bot.core.model import DislodgedUnit, Location, Phase, Position, Power, Unit, UnitType
from bot.core.orders import Build, Disband, Hold, Move, UnitRef, Waive
from bot.core.presets import load_rules
from bot.core.rules import DuplicateOrders
from bot.core.writing import advice

MAP = load_map("standard")
DATC = load_rules("datc")
START = MAP.start


def ref(power: Power, text: str) -> UnitRef:
    return UnitRef.of(Unit.parse(power, text))


def test_units_without_orders_in_province_order_and_orders_not_yours() -> None:
    orders = [Move(Power.FRANCE, ref(Power.FRANCE, "A PAR"), Location.parse("BUR"))]
    orders.append(Hold(Power.FRANCE, ref(Power.GERMANY, "A MUN")))
    got = advice.advise(START, MAP, DATC, Power.FRANCE, orders)
    assert got == [
        advice.NoOrder(Unit.parse(Power.FRANCE, "F BRE")),
        advice.NoOrder(Unit.parse(Power.FRANCE, "A MAR")),
        advice.NotYours(orders[1], "MUN"),
    ]


def test_several_orders_say_what_the_rule_set_does() -> None:
    par = ref(Power.FRANCE, "A PAR")
    twice = [Hold(Power.FRANCE, par), Move(Power.FRANCE, par, Location.parse("PIC"))]
    got = advice.several_orders(DATC, twice)
    assert got == [advice.SeveralOrders(par, tuple(twice), DATC.duplicate_orders)]
    assert isinstance(DATC.duplicate_orders, DuplicateOrders)
    assert advice.several_orders(DATC, twice[:1]) == []


def _winter(units: list[Unit], centers: dict[str, Power]) -> Position:
    return Position.build(Phase.parse("W1901A"), units, centers)


def test_power_balance_counts_only_free_home_centres() -> None:
    # France: 5 centres, 2 units (A PAR gone): 3 builds owed, but BRE and MAR hold units,
    # so PAR is the one free home centre; a foreign unit there leaves none.
    centers = dict(START.centers) | {"BEL": Power.FRANCE, "SPA": Power.FRANCE}
    units = [u for u in START.units.values() if u.province != "PAR"]
    assert advice.adjustment(_winter(units, centers), MAP, Power.FRANCE) == 1
    occupied = [*units, Unit.parse(Power.GERMANY, "A PAR")]
    assert advice.adjustment(_winter(occupied, centers), MAP, Power.FRANCE) == 0


def test_builds_unused_removals_missing_and_the_coast_a_fleet_needs() -> None:
    centers = dict(START.centers) | {"MOS": Power.TURKEY}  # Russia: 3 centres, 4 units
    pos = _winter(list(START.units.values()), centers)
    assert advice.adjustment(pos, MAP, Power.RUSSIA) == -1
    assert advice.advise(pos, MAP, DATC, Power.RUSSIA, []) == [advice.RemovalsMissing(1)]
    disband = [Disband(Power.RUSSIA, ref(Power.RUSSIA, "A WAR"))]
    assert advice.advise(pos, MAP, DATC, Power.RUSSIA, disband) == []
    russia_units = [u for u in START.units.values() if u.power is not Power.RUSSIA]
    builds = _winter(russia_units, dict(START.centers))
    fleet = Build(Power.RUSSIA, UnitRef(UnitType.FLEET, Location.parse("STP")))
    got = advice.advise(builds, MAP, DATC, Power.RUSSIA, [fleet, Waive(Power.RUSSIA)])
    assert got[0] == advice.BuildsUnused(2)
    assert isinstance(got[1], advice.NeedsCoast)
    assert [o.unit.location for o in got[1].options] == [
        Location.parse("STP/NC"),
        Location.parse("STP/SC"),
    ]
    assert len(got) == 2


def test_who_has_something_to_order() -> None:
    assert advice.to_order_powers(START, MAP) == list(MAP.powers)
    retreat = Position.build(
        Phase.parse("S1901R"),
        list(START.units.values()),
        dict(START.centers),
        [DislodgedUnit(Unit.parse(Power.ITALY, "A VEN"), "tri", frozenset({"tus"}))],
    )
    assert advice.to_order_powers(retreat, MAP) == [Power.ITALY]
    quiet = _winter(list(START.units.values()), dict(START.centers))
    assert advice.to_order_powers(quiet, MAP) == []
    assert advice.nothing_to_do(quiet, MAP)
    assert not advice.nothing_to_do(START, MAP)


def test_a_move_the_unit_cannot_make_is_advised_with_the_reason() -> None:
    bre = Move(Power.FRANCE, ref(Power.FRANCE, "F BRE"), Location.parse("SPA"))
    par = Move(Power.FRANCE, ref(Power.FRANCE, "A PAR"), Location.parse("BUR"))
    mar = Move(Power.FRANCE, ref(Power.FRANCE, "A MAR"), Location.parse("MUN"))
    got = advice.advise(START, MAP, DATC, Power.FRANCE, [bre, par, mar])
    impossible = [a for a in got if isinstance(a, advice.Impossible)]
    assert [a.order for a in impossible] == [bre, mar]
    assert impossible[0].why.key == "illegal.fleet_cannot_reach"
    assert impossible[1].why.key == "illegal.not_next_to"


def test_an_army_move_a_convoy_could_make_is_not_advised() -> None:
    # A LON - BEL is possible by convoy when a fleet stands in the North Sea, not otherwise.
    army = {**START.units, "LON": Unit.parse(Power.ENGLAND, "A LON")}
    alone = Position(START.phase, army, START.centers)
    nth = Position(START.phase, {**army, "NTH": Unit.parse(Power.ENGLAND, "F NTH")}, START.centers)
    lon = Move(Power.ENGLAND, ref(Power.ENGLAND, "A LON"), Location.parse("BEL"))
    assert advice.impossible(nth, MAP, DATC, [lon]) == []
    assert [a.order for a in advice.impossible(alone, MAP, DATC, [lon])] == [lon]
