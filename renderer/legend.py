"""The title and legend box: phase, powers with their counts, and the key of the order styles
(each sample drawn with the map's own primitives)."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PIL import ImageDraw, ImageFont

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
    from bot.core.model import Power
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


def _covers_a_place(ctx: _Ctx, box: tuple[float, float, float, float]) -> bool:
    """Would the legend box hide a unit, a centre or a label (NAO's fleet, on the standard
    map)? Every place counts, occupied or not, so the layout does not move with the game."""
    x0, y0, x1, y1 = box
    m = ctx.r.geometry.unit_radius * ctx.s
    for shape in ctx.r.geometry.provinces.values():
        points = [shape.anchor, shape.label, *shape.coasts.values()]
        if shape.sc is not None:
            points.append(shape.sc)
        for px, py in points:
            x, y = px * ctx.s, py * ctx.s
            if x0 - m <= x <= x1 + m and y0 - m <= y <= y1 + m:
                return True
    return False


Counts = tuple[tuple["Power", int, int | None], ...]


def title_and_legend(
    ctx: _Ctx, lang: str, *, game_over: bool = False, counts: Counts | None = None
) -> None:
    """`counts`: each power's (centres, units) to show, units None where the viewer does not
    know them (hidden movement); None: the drawn position's."""
    # As large as the preview wants, but never over a place: the powers in one column or two,
    # whichever fits at the larger size, shrinking until it fits.
    shown = counts if counts is not None else _counts(ctx)
    key = (lang, ctx.s, game_over, ctx.position.phase, shown)
    fit = ctx.r.legend_fits.get(key)
    if fit is None:
        best = (0.0, 1)
        for cols in (1, 2):
            scale = LEGEND_SCALE
            while scale > 0.85 and _covers_a_place(
                ctx, _layout(ctx, lang, scale, cols, game_over=game_over, counts=shown).box
            ):
                scale -= 0.05
            best = max(best, (scale, -cols))
        fit = (best[0], -best[1])
        if len(ctx.r.legend_fits) >= 4096:  # bounded: counts vary from game to game
            ctx.r.legend_fits.clear()
        ctx.r.legend_fits[key] = fit
    _draw_legend(ctx, lang, fit[0], fit[1], game_over=game_over, counts=shown)


def _counts(ctx: _Ctx) -> Counts:
    """Each power's (centres, units) on the drawn position: with the language and the phase,
    all the legend's size and panel depend on."""
    centres = Counter(ctx.position.centers.values())
    units = Counter(u.power for u in ctx.position.units.values())
    return tuple((p, centres[p], units[p]) for p in ctx.gm.powers)


@dataclass(frozen=True, slots=True)
class _Layout:
    """The legend box at one size: where it goes and what it holds."""

    x0: float
    y0: float
    box_w: float
    box_h: float
    s: float  # pixels per unit at this size
    title_font: ImageFont.FreeTypeFont
    font: ImageFont.FreeTypeFont
    line_h: float
    keys: tuple[str, ...]
    key_y: float
    key_rows: int
    title: str
    rows: list[tuple[Power, str, str]]

    @property
    def box(self) -> tuple[float, float, float, float]:
        return (self.x0, self.y0, self.x0 + self.box_w, self.y0 + self.box_h)


