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

from PIL import Image, ImageFont

from bot.core.map import GameMap
from bot.core.model import Position, Power, ProvinceKind
from bot.core.orders import Order, UnitOrder
from bot.core.outcome import OrderResult
from bot.paths import data_dir
from renderer.geometry import Geometry
from renderer.layers import _geometry_for, _labels_for, _Static, build_static
from renderer.legend import KEY_LABELS, legend_counts, title_and_legend
from renderer.orders import DISLODGED, _Ctx
from renderer.palette import (
    FAIL,
    IMPASSABLE,
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

PUBLIC = "public"


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
    ) -> Image.Image:
        """The picture as a palette image. `visible`: the provinces whose units the viewer can
        see (hidden-movement variants); None shows every unit."""
        colours = power_colours(self.game_map, palette)
        st = self.static(lang, width or self.width)
        s = st.scale
        gm = self.game_map

        shown_orders, result_of = self._select(orders, results, view)
        if visible is not None:
            # Filtered before the fills: a hidden unit must not tint its province either.
            seen = frozenset(visible)
            position = Position(
                position.phase,
                {p: u for p, u in position.units.items() if p in seen},
                position.centers,
                tuple(d for d in position.dislodged if d.unit.province in seen),
            )
            shown_orders = [
                o for o in shown_orders if not isinstance(o, UnitOrder) or o.unit.province in seen
            ]

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
        ctx.orders(shown_orders, result_of)
        ctx.retreat_options(shown_orders)
        for box in ctx.crossed:
            # Labels an order line crossed are pasted back on top, so they stay readable.
            img.paste(st.index.crop(box), box[:2], st.label_mask.crop(box))
        for word_box, paint_word in ctx.words:
            draw.panel(word_box, paint_word)
        title_and_legend(ctx, lang, game_over=game_over)
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
        )
        return encode_png(img, self.compress_level)

    def _select(
        self,
        orders: Sequence[Order] | None,
        results: Sequence[OrderResult] | None,
        view: Power | str | None,
    ) -> tuple[list[Order], dict[Order, OrderResult]]:
        result_of: dict[Order, OrderResult] = {}
        for r in results or ():
            result_of.setdefault(r.order, r)
        chosen: list[Order] = (
            list(orders) if orders is not None else [r.order for r in results or ()]
        )
        if results is None and view is not None:
            # Before adjudication a power sees its own orders; the public sees none.
            chosen = [] if view == PUBLIC else [o for o in chosen if o.power == view]
        return chosen, result_of


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
    )


def render_gif(
    frames: Iterable[
        Position | tuple[Position, Sequence[Order] | None, Sequence[OrderResult] | None]
    ],
    *,
    lang: str = "en",
    width: int = 800,
    duration_ms: int = 1200,
    game_map: GameMap | None = None,
    renderer: Renderer | None = None,
) -> bytes:
    """An animated GIF of a game's positions (optionally with each phase's orders and results),
    drawn by `renderer` or by the shared renderer of `game_map`."""
    if renderer is None and game_map is None:
        raise ValueError("render_gif needs the game's map (or a renderer)")
    r = renderer or default_renderer(game_map)  # type: ignore[arg-type]
    images = []
    for frame in frames:
        if isinstance(frame, Position):
            pos, orders, results = frame, None, None
        else:
            pos, orders, results = frame
        img = r.image(pos, orders, results, lang=lang, width=width)
        images.append(img)  # already a palette image
    if not images:
        raise ValueError("render_gif needs at least one frame")
    buf = io.BytesIO()
    images[0].save(
        buf, format="GIF", save_all=True, append_images=images[1:], duration=duration_ms, loop=0
    )
    return buf.getvalue()
