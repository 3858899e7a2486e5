"""Draw a position (and its orders and results) as a PNG.

`Renderer` keeps the static layers per (language, width): an index image of the provinces (one
palette entry per province, so re-colouring a position is a palette swap) and a transparent
overlay with borders, coastlines and labels. A render copies them, draws centres, units (antialiased
sprites made once per power and type), orders, title and legend with its key, pastes back the
labels an order crossed, and encodes the PNG. `render()` and `render_gif()` wrap a default Renderer.
"""

from __future__ import annotations

import io
import threading
from collections.abc import Collection, Iterable, Sequence
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from bot.core import catalogue
from bot.core.map import GameMap
from bot.core.model import Position, Power, ProvinceKind
from bot.core.orders import Order
from bot.core.outcome import OrderResult
from bot.core.stab.views import PUBLIC, Sight
from bot.paths import data_dir
from renderer.drawn import drawn
from renderer.geometry import Geometry
from renderer.layers import _geometry_for, _labels_for, _Static, build_static
from renderer.legend import KEY_LABELS, legend_counts, title_and_legend
from renderer.orders import DISLODGED, _Ctx
from renderer.palette import (
    FAIL,
    IMPASSABLE,
    INK,
    LAND,
    PALETTES,
    RGB,
    SEA,
    _Draw,
    _make_sprite,
    _mix,
    _Quantized,
    _Sprite,
    power_colours,
)
from renderer.png import encode_png

# Re-exported: the names the package and tests import from here.
__all__ = [
    "DISLODGED",
    "FAIL",
    "KEY_LABELS",
    "PALETTES",
    "PUBLIC",
    "RGB",
    "Renderer",
    "default_renderer",
    "legend_counts",
    "power_colours",
    "render",
    "render_gif",
]


