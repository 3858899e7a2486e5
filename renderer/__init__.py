"""Parley's map renderer: positions, orders and results as PNG (and games as GIF)."""

from renderer.geometry import Geometry, GeometryError, load_geometry
from renderer.render import (
    PALETTES,
    PUBLIC,
    Frame,
    Renderer,
    default_renderer,
    power_colours,
    render,
    render_gif,
)

# Issue 33: what this package's modules may import besides each other (tests/test_rooms.py).
MAY_IMPORT = (
    "bot.core",
    "bot.paths",
)

__all__ = [
    "PALETTES",
    "PUBLIC",
    "Frame",
    "Geometry",
    "GeometryError",
    "Renderer",
    "default_renderer",
    "load_geometry",
    "power_colours",
    "render",
    "render_gif",
]
