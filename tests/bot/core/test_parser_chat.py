"""Order sets pasted from a chat (Discord markdown): code fences, quotes and emphasis around
the orders are not orders, and do not make a whole set fail."""

from __future__ import annotations

from bot.core.parser import parse_order, parse_orders


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