class Renderer:
    """Renders positions of one map; caches the static layers per (language, width)."""

    def __init__(
        self,
        game_map: GameMap,
        geometry: Geometry | None = None,
        *,
        width: int = 1600,
        compress_level: int = 1,
    ) -> None:
        self.game_map = game_map
        self.geometry = geometry or _geometry_for(self.game_map)
        self.width = width
        # zlib level 1: the map is flat colour, level 1 is ~3x faster than 6 for ~15% more bytes.
        self.compress_level = compress_level
        self.pids = sorted(self.geometry.provinces)
        self._static: dict[tuple[str, int], _Static] = {}
        fonts = data_dir() / "fonts"
        self._bold = fonts / "DejaVuSans-Bold.ttf"
        self._regular = fonts / "DejaVuSans.ttf"
        self._labels = _labels_for(self.game_map)
        self._sprites: dict[tuple[object, ...], _Sprite] = {}
        # FreeType faces are not thread-safe: each thread opens its own, once per size.
        self._fonts = threading.local()
        # The legend's size and columns per (language, scale, title, rows): choosing them
        # measures a dozen trial layouts (issue 18: half a render's time).
        self.legend_fits: dict[tuple[object, ...], tuple[float, int]] = {}
        self.panels: dict[object, _Quantized] = {}  # the legend's panel, drawn and reduced

    # --- static layers -------------------------------------------------------------------

    def _font(self, size: float, bold: bool = True) -> ImageFont.FreeTypeFont:
        fonts: dict[tuple[bool, int], ImageFont.FreeTypeFont] | None = getattr(
            self._fonts, "by_size", None
        )
        if fonts is None:
            fonts = self._fonts.by_size = {}
        key = (bold, max(6, round(size)))
        font = fonts.get(key)
        if font is None:
            path: Path = self._bold if bold else self._regular
            font = fonts[key] = ImageFont.truetype(str(path), key[1])
        return font

    def sprite(
        self, key: tuple[object, ...], size: float, paint: object, keys: Sequence[RGB]
    ) -> _Sprite:
        """A cached sprite (unit icons, marks): drawn and reduced once per key, to its key
        colours and their midpoints (a picture has 256 colours: the unit icons of 7 powers must
        leave room for the orders)."""
        sp = self._sprites.get(key)
        if sp is None:
            sp = self._sprites[key] = _make_sprite(size, paint, keys)
        return sp

    def label(self, pid: str, lang: str) -> str:
        return self._labels.get(lang, {}).get(pid, pid)

    def static(self, lang: str, width: int) -> _Static:
        key = (lang, width)
        if key not in self._static:
            self._static[key] = build_static(self, lang, width)
        return self._static[key]

    # --- one picture ---------------------------------------------------------------------

    def image(
        self,
        position: Position,
        orders: Sequence[Order] | None = None,
        results: Sequence[OrderResult] | None = None,
        *,
        lang: str = "en",
        view: Power | str | None = None,
        palette: str = "default",
        width: int | None = None,
        visible: Collection[str] | None = None,
        game_over: bool = False,
        sight: Sight | None = None,
    ) -> Image.Image:
        """The picture as a palette image. `visible`: the provinces whose units the viewer can
        see; None shows every unit. `sight`: all a hidden-movement viewer may see (units,
        orders, results, centres, counts; bot/core/stab/views.py), drawn and nothing else."""
        colours = power_colours(self.game_map, palette)
        st = self.static(lang, width or self.width)
        s = st.scale
        gm = self.game_map

        d = drawn(gm, position, orders, results, view=view, visible=visible, sight=sight)
        position = d.position

        # Fills: a palette swap on the index image; drawing allocates further entries.
        pal = st.palette.copy()
        for i, pid in enumerate(self.pids):
            prov = gm.provinces.get(pid)
            fill = SEA
            if prov is not None and prov.kind is not ProvinceKind.SEA:
                fill = LAND
                owner = position.centers.get(pid)
                # Only owned centres are tinted (an "occupied" tint was unexplained), less pale
                # than before so that England's and France's blues stay apart.
                if owner is not None:
                    fill = _mix(colours[owner], (255, 255, 255), 0.25)
            pal.colours[i] = fill
        n = len(self.pids)
        pal.colours[n] = IMPASSABLE
        pal.colours[n + 1] = SEA
        img = st.index.copy()
        draw = _Draw(img, pal)

        ctx = _Ctx(self, draw, s, colours, position, lang=lang, labels=st.label_boxes)
        ctx.centres()
        ctx.units()
        ctx.orders(d.orders, d.result_of)
        for pid in sorted(d.marks & set(position.units)):
            ctx.dislodged_mark(ctx.unit_point(position.units[pid].location))
        for pid, (how, cut) in sorted(d.obscured.items()):
            _hidden_order(ctx, ctx.unit_point(position.units[pid].location), how, cut, lang)
        if d.retreat_options:
            ctx.retreat_options(d.orders)
        for box in ctx.crossed:
            # Labels an order line crossed are pasted back on top, so they stay readable.
            img.paste(st.index.crop(box), box[:2], st.label_mask.crop(box))
        for word_box, paint_word in ctx.words:
            draw.panel(word_box, paint_word)
        title_and_legend(ctx, lang, game_over=game_over, counts=d.counts)
        img.putpalette(pal.flat())
        return img

    def render(
        self,
        position: Position,
        orders: Sequence[Order] | None = None,
        results: Sequence[OrderResult] | None = None,
        *,
        lang: str = "en",
        view: Power | str | None = None,
        palette: str = "default",
        width: int | None = None,
        visible: Collection[str] | None = None,
        game_over: bool = False,
        sight: Sight | None = None,
    ) -> bytes:
        img = self.image(
            position,
            orders,
            results,
            lang=lang,
            view=view,
            palette=palette,
            width=width,
            visible=visible,
            game_over=game_over,
            sight=sight,
        )
        return encode_png(img, self.compress_level)


