"""Draw a position (and its orders and results) as a PNG.

`Renderer` keeps the static layers per (language, width): an index image of the provinces (one
palette entry per province, so re-colouring a position is a palette swap) and a transparent
overlay with borders, coastlines and labels. A render copies them, draws centres, units (antialiased
sprites made once per power and type), orders, title and legend with its key, pastes back the
labels an order crossed, and encodes the PNG. `render()` and `render_gif()` wrap a default Renderer.
"""

from __future__ import annotations

import io
import math
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from bot.core import catalogue
from bot.core.catalogue import DEFAULT_LANG, languages
from bot.core.map import GameMap
from bot.core.model import Location, PhaseKind, Position, Power, ProvinceKind, Unit, UnitType
from bot.core.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Retreat,
    SupportHold,
    SupportMove,
    UnitOrder,
)
from bot.core.outcome import OrderResult, Reason
from bot.paths import data_dir
from renderer.geometry import (
    Geometry,
    GeometryError,
    Point,
    load_geometry,
    load_geometry_file,
    load_labels,
)

RGB = tuple[int, int, int]

# The palettes a picture may use; the colours are the variant's (`PowerInfo.colour`, and the
# Okabe-Ito `colour_blind` one on the standard map).
PALETTES: tuple[str, ...] = ("default", "colorblind")


def power_colours(game_map: GameMap, palette: str = "default") -> Mapping[Power, RGB]:
    """Each power's colour on this map in the named palette (unknown palette: the default)."""
    blind = palette == "colorblind"
    return {p: (i.colour_blind if blind else i.colour) for p, i in game_map.power_info.items()}


SEA: RGB = (190, 214, 234)
LAND: RGB = (238, 229, 203)
IMPASSABLE: RGB = (196, 190, 178)
FAIL: RGB = (214, 30, 30)
INK: RGB = (25, 25, 30)

PUBLIC = "public"

# Dash patterns (on, off, in map units): supports dotted, convoys long-dashed.
SUPPORT_DASH = (2.2, 3.0)
CONVOY_DASH = (8.0, 3.0)
RETREAT_DASH = (3.0, 4.0)
BUILD: RGB = (60, 160, 60)

# The legend's key, in the order of _Ctx.key_sample: `[legend]` of the render catalogues.
_KEY_ORDER = (
    *("move", "support", "convoy", "hold", "failed", "dislodged"),
    *("retreat_option", "build_remove"),
)
KEY_LABELS: Mapping[str, tuple[str, ...]] = {
    lang: tuple(catalogue.text("render", f"legend.{k}", lang) for k in _KEY_ORDER)
    for lang in languages()
}

# The mark under a dislodged unit, in the game's language.
DISLODGED: Mapping[str, str] = {
    lang: catalogue.text("render", "unit.dislodged", lang) for lang in languages()
}


def _mix(c: RGB, other: RGB, t: float) -> RGB:
    return (
        round(c[0] * (1 - t) + other[0] * t),
        round(c[1] * (1 - t) + other[1] * t),
        round(c[2] * (1 - t) + other[2] * t),
    )


def _luma(c: RGB) -> float:
    return 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]


def _dark(c: RGB, t: float = 0.35) -> RGB:
    return _mix(c, (0, 0, 0), t)


class _Palette:
    """Palette entries of one picture: RGB colour -> index, allocated on first use."""

    def __init__(self, colours: Sequence[RGB]) -> None:
        self.colours: list[RGB] = list(colours)
        self.index: dict[RGB, int] = {}

    def copy(self) -> _Palette:
        p = _Palette(self.colours)
        p.index = dict(self.index)
        return p

    def ink(self, rgb: RGB) -> int:
        i = self.index.get(rgb)
        if i is None:
            if len(self.colours) >= 256:
                # Full: the nearest existing colour, remembered for the rest of the picture.
                r, g, b = rgb
                i = min(
                    range(len(self.colours)),
                    key=lambda k: (
                        (self.colours[k][0] - r) ** 2
                        + (self.colours[k][1] - g) ** 2
                        + (self.colours[k][2] - b) ** 2
                    ),
                )
                self.index[rgb] = i
                return i
            i = len(self.colours)
            self.colours.append(rgb)
            self.index[rgb] = i
        return i

    def flat(self) -> list[int]:
        return [v for c in self.colours for v in c]


