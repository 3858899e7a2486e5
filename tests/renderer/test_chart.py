"""The centre-count chart: a PNG with one coloured line per power of the variant."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.core.map import load_map
from bot.core.model import Phase, Position, Power
from renderer.chart import centre_chart
from renderer.render import power_colours
from tests.standard import STANDARD

STD = load_map("standard")

POWER_COLOURS = power_colours(STANDARD)


def year_end(year: int, counts: dict[Power, int]) -> Position:
    it = iter(sorted(STD.supply_centers))
    centers = {next(it): p for p, n in counts.items() for _ in range(n)}
    return Position.build(Phase.parse(f"W{year}A"), (), centers)


def pixels(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png))
    img.load()
    return img.convert("RGB")


def count_colour(img: Image.Image, colour: tuple[int, int, int], box: tuple[int, ...]) -> int:
    colours = img.crop(box).getcolors(maxcolors=1 << 24) or []
    return sum(n for n, c in colours if c == colour)


def test_chart_is_a_png_with_every_power() -> None:
    history = [
        year_end(1901, {p: 4 if p is not Power.RUSSIA else 5 for p in STANDARD.powers}),
        year_end(1902, {Power.FRANCE: 8, Power.ENGLAND: 6, Power.RUSSIA: 6}),
        year_end(1903, {Power.FRANCE: 18, Power.ENGLAND: 4}),
    ]
    png = centre_chart(history, game_map=STANDARD)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    img = pixels(png)
    assert img.size == (800, 480)
    whole = (0, 0, *img.size)
    for power in STANDARD.powers:
        assert count_colour(img, POWER_COLOURS[power], whole) > 50, power
    # France reaches 18 of a 0-18 scale: its colour shows in the top fifth of the plot;
    # Germany never rises above 4, so it does not (the legend is right of x=650).
    top_band = (56, 30, 640, 130)
    assert count_colour(img, POWER_COLOURS[Power.FRANCE], top_band) > 10
    assert count_colour(img, POWER_COLOURS[Power.GERMANY], top_band) == 0


def test_sandard_has_no_turkey_and_french_labels() -> None:
    sandard = load_map("sandard")
    history = [year_end(1901, {Power.FRANCE: 5}), year_end(1902, {Power.FRANCE: 6})]
    img = pixels(centre_chart(history, game_map=sandard, lang="fr"))
    assert count_colour(img, POWER_COLOURS[Power.TURKEY], (0, 0, *img.size)) == 0
    assert count_colour(img, POWER_COLOURS[Power.FRANCE], (0, 0, *img.size)) > 50


def test_empty_history_is_an_error() -> None:
    with pytest.raises(ValueError, match="no year"):
        centre_chart([], game_map=STANDARD)
