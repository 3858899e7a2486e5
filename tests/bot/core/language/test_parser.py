"""The order parser (issue 2): golden texts, position-based resolution, errors, rendering."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.core.language.parser import OrderSyntaxError
from bot.core.map import load_map
from bot.core.model import Coast, Location, Position, Power, UnitType
from bot.core.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Retreat,
    SupportHold,
    SupportMove,
    UnitRef,
    Waive,
)
from bot.core.records.jsonio import position_from_json
from tests.standard import parse_order, parse_orders, render_order

GOLDEN = Path(__file__).parent / "golden" / "orders.tsv"

BOARDS: dict[str, Position | None] = {
    "-": None,
    "start": load_map("standard").start,
    "retreat": position_from_json(
        {
            "phase": "F1901R",
            "units": {"FRANCE": ["A BUR"], "GERMANY": ["A PAR"], "AUSTRIA": ["F TYS"]},
            "dislodged": [
                {"power": "FRANCE", "unit": "A PAR", "attacker_from": "BUR", "retreats": ["PIC"]},
                {"power": "ITALY", "unit": "F LYO", "attacker_from": "TYS", "retreats": ["SPA"]},
            ],
        }
    ),
    "adjust": position_from_json(
        {
            "phase": "W1901A",
            "units": {"FRANCE": ["A BUR", "F MAO"]},
            "centers": {"FRANCE": ["BRE", "MAR", "PAR"], "RUSSIA": ["STP"]},
        }
    ),
}


def _golden() -> list[object]:
    rows = []
    for n, line in enumerate(GOLDEN.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        lang, board, text, expected = line.split("\t")
        rows.append(pytest.param(lang, board, text, expected, id=f"{n}:{text.strip()}"))
    return rows


def test_golden_file_is_large_and_bilingual() -> None:
    rows = [r.values for r in _golden()]  # type: ignore[attr-defined]
    assert len(rows) >= 300
    assert {r[0] for r in rows} == {"en", "fr"}
    assert sum(1 for r in rows if r[3].startswith("! ")) >= 30


def test_golden_file_names_every_province_in_both_nomenclatures() -> None:
    rows = [r.values for r in _golden()]  # type: ignore[attr-defined]
    for lang in ("en", "fr"):
        named = {
            word.split("/")[0]
            for r in rows
            if r[0] == lang and not r[3].startswith("! ")
            for word in r[3].split()
        }
        assert set(load_map("standard").provinces) <= named, lang


@pytest.mark.parametrize(("lang", "board", "text", "expected"), _golden())
def test_golden(lang: str, board: str, text: str, expected: str) -> None:
    position = BOARDS[board]
    if expected.startswith("! "):
        with pytest.raises(OrderSyntaxError) as err:
            parse_order(text, lang=lang, position=position)
        assert err.value.message == expected[2:]
        return
    order = parse_order(text, lang=lang, position=position)
    assert order.canonical() == expected
    # The canonical and French renderings read back to the same order.
    assert parse_order(order.canonical(), lang="en") == _without_power(order)
    assert parse_order(render_order(order, "fr"), lang="fr") == _without_power(order)


def _without_power(order: Order) -> Order:
    order = dataclasses.replace(order, power=None)
    unit = getattr(order, "unit", None)
    if unit is not None:
        order = dataclasses.replace(order, unit=dataclasses.replace(unit, power=None))  # type: ignore[call-arg]
    target = getattr(order, "target", None)
    if target is not None:
        order = dataclasses.replace(order, target=dataclasses.replace(target, power=None))  # type: ignore[call-arg]
    return order


# --- typed results --------------------------------------------------------------------------

A, F = UnitType.ARMY, UnitType.FLEET
PAR, BUR, MAR, BRE = Location("PAR"), Location("BUR"), Location("MAR"), Location("BRE")


def test_typed_orders() -> None:
    assert parse_order("A PAR H") == Hold(None, unit=UnitRef(A, PAR))
    assert parse_order("A PAR - BUR") == Move(None, unit=UnitRef(A, PAR), dest=BUR)
    assert parse_order("A LON - BEL via convoy") == Move(
        None, unit=UnitRef(A, Location("LON")), dest=Location("BEL"), via_convoy=True
    )
    assert parse_order("A PAR S A MAR - BUR") == SupportMove(
        None, unit=UnitRef(A, PAR), target=UnitRef(A, MAR), dest=BUR
    )
    assert parse_order("A PAR S F BRE") == SupportHold(
        None, unit=UnitRef(A, PAR), target=UnitRef(F, BRE)
    )
    assert parse_order("F NTH C A LON - BEL") == Convoy(
        None,
        unit=UnitRef(F, Location("NTH")),
        target=UnitRef(A, Location("LON")),
        dest=Location("BEL"),
    )
    assert parse_order("A PAR R BUR") == Retreat(None, unit=UnitRef(A, PAR), dest=BUR)
    assert parse_order("A PAR D") == Disband(None, unit=UnitRef(A, PAR))
    assert parse_order("F STP/NC B") == Build(None, unit=UnitRef(F, Location("STP", Coast.NORTH)))
    assert parse_order("WAIVE") == Waive(None)


def test_nationality_is_kept_on_the_unit() -> None:
    order = parse_order("A PAR S German A MUN - BUR")
    assert isinstance(order, SupportMove)
    assert order.target.power is Power.GERMANY
    french = parse_order("A PAR S A allemande MUN", lang="fr")
    assert isinstance(french, SupportHold)
    assert french.target == UnitRef(A, Location("MUN"), Power.GERMANY)


def test_source_text_is_kept() -> None:
    assert parse_order("  a par - bur ").source == "a par - bur"


# --- power and position ---------------------------------------------------------------------


def test_power_argument_is_the_power_giving_the_order() -> None:
    start = load_map("standard").start
    # 6.A.6: Germany orders England's fleet; the order is kept and is Germany's.
    order = parse_order("F LON - NTH", power=Power.GERMANY, position=start)
    assert order.power is Power.GERMANY
    assert isinstance(order, Move)
    assert order.unit.power is Power.ENGLAND


def test_power_defaults_to_the_unit_owner() -> None:
    start = load_map("standard").start
    assert parse_order("A PAR - BUR", position=start).power is Power.FRANCE
    assert parse_order("F NTH H", position=start).power is None
    assert parse_order("A PAR - BUR").power is None
    assert parse_order("Italy: A PAR - BUR").power is Power.ITALY


def test_never_rejects_what_the_adjudicator_rules_on() -> None:
    start = load_map("standard").start
    # No unit there, another power's unit, wrong type, not adjacent (DATC 6.A.*).
    assert parse_order("A TUN - NAP", power=Power.ITALY, position=start).canonical() == (
        "A TUN - NAP"
    )
    assert parse_order("A BER - KIE", power=Power.FRANCE, position=start).power is Power.FRANCE
    assert parse_order("F PAR - BUR", position=start).canonical() == "F PAR - BUR"
    assert parse_order("A PAR - MOS", position=start).canonical() == "A PAR - MOS"
    assert parse_order("F NTH - PIC", position=start).canonical() == "F NTH - PIC"


def test_support_coast_never_filled() -> None:
    start = load_map("standard").start
    # DATC 4.B.4 / 6.B.4-6: the supported move keeps the coast as written.
    assert parse_order("F MAR S F GAS - SPA", position=start).canonical() == "F MAR S F GAS - SPA"
    assert parse_order("F MAO C A GAS - SPA").canonical() == "F MAO C A GAS - SPA"


def test_retreat_phase_turns_moves_into_retreats() -> None:
    order = parse_order("Paris - Picardy", position=BOARDS["retreat"])
    assert isinstance(order, Retreat)
    assert order.power is Power.FRANCE
    assert order.unit == UnitRef(A, PAR, Power.FRANCE)
    # Outside a retreat phase the same text is a move.
    assert isinstance(parse_order("Paris - Picardy", position=load_map("standard").start), Move)


def test_adjustment_remove_is_disband() -> None:
    order = parse_order("remove MAO", position=BOARDS["adjust"])
    assert isinstance(order, Disband)
    assert order.unit.type is F
    assert order.power is Power.FRANCE


def test_build_power_from_centre_owner() -> None:
    order = parse_order("Build F St Petersburg nc", position=BOARDS["adjust"])
    assert isinstance(order, Build)
    assert order.power is Power.RUSSIA


# --- order sets -----------------------------------------------------------------------------


def test_parse_orders_lines_and_semicolons() -> None:
    text = "A PAR - BUR; F BRE - MAO\n\n  A MAR - Bugundy \nF MAO - SPA;;WAIVE"
    result = parse_orders(text, power=Power.FRANCE)
    assert [o.canonical() for o in result.orders] == ["A PAR - BUR", "F BRE - MAO", "WAIVE"]
    assert all(o.power is Power.FRANCE for o in result.orders)
    assert [(e.text, e.message) for e in result.errors] == [
        ("A MAR - Bugundy", "unknown province 'Bugundy' — did you mean Burgundy?"),
        ("F MAO - SPA", "Spain has two coasts: write spa/nc or spa/sc"),
    ]


def test_empty_order() -> None:
    with pytest.raises(OrderSyntaxError) as err:
        parse_order("   ")
    assert err.value.message == "empty order"
    assert parse_orders(" ;\n ; ") == parse_orders("")


def test_errors_name_the_word() -> None:
    with pytest.raises(OrderSyntaxError) as err:
        parse_order("A PAR attacks BUR")
    assert err.value.word == "attacks"
    assert isinstance(err.value, ValueError)


def test_typo_in_an_order_word_gets_a_hint() -> None:
    with pytest.raises(OrderSyntaxError) as err:
        parse_order("A PAR suports A MAR - BUR")
    assert err.value.message == ("unexpected word 'suports' after 'PAR' — did you mean 'supports'?")


# --- rendering ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "french"),
    [
        ("A PAR H", "A PAR T"),
        ("A PAR - BUR", "A PAR - BOU"),
        ("A LON - BEL VIA", "A LON - BEL PAR CONVOI"),
        ("A PAR S A MAR - BUR", "A PAR S A TOU - BOU"),
        ("A PAR S F BRE", "A PAR S F BRE"),
        ("F NTH C A LON - BEL", "F NRD C A LON - BEL"),
        ("A PAR R PIC", "A PAR R PIC"),
        ("A PAR D", "A PAR D"),
        ("F STP/NC B", "F STP/CN B"),
        ("F MAO - SPA/SC", "F ATL - ESP/CS"),
        ("F BLA - BUL/EC", "F NOI - BUL/CE"),
        ("F NAF - TYS", "F MAR - TYR"),
        ("A TYR - MUN", "A ALP - MUN"),
        ("F LVP - IRI", "F LIV - STG"),
        ("WAIVE", "RENONCE"),
    ],
)
def test_render_french(text: str, french: str) -> None:
    order = parse_order(text)
    assert render_order(order, "fr") == french
    assert render_order(order) == text
    assert parse_order(french, lang="fr") == order


# --- robustness -----------------------------------------------------------------------------

_ALPHABET = st.sampled_from(
    [*"aAfFsScCHhTdDbBrR -–>/()';:.,éèôç#?1", "PAR", "BUR", "spa", "nc", "via", "par convoi"]
)


def _message_or_none(text: str, lang: str = "en") -> str | None:
    """Parse; return the error message, or None. Anything but OrderSyntaxError propagates."""
    try:
        parse_order(text, lang=lang, position=load_map("standard").start)
        parse_orders(text, lang=lang)
    except OrderSyntaxError as exc:
        return exc.message
    return None


@settings(max_examples=300, deadline=None)
@given(st.lists(_ALPHABET, max_size=14).map("".join))
def test_arbitrary_text_raises_only_order_syntax_error(text: str) -> None:
    for lang in ("en", "fr"):
        message = _message_or_none(text, lang)
        if message is not None:
            assert message.strip()
            assert "Token" not in message
            assert "Unexpected" not in message


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=40))
def test_any_unicode_raises_only_order_syntax_error(text: str) -> None:
    message = _message_or_none(text)
    assert message is None or message.strip()


def test_hyphenated_power_names() -> None:
    assert parse_order("Grande-Bretagne: F LON - MAN", lang="fr").power is Power.ENGLAND
    order = parse_order("A VIE S Autriche-Hongrie A BUD", lang="fr")
    assert isinstance(order, SupportHold)
    assert order.target.power is Power.AUSTRIA


def test_order_sheet_with_power_headers() -> None:
    sheet = "England:\nF LON - NTH\nA LVP - YOR\n\nFRANCE\nA PAR - BUR\nAllemagne :\nA MUN H"
    result = parse_orders(sheet, lang="fr")
    assert [(o.power, o.canonical()) for o in result.orders] == [
        (Power.ENGLAND, "F LON - NTH"),
        (Power.ENGLAND, "A LVP - YOR"),
        (Power.FRANCE, "A PAR - BUR"),
        (Power.GERMANY, "A MUN H"),
    ]
    assert result.errors == []
    # A power given by the caller is the power giving every order (headers are then an error).
    given = parse_orders("England:\nF LON - NTH", power=Power.FRANCE)
    assert [o.power for o in given.orders] == [Power.FRANCE]
    assert [e.text for e in given.errors] == ["England:"]
