"""The standings picture (renderer/standings.py): a row per player, in the tournament's
language, the header band drawn."""

from __future__ import annotations

import io

from PIL import Image

from renderer.standings import HEAD, ROW, TITLE, StandingLine, standings_png


def _lines(n: int) -> list[StandingLine]:
    return [StandingLine(i + 1, f"player{i}", 100.0 - i, {1: 50.5, 2: 49.0}) for i in range(n)]


def test_a_row_per_player_under_a_header_band() -> None:
    small = Image.open(io.BytesIO(standings_png(_lines(3), title="EDC", after_round=2)))
    big = Image.open(io.BytesIO(standings_png(_lines(49), title="EDC", after_round=2)))
    assert big.height - small.height == 46 * ROW
    assert small.convert("RGB").getpixel((2, TITLE + 2)) == HEAD


def test_the_words_are_the_tournament_language() -> None:
    en = standings_png(_lines(3), title="EDC", after_round=2, lang="en")
    fr = standings_png(_lines(3), title="EDC", after_round=2, lang="fr")
    assert en != fr
    # "classement après la ronde 2" is wider than "standings after round 2".
    assert Image.open(io.BytesIO(fr)).width >= Image.open(io.BytesIO(en)).width