class _Draw:
    """ImageDraw on a palette image, taking RGB colours (mapped through the picture's palette)."""

    def __init__(self, img: Image.Image, pal: _Palette) -> None:
        self.img = img
        self.d = ImageDraw.Draw(img)
        self.pal = pal

    def _kw(self, kw: dict[str, object]) -> dict[str, object]:
        for k in ("fill", "outline"):
            v = kw.get(k)
            if isinstance(v, tuple):
                kw[k] = self.pal.ink(v[:3])
        return kw

    def line(self, xy: object, **kw: object) -> None:
        self.d.line(xy, **self._kw(kw))  # type: ignore[arg-type]

    def polygon(self, xy: object, **kw: object) -> None:
        self.d.polygon(xy, **self._kw(kw))  # type: ignore[arg-type]

    def ellipse(self, xy: object, **kw: object) -> None:
        self.d.ellipse(xy, **self._kw(kw))  # type: ignore[arg-type]

    def rectangle(self, xy: object, **kw: object) -> None:
        self.d.rectangle(xy, **self._kw(kw))  # type: ignore[arg-type]

    def arc(self, xy: object, start: float, end: float, **kw: object) -> None:
        self.d.arc(xy, start, end, **self._kw(kw))  # type: ignore[arg-type]

    def rounded_rectangle(self, xy: object, **kw: object) -> None:
        self.d.rounded_rectangle(xy, **self._kw(kw))  # type: ignore[arg-type]

    def sprite(self, sp: _Sprite, p: Point) -> None:
        """Paste a sprite centred on `p`, its colours mapped into the picture's palette."""
        lut = [self.pal.ink(c) for c in sp.colours]
        lut += [0] * (256 - len(lut))
        mapped = sp.indices.point(lut)
        if self.img.mode == "P":
            mapped = Image.frombytes("P", mapped.size, mapped.tobytes())
        off = (round(p[0]) - sp.centre[0], round(p[1]) - sp.centre[1])
        self.img.paste(mapped, off, sp.mask)

    def panel(self, box: tuple[float, float, float, float], paint: object) -> None:
        """Draw antialiased content (text) in RGB on a small panel, then paste it quantised."""
        x0, y0, x1, y1 = (round(v) for v in box)
        panel = Image.new("RGBA", (x1 - x0, y1 - y0), (0, 0, 0, 0))
        paint(ImageDraw.Draw(panel))  # type: ignore[operator]
        _paste_quantized(self.img, panel, self.pal, colours=48, offset=(x0, y0))


