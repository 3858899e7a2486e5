"""The title and legend box: phase, powers with their counts, and the key of the order styles
(each sample drawn with the map's own primitives)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import TYPE_CHECKING

from PIL import ImageDraw

from bot.core import catalogue
from bot.core.catalogue import DEFAULT_LANG, languages
from renderer.orders import _angles
from renderer.palette import (
    BUILD,
    CONVOY_DASH,
    FAIL,
    ILLEGAL_DASH,
    INK,
    RETREAT_DASH,
    RGB,
    SUPPORT_DASH,
    _dark,
    _mix,
)

if TYPE_CHECKING:
    from renderer.orders import _Ctx

# The legend's key, in the order of _Ctx.key_sample: `[legend]` of the render catalogues.
_KEY_ORDER = (
    *("move", "support", "convoy", "hold", "failed", "illegal", "dislodged"),
    *("retreat_option", "build_remove"),
)
# The title, legend and key drawn this much larger than at the map's scale: readable in the
# preview (about 7 px high at 550 px wide).
LEGEND_SCALE = 1.35
KEY_LABELS: Mapping[str, tuple[str, ...]] = {
    lang: tuple(catalogue.text("render", f"legend.{k}", lang) for k in _KEY_ORDER)
    for lang in languages()
}


def title_and_legend(ctx: _Ctx, lang: str, *, game_over: bool = False) -> None:
    s = ctx.s * LEGEND_SCALE
    title_font = ctx.r._font(17 * s)
    font = ctx.r._font(11 * s, bold=False)
    x0, y0 = 10 * s, 10 * s
    powers = list(ctx.gm.powers)
    line_h = 15 * s
    box_w = 215 * s
    keys = KEY_LABELS.get(lang) or KEY_LABELS[DEFAULT_LANG]
    key_y = (34 + line_h / s * len(powers) + 6) * s  # the key's first row, from the top
    key_rows = (len(keys) + 1) // 2
    box_h = key_y + key_rows * line_h + 6 * s
    title = ctx.position.phase.describe(lang)
    if game_over:
        title = catalogue.text("render", "title.game_over", lang, phase=title)
    rows = []
    for p in powers:
        n_sc = sum(1 for o in ctx.position.centers.values() if o is p)
        n_u = sum(1 for u in ctx.position.units.values() if u.power is p)
        rows.append((p, ctx.gm.power_name(p, lang), legend_counts(n_sc, n_u, lang)))
    box_w = max(
        box_w,
        title_font.getlength(title) + 18 * s,
        max(font.getlength(n) + font.getlength(c) for _, n, c in rows) + 44 * s,
        2 * (max(font.getlength(k) for k in keys) + 44 * s),
    )
    col_w = box_w / 2

    def paint(d: ImageDraw.ImageDraw) -> None:
        d.rounded_rectangle(
            (0, 0, box_w - 1, box_h - 1),
            radius=6 * s,
            fill=(250, 248, 240),
            outline=(90, 90, 90),
            width=max(1, round(s)),
        )
        d.text((8 * s, 6 * s), title, font=title_font, fill=INK)
        y = 32 * s
        for _, name, counts in rows:
            d.text((24 * s, y), name, font=font, fill=INK)
            d.text((box_w - 10 * s, y), counts, font=font, fill=INK, anchor="ra")
            y += line_h
        d.line((8 * s, key_y - 4 * s, box_w - 8 * s, key_y - 4 * s), fill=(190, 185, 170))
        for k, text in enumerate(keys):
            tx = (k // key_rows) * col_w + 36 * s
            ty = key_y + (k % key_rows) * line_h
            d.text((tx, ty), text, font=font, fill=INK)

    ctx.draw.panel((x0, y0, x0 + box_w, y0 + box_h), paint)
    # Swatches after the panel, in the exact power colours.
    sw = 9 * s
    for k, (p, _, _) in enumerate(rows):
        y = y0 + 32 * s + k * line_h
        ctx.draw.rectangle(
            (x0 + 8 * s, y + 2 * s, x0 + 8 * s + sw, y + 2 * s + sw),
            fill=ctx.colours[p],
            outline=INK,
        )
    for k in range(len(keys)):
        cx = x0 + (k // key_rows) * col_w + 6 * s
        cy = y0 + key_y + (k % key_rows) * line_h + 7 * s
        key_sample(ctx, k, cx, cy)


def key_sample(ctx: _Ctx, k: int, x: float, y: float) -> None:
    """The k-th legend sample (KEY_LABELS order), drawn with the map's own primitives in a
    box 24 units wide starting at x, centred on y."""
    s = ctx.s * LEGEND_SCALE
    ink = _dark((90, 110, 150), 0.3)
    a, b = (x, y), (x + 22 * s, y)

    def sample(
        colour: RGB, dash: tuple[float, float] | None, width: float, head: str, failed: bool
    ) -> None:
        ctx.line(
            a,
            b,
            colour,
            dash=dash,
            width=width,
            head=head,
            failed=failed,
            shorten=0.0,
            shorten_start=False,
            clip_labels=False,
            track_labels=False,
        )

    if k == 0:  # move
        sample(ink, None, 2.4, "arrow", False)
    elif k == 1:  # support
        sample(ink, SUPPORT_DASH, 1.8, "dot", False)
        ctx.flush_dots()
    elif k == 2:  # convoy
        sample(ink, CONVOY_DASH, 1.6, "arrow", False)
        ctx.convoy_ring((x + 9 * s, y), ink, rr=5.5 * s)
    elif k == 3:  # hold
        rr = 6 * s
        c = (x + 13 * s, y)
        pts = [(c[0] + rr * math.cos(t), c[1] + rr * math.sin(t)) for t in _angles(8, math.pi / 8)]
        ctx.draw.polygon(pts, outline=ink, width=max(2, round(1.8 * s)))
    elif k == 4:  # failed: the order's colour, a red cross on the line
        sample(_mix(ink, (255, 255, 255), 0.2), None, 2.4, "arrow", False)
        ctx.cross((x + 10 * s, y), size=3.5 * s, track=False)
    elif k == 5:  # illegal: red and dashed, crossed
        sample(FAIL, ILLEGAL_DASH, 2.4, "arrow", False)
        ctx.cross((x + 10 * s, y), size=3.5 * s, track=False)
    elif k == 6:  # dislodged
        ctx.dislodged_mark((x + 11 * s, y), radius=5.2 * s, word=False)
    elif k == 7:  # retreat option
        sample(ink, RETREAT_DASH, 1.2, "arrow", False)
    elif k == 8:  # build / remove
        rr = 5.5 * s
        c = (x + 7 * s, y)
        ctx.draw.ellipse(
            (c[0] - rr, c[1] - rr, c[0] + rr, c[1] + rr),
            outline=BUILD,
            width=max(2, round(2 * s)),
        )
        ctx.cross((x + 21 * s, y), size=4 * s, track=False)


def legend_counts(centres: int, units: int, lang: str) -> str:
    """A legend row's counts: `1 SC · 1 unit`, `1 centre · 2 unités` (French: singular for 0
    and 1)."""
    return catalogue.text(
        "render",
        "counts.row",
        lang,
        centres=catalogue.text("render", "counts.centres", lang, n=centres),
        units=catalogue.text("render", "counts.units", lang, n=units),
    )
