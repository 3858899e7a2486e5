"""Centre counts over the years, as a PNG line chart (Pillow only), for the end of a game.

`centre_chart(history)` takes the year-end positions (see `bot.core.ending.endgame`) and returns
PNG bytes: one line per power, years across, centres up, the solo line dashed.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image, ImageDraw, ImageFont

from bot.core.catalogue import text
from bot.core.ending.endgame import centre_counts_by_year, solo_threshold
from bot.core.map import GameMap
from bot.core.model import Position
from bot.paths import data_dir
from renderer.render import power_colours

WIDTH, HEIGHT = 800, 480
LEFT, RIGHT, TOP, BOTTOM = 56, 150, 40, 48
BACKGROUND = (255, 255, 255)
AXIS = (40, 40, 40)
GRID = (225, 225, 225)


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    path = data_dir() / "fonts" / "DejaVuSans.ttf"
    try:
        return ImageFont.truetype(str(path), size)
    except OSError:
        return ImageFont.load_default(size)


def centre_chart(
    history: Sequence[Position],
    *,
    game_map: GameMap,
    lang: str = "en",
    title: str | None = None,
) -> bytes:
    """PNG bytes of the centre count of each power at the end of each year in `history`."""
    data = centre_counts_by_year(history)
    if not data:
        raise ValueError("no year to chart")
    years = [y for y, _ in data]
    solo = solo_threshold(game_map)
    colours = power_colours(game_map)
    top = max([solo, *(n for _, c in data for n in c.values())])
    img = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(img)
    small, big = _font(12), _font(16)
    x0, x1 = LEFT, WIDTH - RIGHT
    y0, y1 = HEIGHT - BOTTOM, TOP

    def px(i: int) -> int:
        return x0 + (x1 - x0) * i // max(1, len(years) - 1)

    def py(n: int) -> int:
        return y0 - (y0 - y1) * n // top

    for n in range(0, top + 1, 2):
        draw.line([(x0, py(n)), (x1, py(n))], fill=GRID)
        draw.text((x0 - 8, py(n)), str(n), fill=AXIS, font=small, anchor="rm")
    for i, y in enumerate(years):
        draw.line([(px(i), y0), (px(i), y0 + 4)], fill=AXIS)
        draw.text((px(i), y0 + 8), str(y), fill=AXIS, font=small, anchor="mt")
    # The solo line: strictly more than half of the centres on the map.
    for x in range(x0, x1, 12):
        draw.line([(x, py(solo)), (min(x + 6, x1), py(solo))], fill=(160, 0, 0))
    draw.line([(x0, y0), (x1, y0)], fill=AXIS, width=2)
    draw.line([(x0, y0), (x0, y1)], fill=AXIS, width=2)
    heading = title or text("render", "chart.title", lang)
    draw.text((WIDTH // 2, 12), heading, fill=AXIS, font=big, anchor="mt")

    for power in game_map.powers:
        colour = colours.get(power, AXIS)
        points = [(px(i), py(counts.get(power, 0))) for i, (_, counts) in enumerate(data)]
        if len(points) > 1:
            draw.line(points, fill=colour, width=3, joint="curve")
        for x, y in points:
            draw.ellipse([(x - 3, y - 3), (x + 3, y + 3)], fill=colour)
    # The legend is the final standing: most centres first.
    final = data[-1][1]
    standing = sorted(game_map.powers, key=lambda p: (-final.get(p, 0), p.value))
    for k, power in enumerate(standing):
        colour = colours.get(power, AXIS)
        ly = TOP + 10 + 24 * k
        draw.rectangle([(x1 + 20, ly - 6), (x1 + 36, ly + 6)], fill=colour)
        label = f"{game_map.power_name(power, lang)} {final.get(power, 0)}"
        draw.text((x1 + 44, ly), label, fill=AXIS, font=small, anchor="lm")

    out = io.BytesIO()
    img.save(out, format="PNG", optimize=True)
    return out.getvalue()
