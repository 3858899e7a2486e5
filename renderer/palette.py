"""Colours and palette-image drawing: each picture is a palette ("P") image, so a position's
fills are a palette swap and every colour drawn is mapped to a palette entry."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.core.map import GameMap
from bot.core.model import Power
from renderer.geometry import Point

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


# Dash patterns (on, off, in map units): supports dotted, convoys long-dashed.
SUPPORT_DASH = (2.2, 3.0)
CONVOY_DASH = (8.0, 3.0)
RETREAT_DASH = (3.0, 4.0)
ILLEGAL_DASH = (5.0, 3.5)  # an illegal order (the unit held): red and dashed, unlike a bounce
BUILD: RGB = (60, 160, 60)

# Sized for Discord's inline preview (the picture downscaled to ~550 px, ~380 px on a phone):
# order strokes and units are drawn this much larger than the geometry's base sizes.
STROKE = 1.45
UNIT_SCALE = 1.15


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

    def panel(
        self,
        box: tuple[float, float, float, float],
        paint: object,
        *,
        cache: dict[object, _Quantized] | None = None,
        key: object = None,
    ) -> None:
        """Draw antialiased content (text) in RGB on a small panel, then paste it quantised.
        With a `cache` and a `key` naming everything the panel shows, it is drawn and
        quantised once per key (the legend: half a render's time, issue 18)."""
        x0, y0, x1, y1 = (round(v) for v in box)
        q = cache.get(key) if cache is not None else None
        if q is None:
            panel = Image.new("RGBA", (x1 - x0, y1 - y0), (0, 0, 0, 0))
            paint(ImageDraw.Draw(panel))  # type: ignore[operator]
            q = _quantize(panel, colours=48)
            if cache is not None:
                if len(cache) >= 512:  # bounded: a legend per phase and counts
                    cache.clear()
                cache[key] = q
        _paste(self.img, q, self.pal, (x0, y0))


@dataclass(frozen=True, slots=True)
class _Quantized:
    """An RGBA layer reduced to a few colours: indices into `colours` (flat RGB, Pillow's
    palette) and where it is opaque (alpha cut at one half)."""

    indices: Image.Image  # mode "P", as quantised
    colours: tuple[int, ...]
    alpha: Image.Image  # mode "L": 255 where opaque


def _quantize(layer: Image.Image, *, colours: int) -> _Quantized:
    alpha = layer.getchannel("A").point(lambda a: 255 if a >= 128 else 0)
    rgb = Image.new("RGB", layer.size, (0, 0, 0))
    rgb.paste(layer, (0, 0), layer)
    q = rgb.quantize(colors=colours, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    return _Quantized(q, tuple(q.getpalette() or []), alpha)


def _paste(target: Image.Image, q: _Quantized, pal: _Palette, offset: tuple[int, int]) -> None:
    """Paste a quantised layer onto a palette-index image ("L" or "P"), its colours taken
    into the picture's palette."""
    qp = q.colours
    lut = [
        pal.ink((qp[3 * k], qp[3 * k + 1], qp[3 * k + 2])) if 3 * k + 2 < len(qp) else 0
        for k in range(256)
    ]
    mapped = Image.frombytes("L", q.indices.size, q.indices.tobytes()).point(lut)
    if target.mode == "P":
        mapped = Image.frombytes("P", mapped.size, mapped.tobytes())
    target.paste(mapped, offset, q.alpha)


def _paste_quantized(
    target: Image.Image,
    layer: Image.Image,
    pal: _Palette,
    *,
    colours: int,
    offset: tuple[int, int] = (0, 0),
) -> None:
    """Paste an RGBA layer onto a palette-index image ("L" or "P"), alpha cut at one half."""
    _paste(target, _quantize(layer, colours=colours), pal, offset)


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