def _layout(
    ctx: _Ctx, lang: str, scale: float, cols: int, *, game_over: bool, counts: Counts | None
) -> _Layout:
    s = ctx.s * scale
    title_font = ctx.r._font(17 * s)
    font = ctx.r._font(11 * s, bold=False)
    x0, y0 = 10 * s, 10 * s
    powers = list(ctx.gm.powers)
    line_h = 15 * s
    keys = KEY_LABELS.get(lang) or KEY_LABELS[DEFAULT_LANG]
    power_rows = -(-len(powers) // cols)
    key_y = (34 + line_h / s * power_rows + 6) * s  # the key's first row, from the top
    key_rows = (len(keys) + 1) // 2
    box_h = key_y + key_rows * line_h + 6 * s
    title = ctx.position.phase.describe(lang)
    if game_over:
        title = catalogue.text("render", "title.game_over", lang, phase=title)
    rows = []
    if counts is None:
        counts = _counts(ctx)
    for p, n_sc, n_u in counts:
        rows.append((p, ctx.gm.power_name(p, lang), legend_counts(n_sc, n_u, lang)))
    box_w = max(
        215 * s,
        title_font.getlength(title) + 18 * s,
        cols * (max(font.getlength(n) + font.getlength(c) for _, n, c in rows) + 44 * s),
        2 * (max(font.getlength(k) for k in keys) + 44 * s),
    )
    return _Layout(
        x0, y0, box_w, box_h, s, title_font, font, line_h, tuple(keys), key_y, key_rows, title, rows
    )


def _draw_legend(
    ctx: _Ctx, lang: str, scale: float, cols: int, *, game_over: bool, counts: Counts | None
) -> None:
    lay = _layout(ctx, lang, scale, cols, game_over=game_over, counts=counts)
    x0, y0, box_w, box_h, s, line_h = lay.x0, lay.y0, lay.box_w, lay.box_h, lay.s, lay.line_h
    title_font, font, keys, key_y, key_rows, title, rows = (
        lay.title_font,
        lay.font,
        lay.keys,
        lay.key_y,
        lay.key_rows,
        lay.title,
        lay.rows,
    )
    col_w = box_w / 2
    power_w = box_w / cols
    power_rows = -(-len(rows) // cols)

    def row_at(k: int) -> tuple[float, float]:  # (x, y) of power row k inside the box
        return (k // power_rows) * power_w, 32 * s + (k % power_rows) * line_h

    def paint(d: ImageDraw.ImageDraw) -> None:
        d.rounded_rectangle(
            (0, 0, box_w - 1, box_h - 1),
            radius=6 * s,
            fill=(250, 248, 240),
            outline=(90, 90, 90),
            width=max(1, round(s)),
        )
        d.text((8 * s, 6 * s), title, font=title_font, fill=INK)
        for k, (_, name, row_counts) in enumerate(rows):
            x, y = row_at(k)
            d.text((x + 24 * s, y), name, font=font, fill=INK)
            d.text((x + power_w - 10 * s, y), row_counts, font=font, fill=INK, anchor="ra")
        d.line((8 * s, key_y - 4 * s, box_w - 8 * s, key_y - 4 * s), fill=(190, 185, 170))
        for k, text in enumerate(keys):
            tx = (k // key_rows) * col_w + 36 * s
            ty = key_y + (k % key_rows) * line_h
            d.text((tx, ty), text, font=font, fill=INK)

    # Everything the panel shows follows from the legend's key (see title_and_legend).
    shown = counts if counts is not None else _counts(ctx)
    key = (lang, ctx.s, scale, cols, game_over, ctx.position.phase, shown)
    ctx.draw.panel((x0, y0, x0 + box_w, y0 + box_h), paint, cache=ctx.r.panels, key=key)
    # Swatches after the panel, in the exact power colours.
    sw = 9 * s
    for k, (p, _, _) in enumerate(rows):
        x, y = row_at(k)
        ctx.draw.rectangle(
            (x0 + x + 8 * s, y0 + y + 2 * s, x0 + x + 8 * s + sw, y0 + y + 2 * s + sw),
            fill=ctx.colours[p],
            outline=INK,
        )
    for k in range(len(keys)):
        cx = x0 + (k // key_rows) * col_w + 6 * s
        cy = y0 + key_y + (k % key_rows) * line_h + 7 * s
        key_sample(ctx, k, cx, cy, scale)


def key_sample(ctx: _Ctx, k: int, x: float, y: float, scale: float = LEGEND_SCALE) -> None:
    """The k-th legend sample (KEY_LABELS order), drawn with the map's own primitives in a
    box 24 units wide starting at x, centred on y."""
    s = ctx.s * scale
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


def legend_counts(centres: int, units: int | None, lang: str) -> str:
    """A legend row's counts: `1 SC · 1 unit`, `1 centre · 2 unités` (French: singular for 0
    and 1); `3 SC` alone when the units are not known (hidden movement)."""
    if units is None:
        return catalogue.text("render", "counts.centres", lang, n=centres)
    return catalogue.text(
        "render",
        "counts.row",
        lang,
        centres=catalogue.text("render", "counts.centres", lang, n=centres),
        units=catalogue.text("render", "counts.units", lang, n=units),
    )
