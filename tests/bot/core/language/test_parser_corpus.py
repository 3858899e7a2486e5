"""Real orders: the first records of the Droidippy corpus (its sample in tests/data/).

Each record gives the orders as the corpus wrote them (`orders_raw`: "bud move ser",
"eng convoy wal move bel", "build Fleet stp/nc", "remove pie", no unit types) and in canonical
notation, with the unit type and coast taken from the board. With the record's position the
parser must read every raw text to exactly the canonical order, and every canonical order back
to itself.
"""

from __future__ import annotations

import gzip
import json
from typing import Any

import pytest

from bot.core.model import Power
from bot.core.records.jsonio import position_from_json
from tests.shared import CORPUS
from tests.standard import parse_order

RECORDS = 240  # about 3,000 orders: movement, retreat and adjustment phases of several games


def _records() -> list[dict[str, Any]]:
    out = []
    with gzip.open(CORPUS, "rt", encoding="utf-8") as f:
        for line in f:
            out.append(json.loads(line))
            if len(out) == RECORDS:
                break
    return out


def test_corpus_sample_covers_every_phase_kind() -> None:
    kinds = {r["position"]["phase"][-1] for r in _records()}
    assert kinds == {"M", "R", "A"}


@pytest.mark.parametrize("record", _records(), ids=lambda r: f"{r['game']}-{r['i']}")
def test_corpus_orders(record: dict[str, Any]) -> None:
    position = position_from_json(record["position"])
    for pname, canonical in record["orders"].items():
        power = Power(pname)
        for canon, raw in zip(canonical, record["orders_raw"][pname], strict=True):
            assert parse_order(raw, power=power, position=position).canonical() == canon, raw
            again = parse_order(canon, power=power, position=position)
            assert again.canonical() == canon
            assert again.power is power
