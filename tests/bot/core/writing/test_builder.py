"""The builder's model (bot/core/writing/builder.py): what a unit may be ordered to do."""

from __future__ import annotations

from bot.core.map import bundled_maps, load_map
from bot.core.model import (
    DislodgedUnit,
    Location,
    Phase,
    Position,
    Power,
    Unit,
    UnitType,
)
from bot.core.orders import Convoy, Disband, Hold, Move, Retreat, SupportHold, SupportMove
from bot.core.writing.builder import page, placed, repeated, slots, unordered
from tests.standard import STANDARD

A, F = UnitType.ARMY, UnitType.FLEET
ENGLAND, FRANCE = Power.ENGLAND, Power.FRANCE


def unit(power: Power, kind: UnitType, where: str) -> Unit:
    return Unit(power, kind, Location.parse(where))


def texts(orders: object) -> list[str]:
    return [o.canonical() for o in orders]  # type: ignore[attr-defined]


def test_start_options_follow_adjacency_with_coasts() -> None:
    found = {s.key: s for s in slots(STANDARD.start, STANDARD, Power.RUSSIA)}
    assert texts(found["STP"].direct) == [
        "F STP/SC H",
        "F STP/SC - BOT",
        "F STP/SC - FIN",
        "F STP/SC - LVN",
    ]
    assert not any(s.convoys for s in found.values())  # no fleet at sea in 1901
    # a support only of units that could hold or move where the supporter can go
    assert texts(found["MOS"].supports["WAR"]) == [
        "A MOS S A WAR",
        "A MOS S A WAR - LVN",
        "A MOS S A WAR - UKR",
    ]
    assert "STP" in found["MOS"].supports
    assert "SEV" in found["MOS"].supports


def test_convoys_only_where_a_chain_of_fleets_at_sea_reaches() -> None:
    board = Position.build(
        Phase.parse("S1901M"),
        [
            unit(ENGLAND, A, "LON"),
            unit(ENGLAND, F, "NTH"),
            unit(ENGLAND, F, "EDI"),
            unit(FRANCE, A, "PAR"),
        ],
    )
    found = {s.key: s for s in slots(board, STANDARD, ENGLAND)}
    by_convoy = [m for m in found["LON"].direct if isinstance(m, Move) and m.via_convoy]
    assert "A LON - NWY VIA" in texts(by_convoy)
    assert "A LON - BEL VIA" in texts(by_convoy)
    assert "A LON - YOR VIA" not in texts(by_convoy)  # next door by land: a plain move
    assert list(found["NTH"].convoys) == ["LON"]  # the army on a coast, not A PAR inland
    assert all(isinstance(c, Convoy) for c in found["NTH"].convoys["LON"])
    assert not found["EDI"].convoys  # a fleet on a coast convoys nothing
    french = {s.key: s for s in slots(board, STANDARD, FRANCE)}
    assert not any(isinstance(m, Move) and m.via_convoy for m in french["PAR"].direct)


def test_retreats_name_each_reachable_coast_then_disband() -> None:
    fleet = unit(FRANCE, F, "MAO")
    board = Position.build(
        Phase.parse("S1901R"),
        [],
        dislodged=[DislodgedUnit(fleet, "ENG", frozenset({"SPA", "POR"}))],
    )
    [slot] = slots(board, STANDARD, FRANCE)
    assert slot.direct[-1] == Disband(FRANCE, slot.direct[-1].unit)  # type: ignore[attr-defined]
    assert texts(slot.direct) == [
        "F MAO R POR",
        "F MAO R SPA/NC",
        "F MAO R SPA/SC",
        "F MAO D",
    ]
    assert all(isinstance(o, Retreat) for o in slot.direct[:-1])


def test_removals_offer_each_unit_and_builds_each_free_home_centre() -> None:
    board = Position.build(
        Phase.parse("W1901A"),
        [unit(FRANCE, A, "PAR"), unit(FRANCE, A, "BUR")],
        {"PAR": FRANCE},
    )
    found = slots(board, STANDARD, FRANCE)
    assert [texts(s.direct) for s in found] == [["A BUR D"], ["A PAR D"]]
    board = Position.build(
        Phase.parse("W1901A"),
        [unit(Power.RUSSIA, A, "MOS")],
        {"MOS": Power.RUSSIA, "STP": Power.RUSSIA, "WAR": Power.RUSSIA, "SEV": Power.RUSSIA},
    )
    found = {s.key: s for s in slots(board, STANDARD, Power.RUSSIA)}
    assert list(found) == ["SEV", "STP", "WAR"]
    assert texts(found["STP"].direct) == ["A STP B", "F STP/NC B", "F STP/SC B"]
    assert texts(found["WAR"].direct) == ["A WAR B"]  # inland: no fleet


def test_placed_repeated_and_unordered() -> None:
    found = slots(STANDARD.start, STANDARD, FRANCE)
    paris = found[2].direct[0]
    assert isinstance(paris, Hold)
    orders = placed([], paris)
    bur = next(o for o in found[2].direct if o.canonical() == "A PAR - BUR")
    orders = placed(orders, bur)
    assert texts(orders) == ["A PAR - BUR"]
    assert [s.key for s in unordered(found, orders)] == ["BRE", "MAR"]
    mar = found[1].direct[0].unit  # type: ignore[attr-defined]
    old = [
        bur,
        SupportMove(FRANCE, mar, bur.unit, Location("BUR")),  # type: ignore[attr-defined]
        SupportHold(FRANCE, mar, bur.unit),  # type: ignore[attr-defined] - PAR out of reach
        Move(FRANCE, bur.unit, Location("MUN")),  # type: ignore[attr-defined] - not adjacent
    ]
    assert texts(repeated(found, old)) == ["A PAR - BUR", "A MAR S A PAR - BUR"]


def test_a_long_list_pages_within_25_options() -> None:
    items = [str(i) for i in range(60)]
    first, more = page(items, 0)
    assert len(first) == 23
    assert more
    second, more = page(items, 1)
    assert second[0] == "23"
    assert more
    third, more = page(items, 2)
    assert third[-1] == "59"
    assert not more
    assert page(items[:25], 0) == (items[:25], False)


def test_every_bundled_variant_opens_with_options_for_every_unit() -> None:
    for name in bundled_maps():
        game_map = load_map(name)
        for power in game_map.powers:
            for slot in slots(game_map.start, game_map, power):
                assert slot.direct, (name, slot.key)
                assert slot.direct[0].canonical().endswith(" H")
