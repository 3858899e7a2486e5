"""The static layers of a map (built once per language and width) and where they come from:
the map's geometry and its province labels."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from PIL import Image, ImageDraw

from bot.core.catalogue import languages
from bot.core.map import GameMap
from renderer.geometry import (
    Geometry,
    GeometryError,
    Point,
    load_geometry,
    load_geometry_file,
    load_labels,
)
from renderer.palette import _Palette, _paste_quantized

if TYPE_CHECKING:
    from renderer.kit import RenderKit


@dataclass(frozen=True, slots=True)
class _Static:
    index: Image.Image  # mode "P": fills, borders, coastlines, labels as palette indices
    palette: _Palette
    scale: float
    # Each label's box (pixels, halo included) and the labels' opaque pixels: arrows stop short
    # of the boxes and the labels are pasted back over whatever order lines crossed them.
    label_boxes: Mapping[str, tuple[int, int, int, int]]
    label_mask: Image.Image


def build_static(r: RenderKit, lang: str, width: int) -> _Static:
    """The index image (one palette entry per province, fills set per render) with borders,
    coastlines and labels, at this width and in this language."""
    geo = r.geometry
    s = width / geo.width
    size = (width, round(geo.height * s))
    n = len(r.pids)
    # Entries 0..n+1 are the fills (provinces, impassable land, open sea), set per render.
    pal = _Palette([(0, 0, 0)] * (n + 2))
    index = Image.new("L", size, n + 1)  # background: open sea
    draw = ImageDraw.Draw(index)
    shapes: list[tuple[float, int, list[Point]]] = []
    for i, pid in enumerate(r.pids):
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
    for pid in r.pids:
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
    # 1.3x the geometry's size: about 7 px high in a 550 px preview, still clear of each other.
    font = r._font(geo.label_size * s * 1.3)
    halo = max(1, round(1.2 * s))
    boxes: dict[str, tuple[int, int, int, int]] = {}
    for pid in r.pids:
        shape = geo.provinces[pid]
        x, y = shape.label
        sea = shape.kind == "sea"
        bx = font.getbbox(r.label(pid, lang), anchor="mm", stroke_width=halo)
        boxes[pid] = (
            math.floor(x * s + bx[0]),
            math.floor(y * s + bx[1]),
            math.ceil(x * s + bx[2]),
            math.ceil(y * s + bx[3]),
        )
        od.text(
            (x * s, y * s),
            r.label(pid, lang),
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
