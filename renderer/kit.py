"""What the drawing modules take from the `Renderer` that calls them: its map and geometry, the
province order of its index image, and its caches of fonts, sprites, labels and legend layouts.

The static layers (layers.py), the orders (orders.py) and the legend (legend.py) are drawn for
a `Renderer` (render.py), which imports them all; they see it through this protocol, so none
of them imports render.py back (issue 33: no import circle)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from PIL import ImageFont

from bot.core.map import GameMap
from renderer.geometry import Geometry
from renderer.palette import RGB, _Quantized, _Sprite


class RenderKit(Protocol):
    geometry: Geometry
    game_map: GameMap
    pids: list[str]  # the provinces in the index image's palette order
    # The legend's size and columns, and its panel as drawn, per layout (legend.py).
    legend_fits: dict[tuple[object, ...], tuple[float, int]]
    panels: dict[object, _Quantized]

    def _font(self, size: float, bold: bool = True) -> ImageFont.FreeTypeFont: ...

    def sprite(
        self, key: tuple[object, ...], size: float, paint: object, keys: Sequence[RGB]
    ) -> _Sprite: ...

    def label(self, pid: str, lang: str) -> str: ...
