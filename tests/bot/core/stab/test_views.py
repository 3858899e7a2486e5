"""What each viewer may see of a Stab! phase (bot/core/stab/views.py), on the seed's Autumn
1902 example and the retreat and Winter phases after it."""

from __future__ import annotations

import pytest

from bot.core.adjudicator import adjudicate
from bot.core.language.parser import parse_order
from bot.core.model import ModelError, Power
from bot.core.orders import Build, Disband, Order, Retreat, UnitOrder
from bot.core.stab.report import adjustment_report, movement_report, retreat_report
from bot.core.stab.views import GM, PUBLIC, parse_viewer, sight
from tests.bot.core.stab.helpers import MAP, RULES, phase
from tests.bot.core.stab.test_report import EXAMPLE_CENTRES, EXAMPLE_ORDERS, EXAMPLE_UNITS

E, F, G = Power("ENGLAND"), Power("FRANCE"), Power("GERMANY")

# The seed's public report: "ENGLAND: F(Pic)*S [Dislodged] FRANCE: A(Par) S F(Bre)-Pic;
# A(Mar) S A(Gas)-Bur; GERMANY: A(Mun) S A(Bur); A(Bur) S A(Bel)-Pic;" and the GM's note:
# "the moves F (Bre) - Pic, A (Gas) - Bur, A (Bel) - Pic would be reported".
REVEALED = {"PIC", "PAR", "MAR", "MUN", "BUR", "BRE", "GAS", "BEL"}
REVEALED_ORDERS = {
    "A PAR S F BRE - PIC",
    "A MAR S A GAS - BUR",
    "A MUN S A BUR",
    "A BUR S A BEL - PIC",
    "F BRE - PIC",
    "A GAS - BUR",
    "A BEL - PIC",
}
# "The existence of the support from the German A(Ruh) is not revealed ... German F(Swe) and
# A(Kie) are not revealed ... The French move into the NAO is kept secret."
NEVER_PUBLIC = {"RUH", "SWE", "KIE", "MAO", "NTH", "EDI", "ENG"}


def _texts(orders: tuple[Order, ...]) -> set[str]:
    return {o.canonical() for o in orders}


@pytest.fixture(scope="module")
def example() -> tuple:
    pos, out = phase("F1902M", EXAMPLE_UNITS, EXAMPLE_ORDERS, EXAMPLE_CENTRES)
    return pos, out, movement_report(pos, out, MAP)


def test_the_public_sees_what_the_report_revealed_and_nothing_else(example: tuple) -> None:
    pos, out, report = example
    s = sight(MAP, pos, None, out.results, report, PUBLIC)
    assert s.units == REVEALED
    assert not s.units & NEVER_PUBLIC
    assert _texts(s.orders) == REVEALED_ORDERS
    assert {r.order.canonical() for r in s.results} == REVEALED_ORDERS
    # "Exactly what English F(Pic) was supporting is not revealed": drawn, no order, dislodged.
    assert not any(isinstance(o, UnitOrder) and o.unit.province == "PIC" for o in s.orders)
    assert s.dislodged == {"PIC"}
    assert dict(s.obscured) == {"PIC": ("support", True)}  # `F PIC S ?; (cut)`
    # Rule 3: "will not reveal who owns which supply centre"; totals only, no unit counts.
    assert dict(s.centres) == {}
    assert s.centre_totals[G] == 1
    assert s.centre_totals[F] == 1
    assert dict(s.unit_counts) == {}
    assert not s.retreat_options


def test_a_power_sees_its_own_units_and_orders_and_the_public_report(example: tuple) -> None:
    pos, out, report = example
    s = sight(MAP, pos, None, out.results, report, E)
    mine = {"NTH", "EDI", "PIC", "ENG"}
    assert s.units == REVEALED | mine
    assert _texts(s.orders) == REVEALED_ORDERS | {
        "F NTH C A EDI - HOL",
        "A EDI - HOL",
        "F PIC S F ENG - BRE",
        "F ENG - BRE",
    }
    assert not s.units & {"RUH", "SWE", "KIE", "MAO"}
    assert dict(s.unit_counts) == {E: 4}
    assert dict(s.obscured) == {}  # its own F PIC's order is drawn in full
    assert dict(s.centres) == {}  # England owns none of the example's two centres
    france = sight(MAP, pos, None, out.results, report, F)
    assert "F MAO - NAO" in _texts(france.orders)  # its own secret move
    assert dict(france.centres) == {"BRE": F}
    assert not france.units & {"NTH", "EDI", "ENG", "RUH", "SWE", "KIE"}


def test_the_gm_sees_everything(example: tuple) -> None:
    pos, out, report = example
    s = sight(MAP, pos, None, out.results, report, GM)
    assert s.units == set(pos.units)
    assert len(s.orders) == sum(len(v) for v in EXAMPLE_ORDERS.values())
    assert s.retreat_options
    assert s.everything
    assert dict(s.centres) == {"BRE": F, "HOL": G}
    assert sight(MAP, pos, None, out.results, None, GM) == s  # no report needed


def test_a_player_sight_needs_the_report(example: tuple) -> None:
    pos, out, _ = example
    with pytest.raises(ValueError, match="report"):
        sight(MAP, pos, None, out.results, None, PUBLIC)