def _paste_quantized(
    target: Image.Image,
    layer: Image.Image,
    pal: _Palette,
    *,
    colours: int,
    offset: tuple[int, int] = (0, 0),
) -> None:
    """Paste an RGBA layer onto a palette-index image ("L" or "P"), alpha cut at one half."""
    alpha = layer.getchannel("A").point(lambda a: 255 if a >= 128 else 0)
    rgb = Image.new("RGB", layer.size, (0, 0, 0))
    rgb.paste(layer, (0, 0), layer)
    q = rgb.quantize(colors=colours, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    qp = q.getpalette() or []
    lut = [
        pal.ink((qp[3 * k], qp[3 * k + 1], qp[3 * k + 2])) if 3 * k + 2 < len(qp) else 0
        for k in range(256)
    ]
    mapped = Image.frombytes("L", q.size, q.tobytes()).point(lut)
    if target.mode == "P":
        mapped = Image.frombytes("P", mapped.size, mapped.tobytes())
    target.paste(mapped, offset, alpha)


@dataclass(frozen=True, slots=True)
class _Sprite:
    """A small antialiased drawing reduced to a few colours once, pasted by palette lookup."""

    indices: Image.Image  # mode "L": indices into `colours`
    colours: tuple[RGB, ...]
    mask: Image.Image  # mode "L": 255 where the sprite is opaque
    centre: tuple[int, int]


_SUPERSAMPLE = 4


def _make_sprite(size: float, paint: object, keys: Sequence[RGB]) -> _Sprite:
    """Paint at 4x on a transparent square `size` px wide, centred on (0, 0), then reduce to
    the key colours and their midpoints (a fixed small set: a letter keeps its contrast)."""
    n = max(4, math.ceil(size))
    big = Image.new("RGBA", (n * _SUPERSAMPLE, n * _SUPERSAMPLE), (0, 0, 0, 0))
    c = n * _SUPERSAMPLE / 2
    paint(ImageDraw.Draw(big), c, float(_SUPERSAMPLE))  # type: ignore[operator]
    small = big.resize((n, n), Image.Resampling.LANCZOS)
    mask = small.getchannel("A").point(lambda a: 255 if a >= 110 else 0)
    pal = list(dict.fromkeys(keys))
    pal += [_mix(a, b, 0.5) for i, a in enumerate(pal) for b in pal[i + 1 :]]
    ref = Image.new("P", (1, 1))
    ref.putpalette([v for col in pal for v in col] + [0] * (768 - 3 * len(pal)))
    q = small.convert("RGB").quantize(palette=ref, dither=Image.Dither.NONE)
    return _Sprite(Image.frombytes("L", q.size, q.tobytes()), tuple(pal), mask, (n // 2, n // 2))


@dataclass(frozen=True, slots=True)
class _Static:
    index: Image.Image  # mode "P": fills, borders, coastlines, labels as palette indices
    palette: _Palette
    scale: float
    # Each label's box (pixels, halo included) and the labels' opaque pixels: arrows stop short
    # of the boxes and the labels are pasted back over whatever order lines crossed them.
    label_boxes: Mapping[str, tuple[int, int, int, int]]
    label_mask: Image.Image


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

    # --- static layers -------------------------------------------------------------------

    def _font(self, size: float, bold: bool = True) -> ImageFont.FreeTypeFont:
        path: Path = self._bold if bold else self._regular
        return ImageFont.truetype(str(path), max(6, round(size)))

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
            self._static[key] = self._build_static(lang, width)
        return self._static[key]

    def _build_static(self, lang: str, width: int) -> _Static:
        geo = self.geometry
        s = width / geo.width
        size = (width, round(geo.height * s))
        n = len(self.pids)
        # Entries 0..n+1 are the fills (provinces, impassable land, open sea), set per render.
        pal = _Palette([(0, 0, 0)] * (n + 2))
        index = Image.new("L", size, n + 1)  # background: open sea
        draw = ImageDraw.Draw(index)
        shapes: list[tuple[float, int, list[Point]]] = []
        for i, pid in enumerate(self.pids):
            for poly in geo.provinces[pid].polygons:
                shapes.append((_area(poly[0]), i, [(x * s, y * s) for x, y in poly[0]]))
        for poly in geo.impassable:
            shapes.append((_area(poly[0]), n, [(x * s, y * s) for x, y in poly[0]]))
        for poly in geo.lakes:
            shapes.append((_area(poly[0]), n + 1, [(x * s, y * s) for x, y in poly[0]]))
        # Bigger first: a hole of one shape is always filled by a smaller one drawn later.
        for _, i, outline in sorted(shapes, key=lambda t: (-t[0], t[1])):
            draw.polygon(outline, fill=i)

        bw = max(1, round(1.0 * s))
        sea_border, land_border = pal.ink((120, 150, 185)), pal.ink((110, 100, 90))
        for pid in self.pids:
            shape = geo.provinces[pid]
            colour = sea_border if shape.kind == "sea" else land_border
            for poly in shape.polygons:
                for ring in poly:
                    pts = [(x * s, y * s) for x, y in ring]
                    draw.line([*pts, pts[0]], fill=colour, width=bw, joint="curve")
        cw = max(2, round(1.6 * s))
        coast = pal.ink((60, 80, 105))
        for poly in geo.land:
            for ring in poly:
                pts = [(x * s, y * s) for x, y in ring]
                draw.line([*pts, pts[0]], fill=coast, width=cw, joint="curve")

        # Labels are drawn antialiased in RGB, then reduced to a few palette entries: inside
        # the opaque halo every colour is fixed, only the halo's outer edge is cut sharp.
        overlay = Image.new("RGBA", size, (0, 0, 0, 0))
        od = ImageDraw.Draw(overlay)
        font = self._font(geo.label_size * s)
        halo = max(1, round(1.2 * s))
        boxes: dict[str, tuple[int, int, int, int]] = {}
        for pid in self.pids:
            shape = geo.provinces[pid]
            x, y = shape.label
            sea = shape.kind == "sea"
            bx = font.getbbox(self.label(pid, lang), anchor="mm", stroke_width=halo)
            boxes[pid] = (
                math.floor(x * s + bx[0]),
                math.floor(y * s + bx[1]),
                math.ceil(x * s + bx[2]),
                math.ceil(y * s + bx[3]),
            )
            od.text(
                (x * s, y * s),
                self.label(pid, lang),
                font=font,
                anchor="mm",
                fill=(40, 70, 120, 255) if sea else (50, 45, 40, 255),
                stroke_width=halo,
                stroke_fill=(210, 228, 242, 255) if sea else (250, 246, 235, 255),
            )
        _paste_quantized(index, overlay, pal, colours=40)
        img = Image.frombytes("P", size, index.tobytes())
        mask = overlay.getchannel("A").point(lambda a: 255 if a >= 128 else 0)
        return _Static(img, pal, s, boxes, mask)

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
                unit = position.units.get(pid)
                if owner is not None:
                    fill = _mix(colours[owner], (255, 255, 255), 0.38)
                elif unit is not None and not prov.supply_center:
                    fill = _mix(colours[unit.power], LAND, 0.72)
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
        ctx.title_and_legend(lang)
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
        )
        buf = io.BytesIO()
        img.save(buf, format="PNG", compress_level=self.compress_level)
        return buf.getvalue()

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


def _labels_for(game_map: GameMap) -> Mapping[str, Mapping[str, str]]:
    """Province labels per language: the bundled names file's first abbreviations, else those
    of the variant's own name table."""
    if not game_map.source:
        found = load_labels(game_map.base)
        if found:
            return found
    names = game_map.names()
    return {
        lang: {pid: names.abbreviation(pid, lang) for pid in game_map.provinces}
        for lang in languages()
    }


def _geometry_for(game_map: GameMap) -> Geometry:
    """The map's own geometry (beside a variant file, `STEM_geometry.json`), else the standard
    one when the provinces are the same (variants such as the six-player map change the
    powers, not the board)."""
    if game_map.source:
        src = Path(game_map.source)
        return load_geometry_file(src.with_name(f"{src.stem}_geometry.json"), game_map.name)
    try:
        return load_geometry(game_map.name)
    except GeometryError:
        standard = load_geometry("standard")
        if set(standard.provinces) != set(game_map.provinces):
            raise
        return standard


def _area(ring: Sequence[Point]) -> float:
    a = 0.0
    for (x1, y1), (x2, y2) in zip(ring, [*ring[1:], ring[0]], strict=True):
        a += x1 * y2 - x2 * y1
    return abs(a) / 2


class _Ctx:
    """One render's drawing helpers (scale, palette, position)."""

    def __init__(
        self,
        r: Renderer,
        draw: _Draw,
        s: float,
        colours: Mapping[Power, RGB],
        position: Position,
        *,
        lang: str = "en",
        labels: Mapping[str, tuple[int, int, int, int]] | None = None,
    ) -> None:
        self.r = r
        self.lang = lang
        margin = 2.0 * s
        self.label_boxes = [
            (x0 - margin, y0 - margin, x1 + margin, y1 + margin)
            for x0, y0, x1, y1 in (labels or {}).values()
        ]
        self.boxes_px = list((labels or {}).values())
        self.crossed: set[tuple[int, int, int, int]] = set()
        self.dots: list[tuple[Point, float, RGB]] = []
        self.words: list[tuple[tuple[float, float, float, float], object]] = []
        self.geo = r.geometry
        self.gm = r.game_map
        self.draw = draw
        self.s = s
        self.colours = colours
        self.position = position
        self.radius = self.geo.unit_radius * s

    def at(self, loc: Location) -> Point:
        x, y = self.geo.anchor(loc)
        return (x * self.s, y * self.s)

    def unit_point(self, loc: Location) -> Point:
        """Anchor of the unit actually at a province (its coast), else the location's own."""
        unit = self.position.units.get(loc.province)
        if unit is not None:
            return self.at(unit.location)
        return self.at(loc)

    # --- board ---------------------------------------------------------------------------

    def centres(self) -> None:
        rad = self.geo.sc_radius * self.s
        for pid in sorted(self.gm.supply_centers):
            shape = self.geo.provinces[pid]
            if shape.sc is None:
                continue
            x, y = shape.sc[0] * self.s, shape.sc[1] * self.s
            owner = self.position.centers.get(pid)
            fill = self.colours[owner] if owner else (250, 250, 250)
            self.draw.ellipse(
                (x - rad, y - rad, x + rad, y + rad),
                fill=fill,
                outline=INK,
                width=max(1, round(0.8 * self.s)),
            )
            dot = rad * 0.35
            self.draw.ellipse((x - dot, y - dot, x + dot, y + dot), fill=INK)

    def units(self) -> None:
        for unit in self.position.units.values():
            self.unit_icon(unit, self.at(unit.location))
        for d in self.position.dislodged:
            p = self.dislodged_point(d.unit.location)
            self.unit_icon(d.unit, p)
            self.dislodged_mark(p)

    def dislodged_point(self, loc: Location) -> Point:
        """A unit awaiting retreat is drawn beside the unit that took its place (up and to the
        right: labels sit under the anchors)."""
        x, y = self.at(loc)
        return (x + self.radius * 1.6, y - self.radius * 1.25)

    def unit_icon(self, unit: Unit, p: Point, *, ghost: bool = False) -> None:
        """Army: a disc with a bold A; fleet: a ship's hull with a bold F under a sail (the
        letters are the same in French: Armée, Flotte)."""
        colour = self.colours[unit.power]
        if ghost:
            colour = _mix(colour, (255, 255, 255), 0.45)
        letter_ink = INK if _luma(colour) > 165 else (255, 255, 255)
        r = self.radius
        s = self.s
        army = unit.type is UnitType.ARMY
        font = self.r._font(r * (1.45 if army else 1.2) * _SUPERSAMPLE)

        def paint(d: ImageDraw.ImageDraw, c: float, k: float) -> None:
            rr = r * k
            ow = max(1.0, 1.1 * s * k)
            if army:
                d.ellipse(
                    (c - rr, c - rr, c + rr, c + rr), fill=colour, outline=INK, width=round(ow)
                )
                d.text((c, c + 0.06 * rr), "A", font=font, fill=letter_ink, anchor="mm")
                return
            hull = [
                (c - 1.35 * rr, c - 0.3 * rr),
                (c + 1.35 * rr, c - 0.3 * rr),
                (c + 0.9 * rr, c + 0.85 * rr),
                (c - 0.9 * rr, c + 0.85 * rr),
            ]
            sail = [
                (c - 0.1 * rr, c - 1.25 * rr),
                (c - 0.1 * rr, c - 0.4 * rr),
                (c - 0.95 * rr, c - 0.4 * rr),
            ]
            flag = [
                (c + 0.1 * rr, c - 1.05 * rr),
                (c + 0.1 * rr, c - 0.4 * rr),
                (c + 0.75 * rr, c - 0.4 * rr),
            ]
            d.polygon(sail, fill=colour, outline=INK, width=round(ow))
            d.polygon(flag, fill=colour, outline=INK, width=round(ow))
            d.polygon(hull, fill=colour, outline=INK, width=round(ow))
            d.text((c, c + 0.3 * rr), "F", font=font, fill=letter_ink, anchor="mm")

        key = ("unit", unit.type, colour, round(r * 10))
        self.draw.sprite(self.r.sprite(key, r * 3.0, paint, (colour, INK, letter_ink)), p)

    def dislodged_mark(self, p: Point, *, radius: float | None = None, word: bool = True) -> None:
        """A red ring with a cross around the unit, and the word above it (labels are below)."""
        r = radius or self.radius
        s = self.s

        def paint(d: ImageDraw.ImageDraw, c: float, k: float) -> None:
            rr = r * 1.35 * k
            w = round(2.4 * s * k)
            d.ellipse(
                (c - rr, c - rr, c + rr, c + rr),
                outline=(255, 255, 255),
                width=w + round(2 * s * k),
            )
            d.ellipse((c - rr, c - rr, c + rr, c + rr), outline=FAIL, width=w)
            # A small red cross on the ring, clear of the unit's letter.
            e, q = rr * 0.7071, rr * 0.28
            x0, y0 = c + e, c - e
            d.ellipse((x0 - 2 * q, y0 - 2 * q, x0 + 2 * q, y0 + 2 * q), fill=(255, 255, 255))
            for a, b in (((-q, -q), (q, q)), ((-q, q), (q, -q))):
                d.line([(x0 + a[0], y0 + a[1]), (x0 + b[0], y0 + b[1])], fill=FAIL, width=w)

        self.draw.sprite(
            self.r.sprite(("dislodged", round(r * 10)), r * 4.0, paint, (FAIL, (255, 255, 255))), p
        )
        if not word:
            return
        name = DISLODGED.get(self.lang) or DISLODGED[DEFAULT_LANG]
        font = self.r._font(9.5 * s)
        tw = font.getlength(name)
        x, y = p[0], p[1] - r * 1.45 - 12 * s
        halo = max(1, round(1.1 * s))

        def paint_word(d: ImageDraw.ImageDraw) -> None:
            d.text(
                (tw / 2 + 3 * s, 1 * s),
                name,
                font=font,
                fill=FAIL,
                anchor="ma",
                stroke_width=halo,
                stroke_fill=(255, 255, 255),
            )

        # Pasted after the orders (see Renderer.image): no retreat line runs over the word.
        self.words.append(((x - tw / 2 - 3 * s, y, x + tw / 2 + 3 * s, y + 14 * s), paint_word))

    # --- orders --------------------------------------------------------------------------

    def orders(self, orders: Sequence[Order], result_of: Mapping[Order, OrderResult]) -> None:
        moves: dict[str, Move] = {}
        for o in orders:
            if isinstance(o, Move):
                moves[o.unit.province] = o
        convoy_fleets: dict[tuple[str, Location], list[str]] = {}
        for o in orders:
            if isinstance(o, Convoy):
                convoy_fleets.setdefault((o.target.province, o.dest), []).append(o.unit.province)
        # Supports and convoys first, so moves are drawn on top of them. Styles (see the
        # legend): a support is a thin dotted line ending in a dot on the supported move's arrow
        # or on the held unit; a convoy is a dashed ring on the fleet (and a dash-dot route when
        # the army's move is not drawn); a failed order is faded and crossed in red.
        for o in orders:
            res = result_of.get(o)
            failed = res is not None and not res.succeeded
            colour = self.order_colour(o, failed=failed)
            if isinstance(o, SupportMove):
                a = self.unit_point(o.target.location)
                b = self.at(o.dest)
                mv = moves.get(o.target.province)
                if mv is not None and mv.dest.province == o.dest.province:
                    # On the supported arrow's last leg (a convoyed move goes via its fleets).
                    fleets = convoy_fleets.get((mv.unit.province, mv.dest), [])
                    route = self.convoy_route(mv, fleets)
                    if route:
                        a = route[-1]
                mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
                start = self.unit_point(o.unit.location)
                self.support_line(start, mid, colour, failed=failed, shorten=0.0)
            elif isinstance(o, SupportHold):
                start = self.unit_point(o.unit.location)
                end = self.unit_point(o.target.location)
                self.support_line(start, end, colour, failed=failed, shorten=self.radius * 1.15)
            elif isinstance(o, Convoy):
                mv = moves.get(o.target.province)
                f = self.unit_point(o.unit.location)
                if mv is None or mv.dest != o.dest:
                    a = self.unit_point(o.target.location)
                    b = self.at(o.dest)
                    self.line(a, f, colour, dash=CONVOY_DASH, width=1.6, head=None, failed=False)
                    self.line(
                        f, b, colour, dash=CONVOY_DASH, width=1.6, head="arrow", failed=failed
                    )
                self.convoy_ring(f, colour)
                if failed:
                    rr = self.radius * 1.5
                    self.cross((f[0] + rr * 0.7, f[1] - rr * 0.7))
        for o in orders:
            res = result_of.get(o)
            failed = res is not None and not res.succeeded
            colour = self.order_colour(o, failed=failed)
            if isinstance(o, Move):
                start = self.unit_point(o.unit.location)
                end = self.at(o.dest)
                route = self.convoy_route(o, convoy_fleets.get((o.unit.province, o.dest), []))
                back = moves.get(o.dest.province)
                if not route and back is not None and back.dest.province == o.unit.province:
                    # Two units swapping or bouncing head-on: each arrow keeps to its side.
                    dx, dy = end[0] - start[0], end[1] - start[1]
                    norm = math.hypot(dx, dy) or 1.0
                    k = self.radius * 0.45
                    side = (-dy / norm * k, dx / norm * k)
                    start = (start[0] + side[0], start[1] + side[1])
                    end = (end[0] + side[0], end[1] + side[1])
                pts = [start, *route, end]
                for i in range(len(pts) - 1):
                    last = i == len(pts) - 2
                    self.line(
                        pts[i],
                        pts[i + 1],
                        colour,
                        dash=None,
                        width=2.4,
                        head="arrow" if last else None,
                        failed=failed and last,
                        shorten_start=i == 0,
                        shorten=self.radius * 0.9 if last else 0.0,
                    )
            elif isinstance(o, Hold):
                x, y = self.unit_point(o.unit.location)
                rr = self.radius * 1.5
                pts = [
                    (x + rr * math.cos(a), y + rr * math.sin(a)) for a in _angles(8, math.pi / 8)
                ]
                self.draw.polygon(pts, outline=colour, width=max(2, round(1.8 * self.s)))
                if failed:
                    self.cross((x + rr * 0.7, y - rr * 0.7))
            elif isinstance(o, Retreat):
                start = self.at(o.unit.location)
                if self.position.dislodged_in(o.unit.province) is not None:
                    start = self.dislodged_point(o.unit.location)
                self.line(
                    start,
                    self.at(o.dest),
                    colour,
                    dash=None,
                    width=2.4,
                    head="arrow",
                    failed=failed,
                )
            elif isinstance(o, Disband):
                p = self.at(o.unit.location)
                if self.position.dislodged_in(o.unit.province) is not None:
                    p = self.dislodged_point(o.unit.location)
                self.cross(p, size=self.radius * 1.1, colour=(0, 0, 0) if failed else FAIL)
            elif isinstance(o, Build):
                p = self.at(o.unit.location)
                if (
                    o.unit.type is not None
                    and o.power is not None
                    and o.unit.province not in self.position.units
                ):
                    self.unit_icon(Unit(o.power, o.unit.type, o.unit.location), p, ghost=failed)
                rr = self.radius * 1.55
                x, y = p
                ring = BUILD if not failed else FAIL
                self.draw.ellipse(
                    (x - rr, y - rr, x + rr, y + rr), outline=ring, width=max(2, round(2 * self.s))
                )
                if failed:
                    self.cross((x + rr * 0.7, y - rr * 0.7))
            if (
                failed
                and res is not None
                and res.reason is Reason.DISLODGED
                and isinstance(o, UnitOrder)
                and o.unit.province in self.position.units
            ):
                # Dislodged by this phase's moves: ringed, crossed and named.
                self.dislodged_mark(self.unit_point(o.unit.location))
        self.flush_dots()

    def flush_dots(self) -> None:
        for (x, y), rd, colour in self.dots:
            self.draw.ellipse(
                (x - rd, y - rd, x + rd, y + rd), fill=colour, outline=(255, 255, 255), width=1
            )
        self.dots.clear()

    def convoy_route(self, move: Move, fleets: Sequence[str]) -> list[Point]:
        """The convoying fleets in order from the army to its destination (shortest chain)."""
        if not fleets:
            return []
        src = move.unit.province
        fleet_set = set(fleets)
        prev: dict[str, str | None] = {src: None}
        queue = [src]
        found = None
        while queue:
            cur = queue.pop(0)
            for nxt in sorted(self.gm.neighbours(cur)):
                if nxt in prev:
                    continue
                if nxt == move.dest.province and cur != src:
                    prev[nxt] = cur
                    found = nxt
                    queue = []
                    break
                if nxt in fleet_set:
                    prev[nxt] = cur
                    queue.append(nxt)
        if found is None:
            return [self.unit_point(Location(f)) for f in sorted(fleets)]
        chain = []
        cur2 = prev[found]
        while cur2 is not None and cur2 != src:
            chain.append(cur2)
            cur2 = prev[cur2]
        return [self.unit_point(Location(f)) for f in reversed(chain)]

    def retreat_options(self, orders: Sequence[Order]) -> None:
        if self.position.phase.kind is not PhaseKind.RETREAT:
            return
        ordered = {o.unit.province for o in orders if isinstance(o, UnitOrder)}
        for d in self.position.dislodged:
            if d.unit.province in ordered:
                continue
            start = self.dislodged_point(d.unit.location)
            colour = _dark(self.colours[d.unit.power], 0.2)
            for pid in sorted(d.retreats):
                locs = self.gm.fleet_locations(pid) if d.unit.type is UnitType.FLEET else ()
                near = [
                    loc for loc in locs if self.gm.adjacent(UnitType.FLEET, d.unit.location, loc)
                ]
                dest = near[0] if near else Location(pid)
                self.line(
                    start,
                    self.at(dest),
                    colour,
                    dash=RETREAT_DASH,
                    width=1.2,
                    head="arrow",
                    failed=False,
                )

    def order_colour(self, o: Order, *, failed: bool = False) -> RGB:
        """The power's colour, darkened; a failed order's is faded towards white."""
        power = o.power
        if power is None and isinstance(o, UnitOrder):
            unit = self.position.units.get(o.unit.province)
            power = unit.power if unit else None
        colour = _dark(self.colours[power], 0.45) if power else INK
        return _mix(colour, (255, 255, 255), 0.55) if failed else colour

    def support_line(
        self, a: Point, b: Point, colour: RGB, *, failed: bool, shorten: float
    ) -> None:
        self.line(
            a,
            b,
            colour,
            dash=SUPPORT_DASH,
            width=1.8,
            head="dot",
            failed=failed,
            shorten=shorten,
            clip_labels=False,
        )

    def convoy_ring(self, p: Point, colour: RGB, rr: float | None = None) -> None:
        """A dashed ring around a convoying fleet: eight arcs."""
        x, y = p
        rr = rr or self.radius * 1.5
        w = max(2, round(1.6 * self.s))
        for k in range(8):
            a0 = k * 45.0
            box = (x - rr, y - rr, x + rr, y + rr)
            self.draw.arc(box, a0, a0 + 28.0, fill=(255, 255, 255), width=w + 2)
            self.draw.arc(box, a0, a0 + 28.0, fill=colour, width=w)

    # --- primitives ----------------------------------------------------------------------

    def line(
        self,
        a: Point,
        b: Point,
        colour: RGB,
        *,
        dash: tuple[float, float] | None,
        width: float,
        head: str | None,
        failed: bool,
        shorten: float | None = None,
        shorten_start: bool = True,
        clip_labels: bool = True,
        track_labels: bool = True,
    ) -> None:
        s = self.s
        dx, dy = b[0] - a[0], b[1] - a[1]
        length = math.hypot(dx, dy)
        if length < 1:
            return
        ux, uy = dx / length, dy / length
        start_cut = self.radius * 0.9 if shorten_start else 0.0
        end_cut = self.radius * 0.9 if shorten is None else shorten
        if length <= start_cut + end_cut + 4:
            start_cut = end_cut = 0.0
        a = (a[0] + ux * start_cut, a[1] + uy * start_cut)
        b = (b[0] - ux * end_cut, b[1] - uy * end_cut)
        length = math.hypot(b[0] - a[0], b[1] - a[1])
        w = max(1, round(width * s))
        hl = (6.0 + width * 2.2) * s if head == "arrow" else 0.0
        if clip_labels:
            # Stop where the line would enter a label box near its end (NWG, NTH, BLA...).
            reach = hl + 6 * s
            for box in self.label_boxes:
                span = _enter_exit(a, b, box)
                if span is None:
                    continue
                t0, t1 = span
                if t0 > 0 and t1 * length > length - reach and t0 * length > hl + 4 * s:
                    length = t0 * length
                    b = (a[0] + ux * length, a[1] + uy * length)
        for box, pixels in zip(self.label_boxes, self.boxes_px, strict=True):
            if track_labels and _enter_exit(a, b, box) is not None:
                self.crossed.add(pixels)
        body_end = (b[0] - ux * hl * 0.8, b[1] - uy * hl * 0.8)
        casing = (255, 255, 255)
        if dash is None:
            self.draw.line([a, body_end], fill=casing, width=w + max(2, round(1.4 * s)))
            self.draw.line([a, body_end], fill=colour, width=w)
        else:
            on, off = dash[0] * s, dash[1] * s
            t = 0.0
            total = max(0.0, length - hl * 0.8)
            while t < total:
                t2 = min(total, t + on)
                p1 = (a[0] + ux * t, a[1] + uy * t)
                p2 = (a[0] + ux * t2, a[1] + uy * t2)
                self.draw.line([p1, p2], fill=casing, width=w + max(2, round(1.2 * s)))
                self.draw.line([p1, p2], fill=colour, width=w)
                t = t2 + off
        if head == "arrow":
            hw = hl * 0.55
            px, py = -uy, ux
            tri = [
                b,
                (b[0] - ux * hl + px * hw, b[1] - uy * hl + py * hw),
                (b[0] - ux * hl - px * hw, b[1] - uy * hl - py * hw),
            ]
            self.draw.polygon(tri, fill=colour, outline=casing)
        elif head == "dot":
            # Drawn after the moves (see orders()), so it sits on top of the supported arrow.
            self.dots.append((b, (2.4 + width) * s, colour))
        if failed:
            self.cross(b)

    def cross(
        self, p: Point, size: float | None = None, colour: RGB = FAIL, *, track: bool = True
    ) -> None:
        x, y = p
        c = size if size is not None else self.radius * 0.6
        w = max(2, round(2.2 * self.s))
        if track:
            # A label the cross overlaps is pasted back on top (see Renderer.image).
            for (x0, y0, x1, y1), pixels in zip(self.label_boxes, self.boxes_px, strict=True):
                if x - c < x1 and x + c > x0 and y - c < y1 and y + c > y0:
                    self.crossed.add(pixels)
        for q in (((x - c, y - c), (x + c, y + c)), ((x - c, y + c), (x + c, y - c))):
            self.draw.line(q, fill=(255, 255, 255), width=w + 2)
        for q in (((x - c, y - c), (x + c, y + c)), ((x - c, y + c), (x + c, y - c))):
            self.draw.line(q, fill=colour, width=w)

    # --- title and legend ------------------------------------------------------------------

    def title_and_legend(self, lang: str) -> None:
        s = self.s
        title_font = self.r._font(17 * s)
        font = self.r._font(11 * s, bold=False)
        x0, y0 = 10 * s, 10 * s
        powers = list(self.gm.powers)
        line_h = 15 * s
        box_w = 215 * s
        keys = KEY_LABELS.get(lang) or KEY_LABELS[DEFAULT_LANG]
        key_y = (34 + line_h / s * len(powers) + 6) * s  # the key's first row, from the top
        key_rows = (len(keys) + 1) // 2
        box_h = key_y + key_rows * line_h + 6 * s
        title = self.position.phase.describe(lang)
        rows = []
        for p in powers:
            n_sc = sum(1 for o in self.position.centers.values() if o is p)
            n_u = sum(1 for u in self.position.units.values() if u.power is p)
            rows.append((p, self.gm.power_name(p, lang), legend_counts(n_sc, n_u, lang)))
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

        self.draw.panel((x0, y0, x0 + box_w, y0 + box_h), paint)
        # Swatches after the panel, in the exact power colours.
        sw = 9 * s
        for k, (p, _, _) in enumerate(rows):
            y = y0 + 32 * s + k * line_h
            self.draw.rectangle(
                (x0 + 8 * s, y + 2 * s, x0 + 8 * s + sw, y + 2 * s + sw),
                fill=self.colours[p],
                outline=INK,
            )
        for k in range(len(keys)):
            cx = x0 + (k // key_rows) * col_w + 6 * s
            cy = y0 + key_y + (k % key_rows) * line_h + 7 * s
            self.key_sample(k, cx, cy)

    def key_sample(self, k: int, x: float, y: float) -> None:
        """The k-th legend sample (KEY_LABELS order), drawn with the map's own primitives in a
        box 24 units wide starting at x, centred on y."""
        s = self.s
        ink = _dark((90, 110, 150), 0.3)
        a, b = (x, y), (x + 22 * s, y)

        def sample(
            colour: RGB, dash: tuple[float, float] | None, width: float, head: str, failed: bool
        ) -> None:
            self.line(
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
            self.flush_dots()
        elif k == 2:  # convoy
            sample(ink, CONVOY_DASH, 1.6, "arrow", False)
            self.convoy_ring((x + 9 * s, y), ink, rr=5.5 * s)
        elif k == 3:  # hold
            rr = 6 * s
            c = (x + 13 * s, y)
            pts = [
                (c[0] + rr * math.cos(t), c[1] + rr * math.sin(t)) for t in _angles(8, math.pi / 8)
            ]
            self.draw.polygon(pts, outline=ink, width=max(2, round(1.8 * s)))
        elif k == 4:  # failed
            b = (x + 15 * s, y)
            sample(_mix(ink, (255, 255, 255), 0.55), None, 2.4, "arrow", False)
            self.cross((x + 21 * s, y), size=3.5 * s, track=False)
        elif k == 5:  # dislodged
            self.dislodged_mark((x + 11 * s, y), radius=5.2 * s, word=False)
        elif k == 6:  # retreat option
            sample(ink, RETREAT_DASH, 1.2, "arrow", False)
        elif k == 7:  # build / remove
            rr = 5.5 * s
            c = (x + 7 * s, y)
            self.draw.ellipse(
                (c[0] - rr, c[1] - rr, c[0] + rr, c[1] + rr),
                outline=BUILD,
                width=max(2, round(2 * s)),
            )
            self.cross((x + 21 * s, y), size=4 * s, track=False)


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


def _enter_exit(a: Point, b: Point, box: tuple[float, float, float, float]) -> Point | None:
    """Where segment a-b enters and leaves a box, as fractions of its length (Liang-Barsky);
    None when it misses the box."""
    t0, t1 = 0.0, 1.0
    dx, dy = b[0] - a[0], b[1] - a[1]
    for p, q in (
        (-dx, a[0] - box[0]),
        (dx, box[2] - a[0]),
        (-dy, a[1] - box[1]),
        (dy, box[3] - a[1]),
    ):
        if p == 0:
            if q < 0:
                return None
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return None
    return (t0, t1)


def _angles(n: int, offset: float) -> list[float]:
    return [offset + 2 * math.pi * k / n for k in range(n)]


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
) -> bytes:
    """PNG bytes of a position, with its orders and, after adjudication, their results."""
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
