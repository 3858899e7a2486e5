"""Order sets pasted from a chat (Discord markdown): code fences, quotes and emphasis around
the orders are not orders, and do not make a whole set fail."""

from __future__ import annotations

import pytest

from tests.standard import parse_order, parse_orders


def test_code_fence_lines_are_skipped() -> None:
    text = "```\nA PAR - BUR\nF BRE - MAO\n```"
    result = parse_orders(text)
    assert [o.canonical() for o in result.orders] == ["A PAR - BUR", "F BRE - MAO"]
    assert result.errors == []


def test_code_fence_with_a_language_tag_is_skipped() -> None:
    result = parse_orders("```text\nA PAR - BUR\n```")
    assert [o.canonical() for o in result.orders] == ["A PAR - BUR"]
    assert result.errors == []


def test_quote_markers_are_not_part_of_the_order() -> None:
    result = parse_orders("> A PAR - BUR\n>>> F BRE - MAO")
    assert [o.canonical() for o in result.orders] == ["A PAR - BUR", "F BRE - MAO"]
    assert result.errors == []
    # A ">" after a unit is still a move.
    assert parse_order("A PAR > BUR").canonical() == "A PAR - BUR"


def test_a_fence_is_not_an_order_but_a_word_is_still_an_error() -> None:
    result = parse_orders("```\nA PAR - BUR\nA PAR jump\n```")
    assert [e.text for e in result.errors] == ["A PAR jump"]


def test_invisible_characters_are_ignored() -> None:
    # A zero-width space (from a phone keyboard or a web page) and a byte-order mark.
    assert parse_order("A PAR\u200b - BUR").canonical() == "A PAR - BUR"
    result = parse_orders("\ufeffA PAR - BUR\n\u200b\nF BRE - MAO")
    assert [o.canonical() for o in result.orders] == ["A PAR - BUR", "F BRE - MAO"]
    assert result.errors == []


def test_full_width_text_reads_as_ascii() -> None:
    assert parse_order("Ａ ＰＡＲ － ＢＵＲ").canonical() == "A PAR - BUR"


BIDI_CONTROLS = [
    "\u200e",  # left-to-right mark (what phones insert most)
    "\u200f",  # right-to-left mark
    "\u061c",  # Arabic letter mark
    "\u202a",  # left-to-right embedding
    "\u202b",  # right-to-left embedding
    "\u202c",  # pop directional formatting
    "\u202d",  # left-to-right override
    "\u202e",  # right-to-left override
    "\u2066",  # left-to-right isolate
    "\u2067",  # right-to-left isolate
    "\u2068",  # first strong isolate
    "\u2069",  # pop directional isolate
]


@pytest.mark.parametrize("mark", BIDI_CONTROLS, ids=lambda m: f"U+{ord(m):04X}")
def test_direction_marks_are_folded_away(mark: str) -> None:
    # Inside a word, between words and around a whole line, as a phone keyboard leaves them.
    assert parse_order(f"A P{mark}AR - BUR").canonical() == "A PAR - BUR"
    assert parse_order(f"{mark}F BRE{mark} -{mark} MAO{mark}").canonical() == "F BRE - MAO"
    result = parse_orders(f"{mark}A PAR - BUR{mark}\n{mark}\nA MAR S A PAR - BUR", lang="en")
    assert [o.canonical() for o in result.orders] == ["A PAR - BUR", "A MAR S A PAR - BUR"]
    assert result.errors == []
    assert parse_order(f"A PAR - B{mark}OU", lang="fr").canonical() == "A PAR - BUR"
