"""A tournament's standings as a picture: a table drawn with Pillow, in the tournament's
language (catalogue `tournament`, `picture.*`). Pure: rows in, PNG bytes out."""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

from bot.core.catalogue import meta, text
from bot.paths import data_dir

BACKGROUND = (255, 255, 255)
INK = (30, 30, 30)
HEAD = (44, 62, 80)
HEAD_INK = (255, 255, 255)
STRIPE = (240, 243, 247)
PAD, ROW, TITLE = 12, 26, 44
MAX_NAME = 28  # characters of a name shown


@dataclass(frozen=True, slots=True)
class StandingLine:
    rank: int
    name: str
    total: float
    rounds: Mapping[int, float]  # round -> score counted
    note: str = ""  # e.g. "final table winner"


def _font(size: int, *, bold: bool = False) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    path = data_dir() / "fonts" / ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")
    try:
        return ImageFont.truetype(str(path), size)
    except OSError:
        return ImageFont.load_default(size)


def _number(value: float, lang: str) -> str:
    return f"{round(value, 2):g}".replace(".", meta(lang).decimal)


def standings_png(
    lines: Sequence[StandingLine], *, title: str, after_round: int, lang: str = "en"
) -> bytes:
    """PNG bytes of the standings: rank, player, total, each round's score, a note."""
    rounds = sorted({n for line in lines for n in line.rounds})
    heads = [
        text("tournament", "picture.rank", lang),
        text("tournament", "picture.player", lang),
        text("tournament", "picture.total", lang),
        *(text("tournament", "picture.round", lang, n=n) for n in rounds),
        "",
    ]
    cells = [
        [
            str(line.rank),
            line.name if len(line.name) <= MAX_NAME else line.name[: MAX_NAME - 1] + "…",
            _number(line.total, lang),
            *(_number(line.rounds[n], lang) if n in line.rounds else "–" for n in rounds),
            line.note,
        ]
        for line in lines
    ]
    body, bold, big = _font(14), _font(14, bold=True), _font(18, bold=True)
    probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    widths = [
        max(
            [int(probe.textlength(h, font=bold))]
            + [int(probe.textlength(row[i], font=body)) for row in cells]
        )
        + 2 * PAD
        for i, h in enumerate(heads)
    ]
    heading = text("tournament", "picture.title", lang, name=title, round=after_round)
    width = max(sum(widths), int(probe.textlength(heading, font=big)) + 2 * PAD)
    height = TITLE + ROW * (len(cells) + 1) + PAD
    img = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(img)
    draw.text((PAD, PAD), heading, font=big, fill=INK)
    y = TITLE
    draw.rectangle((0, y, width, y + ROW), fill=HEAD)
    x = 0
    right = {0, 2, *range(3, 3 + len(rounds))}  # numbers are right-aligned
    for i, h in enumerate(heads):
        _cell(draw, x, y, widths[i], h, bold, HEAD_INK, i in right)
        x += widths[i]
    for r, row in enumerate(cells):
        y = TITLE + ROW * (r + 1)
        if r % 2:
            draw.rectangle((0, y, width, y + ROW), fill=STRIPE)
        x = 0
        for i, value in enumerate(row):
            _cell(draw, x, y, widths[i], value, bold if i == 2 else body, INK, i in right)
            x += widths[i]
    out = io.BytesIO()
    img.save(out, format="PNG", optimize=True)
    return out.getvalue()


def _cell(  # noqa: PLR0917 - one cell of the table
    draw: ImageDraw.ImageDraw,
    x: int,
    y: int,
    width: int,
    value: str,
    font: ImageFont.FreeTypeFont | ImageFont.ImageFont,
    fill: tuple[int, int, int],
    right: bool,
) -> None:
    w = int(draw.textlength(value, font=font))
    left = x + width - PAD - w if right else x + PAD
    draw.text((left, y + (ROW - 16) // 2), value, font=font, fill=fill)
