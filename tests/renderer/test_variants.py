"""The renderer takes the powers' colours and the labels from the variant; hidden units draw
nothing of them."""

from __future__ import annotations

import io

from PIL import Image

from bot.core.map import load_map
from bot.core.model import Position, Power, Unit
from renderer import Renderer, power_colours, render
from tests.variants import tri

WIDTH = 860  # the test variant's geometry is 860 units wide: one pixel per unit


def pixels(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def count(img: Image.Image, colour: tuple[int, int, int], box: tuple[int, int, int, int]) -> int:
    region = img.crop(box)
    return sum(n for n, c in region.getcolors(region.width * region.height) or [] if c == colour)


def test_the_test_variant_is_drawn_in_its_own_colours() -> None:
    gm = tri()
    img = pixels(render(gm, None, gm.start, width=WIDTH))
    colours = power_colours(gm)
    assert colours[Power("WEST")] == (48, 160, 64)
    # North's army in Highmoor (column 4, row 1: x 740-860, y 150-300) is in North's colour.
    assert count(img, colours[Power("NORTH")], (740, 150, 860, 300)) > 100
    assert count(img, colours[Power("EAST")], (740, 150, 860, 300)) == 0
    blind = pixels(Renderer(gm, width=WIDTH).render(gm.start, palette="colorblind"))
    assert count(blind, power_colours(gm, "colorblind")[Power("NORTH")], (740, 150, 860, 300))


def test_hidden_units_draw_nothing_of_them() -> None:
    gm = tri()
    # A West army in the Waste (no centre), hidden from view: its icon is the only West colour.
    pos = Position(gm.start.phase, {"WST": Unit.parse(Power("WEST"), "A WST")}, {})
    west = power_colours(gm)[Power("WEST")]
    box = (260, 150, 380, 300)
    shown = pixels(render(gm, None, pos, width=WIDTH))
    hidden = pixels(render(gm, None, pos, width=WIDTH, visible=set()))
    assert count(shown, west, box) > 25
    assert count(hidden, west, box) == 0
    assert hidden.getpixel((320, 260)) == pixels(
        render(gm, None, Position(pos.phase, {}, {}), width=WIDTH)
    ).getpixel((320, 260))  # the province is the plain land colour, not a tint


def test_sandard_draws_on_the_standard_board_without_turkey() -> None:
    six = load_map("sandard")
    assert Power.TURKEY not in power_colours(six)
    img = pixels(render(six, None, six.start, width=500))
    assert img.size[0] == 500