def _hidden_order(ctx: _Ctx, p: tuple[float, float], how: str, cut: bool, lang: str) -> None:
    """`S ?` / `C ?` beside a unit whose order the Stab! report keeps hidden (`F PIC S ?`), in
    the failure red when the support was cut (`; (cut)`), as the report says it."""
    word = catalogue.text("core", f"notation.{how}", lang) + " ?"
    s = ctx.s
    font = ctx.r._font(10.5 * s)
    tw = font.getlength(word)
    x, y = p[0] - ctx.radius * 1.25 - tw - 4 * s, p[1] - ctx.radius * 1.5
    halo = max(1, round(1.3 * s))

    def paint(d: ImageDraw.ImageDraw) -> None:
        d.text(
            (2 * s, 1 * s),
            word,
            font=font,
            fill=FAIL if cut else INK,
            stroke_width=halo,
            stroke_fill=(255, 255, 255),
        )

    # Pasted after the orders, as the dislodged word: no line runs over it.
    ctx.words.append(((x, y, x + tw + 4 * s, y + 15 * s), paint))


# --- functional wrappers ---------------------------------------------------------------------


_RENDERERS: dict[tuple[str, str], Renderer] = {}


def default_renderer(game_map: GameMap) -> Renderer:
    """A shared Renderer per map (it holds the static layers), made on first use."""
    key = (game_map.name, game_map.source)
    r = _RENDERERS.get(key)
    if r is None or r.game_map is not game_map:
        if len(_RENDERERS) >= 8:
            _RENDERERS.clear()
        r = _RENDERERS[key] = Renderer(game_map)
    return r


def render(
    game_map: GameMap,
    geometry: Geometry | None,
    position: Position,
    orders: Sequence[Order] | None = None,
    results: Sequence[OrderResult] | None = None,
    *,
    lang: str = "en",
    view: Power | str | None = None,
    palette: str = "default",
    width: int = 1600,
    visible: Collection[str] | None = None,
    game_over: bool = False,
    sight: Sight | None = None,
) -> bytes:
    """PNG bytes of a position, with its orders and, after adjudication, their results;
    `game_over`: the final map (its title says so)."""
    r = default_renderer(game_map)
    if geometry is not None and geometry is not r.geometry:
        r = Renderer(game_map, geometry, width=width)
    return r.render(
        position,
        orders,
        results,
        lang=lang,
        view=view,
        palette=palette,
        width=width,
        visible=visible,
        game_over=game_over,
        sight=sight,
    )


# One frame of a GIF: a board alone, or a board with a phase's orders and results.
Frame = Position | tuple[Position, Sequence[Order] | None, Sequence[OrderResult] | None]


def render_gif(
    frames: Iterable[Frame],
    *,
    lang: str = "en",
    width: int = 800,
    duration_ms: int = 1200,
    game_map: GameMap | None = None,
    renderer: Renderer | None = None,
    sights: Sequence[Sight] | None = None,
) -> bytes:
    """An animated GIF of a game's positions (optionally with each phase's orders and results),
    drawn by `renderer` or by the shared renderer of `game_map`; `sights`, one per frame: what
    a hidden-movement viewer may see of each (bot/core/stab/views.py)."""
    if renderer is None and game_map is None:
        raise ValueError("render_gif needs the game's map (or a renderer)")
    r = renderer or default_renderer(game_map)  # type: ignore[arg-type]
    images = []
    for i, frame in enumerate(frames):
        if isinstance(frame, Position):
            pos, orders, results = frame, None, None
        else:
            pos, orders, results = frame
        seen = None
        if sights is not None:
            if i >= len(sights):
                raise ValueError("render_gif: fewer sights than frames")
            seen = sights[i]
        img = r.image(pos, orders, results, lang=lang, width=width, sight=seen)
        images.append(img)  # already a palette image
    if not images:
        raise ValueError("render_gif needs at least one frame")
    if sights is not None and len(sights) != len(images):
        raise ValueError("render_gif: one sight per frame")
    buf = io.BytesIO()
    images[0].save(
        buf, format="GIF", save_all=True, append_images=images[1:], duration=duration_ms, loop=0
    )
    return buf.getvalue()
