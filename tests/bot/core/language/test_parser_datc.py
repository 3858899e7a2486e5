"""Every DATC v3.0 order text parses to its normalised form (issue 2; the adjudicator's DATC
suite feeds these texts through the parser)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from bot.core.language.parser import OrderSyntaxError
from bot.core.model import Phase, Position, Power, Unit
from tests.shared import DATC_CASES as DATC
from tests.standard import parse_order

# The DATC cases, carried in tests/data/ (copied from shared/datc).

# DATC texts that are deliberately unresolvable: a fleet move to a two-coast province with no
# coast, from where both coasts are reachable (GM order-correction rules II(3)b). The parser
# rejects them with a message; the DATC treats them as illegal orders (the unit holds), which is
# what the table does with an order it cannot read.
REJECTED: dict[tuple[str, str], str] = {
    ("6.B.1", "F Portugal - Spain"): "Spain has two coasts: write spa/nc or spa/sc",
    ("6.D.30", "F Constantinople - Bulgaria"): "Bulgaria has two coasts: write bul/ec or bul/sc",
}


def _cases() -> list[dict[str, Any]]:
    with DATC.open(encoding="utf-8") as f:
        cases: list[dict[str, Any]] = json.load(f)["cases"]
    return cases


def _position(case: dict[str, Any], step: dict[str, Any]) -> Position:
    pre = case["prestate"]
    kind = {"movement": "Movement", "retreat": "Retreat", "adjustment": "Adjustment"}
    season = "Winter" if step["phase"] == "adjustment" else "Spring"
    phase = Phase.parse(f"{season} 1901 {kind[step['phase']]}")
    units = [Unit.parse(Power.of(p), u) for p, us in pre["units"].items() for u in us]
    centers = {
        c.upper(): Power.of(p) for p, cs in pre.get("supply_centers", {}).items() for c in cs
    }
    return Position.build(phase, units, centers)


def _expected(order: str) -> str:
    text = order.lower().replace(" via convoy", " via")
    m = re.fullmatch(r"build (.+)", text)
    if m:
        return f"{m.group(1)} b"
    m = re.fullmatch(r"remove (.+)", text)
    if m:
        return f"{m.group(1)} d"
    return text


def _rows() -> list[Any]:
    rows = []
    for case in _cases():
        for s, step in enumerate(case["steps"]):
            for i, o in enumerate(step["orders"]):
                rows.append(pytest.param(case, step, o, id=f"{case['id']}-{s}-{i}"))
    return rows


@pytest.mark.parametrize(("case", "step", "order"), _rows())
def test_datc_text_parses(
    case: dict[str, Any], step: dict[str, Any], order: dict[str, Any]
) -> None:
    position = _position(case, step)
    power = Power.of(order["power"])
    key = (case["id"], order["text"])
    if key in REJECTED:
        with pytest.raises(OrderSyntaxError) as err:
            parse_order(order["text"], power=power, position=position)
        assert err.value.message == REJECTED[key]
        return
    parsed = parse_order(order["text"], power=power, position=position)
    assert parsed.power is power
    assert parsed.source == order["text"]
    expected = _expected(order["order"])
    got = parsed.canonical().lower()
    if got != expected and order["type"] == "move" and order["unit"] == "F":
        # The DATC writes "F gas - spa" (6.B.2); the parser fills the only reachable coast.
        assert "/" not in order["to"]
        assert re.sub(r"/[ns]c$", "", got) == expected
        return
    assert got == expected


def test_rejections_exist() -> None:
    texts = {(c["id"], o["text"]) for c in _cases() for s in c["steps"] for o in s["orders"]}
    assert set(REJECTED) <= texts
