"""The builder's Discord side without Discord: custom ids within 100 characters, the screen
after each kind of pick, a long set cut to 2,000 characters."""

from __future__ import annotations

import re

from bot.discord_app.builder import TEMPLATE, Key, _fit, _screen


def test_custom_ids_fit_discords_100_characters_and_read_back() -> None:
    key = Key(99_999_999, 99_999_999, "1" * 20)  # a snowflake is at most 20 digits
    longest = key.custom_id("s", "sto", "STP.STP.99")
    assert len(longest) <= 100
    match = re.fullmatch(TEMPLATE, longest)
    assert match is not None
    assert match["what"] == "sto"
    assert match["arg"] == "STP.STP.99"


def test_the_screen_after_each_pick() -> None:
    assert _screen("unit", "0", "PAR").focus == "PAR"
    assert _screen("unit", "0", "+more1").mode == "units"
    assert _screen("unit", "0", "+more1").page == 1
    assert _screen("act", "MAR.0", "+support").mode == "sup"
    assert _screen("act", "MAR.0", "A MAR - BUR").mode == "set"
    assert _screen("sup", "MAR.0", "PAR").other == "PAR"
    assert _screen("sup", "MAR.0", "PAR").mode == "sto"
    paged = _screen("sto", "MAR.PAR.0", "+more1")
    assert (paged.focus, paged.mode, paged.other, paged.page) == ("MAR", "sto", "PAR", 1)
    assert _screen("cvo", "NTH.LON.0", "F NTH C A LON - NWY").mode == "set"


def test_a_very_long_set_keeps_its_head_and_its_tail() -> None:
    lines = ["head", *(f"• order {i:03} " + "x" * 40 for i in range(80)), "left", "now"]
    text = _fit(lines)
    assert len(text) <= 2000
    assert text.startswith("head\n…")
    assert text.endswith("left\nnow")
    assert "order 079" in text
    assert "order 000" not in text