def test_retreat_phase_hides_where_a_unit_went_but_tells_its_attacker(example: tuple) -> None:
    _, out, _ = example
    at = out.position
    go = parse_order("F PIC R ENG", power=E, position=at, game_map=MAP)
    assert isinstance(go, Retreat)
    done = adjudicate(at, [go], RULES, MAP)
    report = retreat_report(at, done, MAP)
    public = sight(MAP, at, None, done.results, report, PUBLIC)
    assert "PIC" in public.units  # "The fact that a unit is dislodged is reported"
    assert public.orders == ()  # "but not the province to which it has retreated"
    assert not public.retreat_options  # rule 4: a refused retreat is not explained
    # "the GM will inform the player whose attack caused the unit concerned to retreat where
    # it has retreated to": the French F(Bre) dislodged it.
    assert _texts(sight(MAP, at, None, done.results, report, F).orders) == {"F PIC R ENG"}
    assert _texts(sight(MAP, at, None, done.results, report, E).orders) == {"F PIC R ENG"}
    assert sight(MAP, at, None, done.results, report, G).orders == ()


def test_a_refused_or_missing_retreat_is_shown_as_the_disband_it_was(example: tuple) -> None:
    _, out, _ = example
    at = out.position
    bad = parse_order("F PIC R BEL", power=E, position=at, game_map=MAP)  # A BEL stayed
    done = adjudicate(at, [bad], RULES, MAP)
    report = retreat_report(at, done, MAP)
    assert report.public[E] == ("F PIC D",)  # "If a unit is disbanded ... this will be reported"
    for viewer in (PUBLIC, G):
        s = sight(MAP, at, None, done.results, report, viewer)
        assert [type(o) for o in s.orders] == [Disband]
        assert all(r.succeeded for r in s.results)
    none = adjudicate(at, [], RULES, MAP)
    s = sight(MAP, at, None, none.results, retreat_report(at, none, MAP), PUBLIC)
    assert _texts(s.orders) == {"F PIC D"}


def test_winter_shows_totals_and_keeps_builds_private() -> None:
    pos, _ = phase(
        "W1902A",
        {"FRANCE": ["A PAR"], "GERMANY": ["A MUN"]},
        {},
        {"PAR": "FRANCE", "MAR": "FRANCE", "MUN": "GERMANY", "BER": "GERMANY"},
    )
    build = parse_order("A MAR B", power=F, position=pos, game_map=MAP)
    build_de = parse_order("A BER B", power=G, position=pos, game_map=MAP)
    done = adjudicate(pos, [build, build_de], RULES, MAP)
    report = adjustment_report(pos, MAP)
    public = sight(MAP, pos, None, done.results, report, PUBLIC)
    assert public.units == frozenset()
    assert public.orders == ()
    assert public.centre_totals[F] == 2
    assert dict(public.centres) == {}
    france = sight(MAP, pos, None, done.results, report, F)
    assert france.units == {"PAR"}
    assert [type(o) for o in france.orders] == [Build]
    assert dict(france.centres) == {"PAR": F, "MAR": F}


def test_parse_viewer() -> None:
    assert parse_viewer("Public", MAP) == PUBLIC
    assert parse_viewer("GM", MAP) == GM
    assert parse_viewer("france", MAP) is F
    with pytest.raises(ModelError):
        parse_viewer("narnia", MAP)


def _public(units: dict[str, list[str]], orders: dict[str, list[str]]) -> tuple:
    pos, out = phase("S1902M", units, orders)
    return sight(MAP, pos, None, out.results, movement_report(pos, out, MAP), PUBLIC)


def test_convoy_cases_are_drawn_as_reported() -> None:
    # Case A: "F NTS c ?-? (*fails* *dislodged*)" and "The move of the convoyed army will be
    # revealed in full as a failed move": the fleet drawn with no order, dislodged.
    a = _public(
        {"ENGLAND": ["F NTH", "A YOR"], "GERMANY": ["F HEL", "F DEN"]},
        {"ENGLAND": ["F NTH C A YOR - NWY", "A YOR - NWY"],
         "GERMANY": ["F HEL - NTH", "F DEN S F HEL - NTH"]},
    )  # fmt: skip
    assert _texts(a.orders) == {"A YOR - NWY", "F HEL - NTH", "F DEN S F HEL - NTH"}
    assert a.dislodged == {"NTH"}
    assert dict(a.obscured) == {"NTH": ("convoy", True)}
    # Case B: "The convoying fleet is reported as holding ... The move of the convoyed army is
    # not reported": a hold drawn, the army not drawn at all.
    b = _public(
        {"ENGLAND": ["F NTH", "A YOR"], "GERMANY": ["F HEL"]},
        {"ENGLAND": ["F NTH C A YOR - NWY", "A YOR - NWY"], "GERMANY": ["F HEL - NTH"]},
    )
    assert _texts(b.orders) == {"F NTH H", "F HEL - NTH"}
    assert "YOR" not in b.units
    assert all(r.succeeded for r in b.results if r.order.canonical() == "F NTH H")
    # Case C: "The convoying fleet move is reported in full. The convoyed army move is
    # reported in full".
    c = _public(
        {"ENGLAND": ["F NTH", "A YOR"], "GERMANY": ["F HEL"], "RUSSIA": ["F NWY"]},
        {"ENGLAND": ["F NTH C A YOR - NWY", "A YOR - NWY"], "GERMANY": ["F HEL - NTH"],
         "RUSSIA": ["F NWY H"]},
    )  # fmt: skip
    assert _texts(c.orders) == {"F NTH C A YOR - NWY", "A YOR - NWY", "F HEL - NTH", "F NWY H"}


def test_a_misorder_is_drawn_as_the_hold_the_report_shows() -> None:
    # "A mis-order or an unlawful order is not revealed": France's A PAR - MUN is shown
    # holding when Germany's attack on it fails.
    s = _public(
        {"FRANCE": ["A PAR"], "GERMANY": ["A BUR"]},
        {"FRANCE": ["A PAR - MUN"], "GERMANY": ["A BUR - PAR"]},
    )
    assert _texts(s.orders) == {"A PAR H", "A BUR - PAR"}
