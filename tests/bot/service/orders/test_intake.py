"""Reading an order set before it is saved: whose units it orders in each kind of phase, and
the proxy-order rule (DATC 4.E.5) that would allow ordering another power's unit."""

from __future__ import annotations

import pytest

from bot.core.map import load_map
from bot.core.model import DislodgedUnit, Phase, Position, Power, Unit
from bot.core.presets import load_rules
from bot.core.rules import Choice
from bot.service import ServiceError
from bot.service.engine import CoreEngine
from bot.service.orders.intake import MAX_ORDERS, MAX_TEXT, check_size, read_set

ENGINE = CoreEngine()
MAP = load_map("standard")
DATC = load_rules("datc")


def _read(position: Position, power: Power, text: str, rules=DATC, lang="en"):
    return read_set(ENGINE, text, lang, power, position, MAP, rules)


def _retreat_position() -> Position:
    # Fall 1901: a German army took Burgundy; the French army there is dislodged.
    units = [
        Unit.parse(Power.GERMANY, "A BUR"),
        Unit.parse(Power.GERMANY, "A RUH"),
        Unit.parse(Power.FRANCE, "A PAR"),
        Unit.parse(Power.ENGLAND, "F NTH"),
    ]
    dislodged = [DislodgedUnit(Unit.parse(Power.FRANCE, "A BUR"), "MUN", frozenset({"GAS", "PIC"}))]
    return Position.build(Phase.parse("F1901R"), units, {}, dislodged)


def test_retreat_orders_name_the_powers_dislodged_unit():
    position = _retreat_position()
    mine = _read(position, Power.FRANCE, "A BUR R PIC")
    assert mine.errors == []
    # Germany's army stands in Burgundy, but the unit that retreats from there is French.
    theirs = _read(position, Power.GERMANY, "A BUR R GAS")
    assert theirs.errors == ["A BUR R GAS: A BUR is French; you can only order your own units"]
    # A place whose only unit is another power's (not dislodged) is refused too.
    other = _read(position, Power.ENGLAND, "A PAR R PIC")
    assert other.errors == ["A PAR R PIC: A PAR is French; you can only order your own units"]


def _winter_position() -> Position:
    # Winter 1901: England has a centre more than units (a build), Germany one fewer (a removal).
    units = [
        Unit.parse(Power.ENGLAND, "F NTH"),
        Unit.parse(Power.GERMANY, "A MUN"),
        Unit.parse(Power.GERMANY, "A BER"),
    ]
    centers = {"LON": Power.ENGLAND, "EDI": Power.ENGLAND, "MUN": Power.GERMANY}
    return Position.build(Phase.parse("W1901A"), units, centers)


def test_adjustments_builds_name_a_place_and_removals_an_own_unit():
    position = _winter_position()
    assert _read(position, Power.ENGLAND, "F LON B").errors == []
    assert _read(position, Power.GERMANY, "A BER D").errors == []
    refused = _read(position, Power.ENGLAND, "A MUN D")
    assert refused.errors == ["A MUN D: A MUN is German; you can only order your own units"]
    # A build in another power's home centre names no unit: the adjudicator rules on it.
    assert _read(position, Power.ENGLAND, "A KIE B").errors == []


def test_rules_allowing_proxy_orders_accept_them():
    position = MAP.start
    refused = _read(position, Power.ENGLAND, "A PAR - PIC")
    assert refused.errors == ["A PAR - PIC: A PAR is French; you can only order your own units"]
    for choice in (Choice.A, Choice.B):
        proxy = DATC.with_options(proxy_orders=choice)
        assert _read(position, Power.ENGLAND, "A PAR - PIC", rules=proxy).errors == []


def test_every_bundled_rule_set_refuses_proxy_orders():
    # "none of ours" allows ordering an ally's unit: if one ever does, this is a decision.
    from bot.core.presets import list_presets  # noqa: PLC0415

    assert {load_rules(name).proxy_orders for name in list_presets()} == {Choice.C}


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        (
            "en",
            f"Not saved: at most {MAX_ORDERS} orders in one message (this one has 101); "
            "your previous orders are unchanged.",
        ),
        (
            "fr",
            f"Non enregistré : {MAX_ORDERS} ordres au plus par message (celui-ci en a 101) ; "
            "vos ordres précédents sont inchangés.",
        ),
    ],
)
def test_a_set_of_more_than_100_orders_is_refused(lang, expected):
    check_size("\n".join(["A PAR H"] * MAX_ORDERS), lang)  # 100 is fine
    with pytest.raises(ServiceError) as caught:
        check_size("\n".join(["A PAR H"] * (MAX_ORDERS + 1)), lang)
    assert caught.value.message == expected


def test_blank_lines_and_fences_do_not_count():
    check_size("```\n" + "\n\n".join(["A PAR H"] * MAX_ORDERS) + "\n```\n;;", "en")


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_huge_message_is_refused_by_its_length(lang, monkeypatch):
    # Refused before it is even split into orders.
    import bot.service.orders.intake as intake  # noqa: PLC0415

    def no_counting(_text: str) -> int:
        raise AssertionError("a 10 MB text was split into orders")

    monkeypatch.setattr(intake, "count_orders", no_counting)
    with pytest.raises(ServiceError) as caught:
        check_size("A" * 10_000_000, lang)
    word = "characters" if lang == "en" else "caractères"
    assert f"{MAX_TEXT} {word}" in caught.value.message
    assert "10000000" in caught.value.message
