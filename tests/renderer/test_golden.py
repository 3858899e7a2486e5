"""Golden images: fixed scenes with every kind of order, compared with a pixel tolerance.

The PNGs under tests/renderer/golden/ were looked at and judged right. After an intended change
of the drawing, look at the new pictures and regenerate them with
    PARLEY_UPDATE_GOLDEN=1 python3 -m pytest tests/renderer/test_golden.py
then look again before committing them.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from bot.core.map import load_map
from renderer import Renderer
from tests.renderer import scenes

GOLDEN = Path(__file__).parent / "golden"
WIDTH = 1200
# Fonts and zlib may differ by a hair between Pillow/FreeType builds: allow 0.3% of the pixels
# to differ by more than 48 levels in some channel.
TOLERANCE = 0.003


@pytest.fixture(scope="module")
def rend() -> Renderer:
    return Renderer(load_map("standard"), width=WIDTH)


@pytest.mark.parametrize(
    ("name", "lang"), [("movement", "en"), ("retreat", "fr"), ("adjustment", "en")]
)
def test_golden(rend: Renderer, name: str, lang: str) -> None:
    pos, orders, results = getattr(scenes, name)()
    png = rend.render(pos, orders, results, lang=lang)
    path = GOLDEN / f"{name}_{lang}.png"
    if os.environ.get("PARLEY_UPDATE_GOLDEN"):
        path.write_bytes(png)
    want = Image.open(path).convert("RGB")
    got = Image.open(io.BytesIO(png)).convert("RGB")
    assert got.size == want.size
    diff = ImageChops.difference(got, want).convert("L").point(lambda v: 255 if v > 48 else 0)
    bad = diff.histogram()[255] / (got.size[0] * got.size[1])
    assert bad <= TOLERANCE, f"{name}: {bad:.2%} of the pixels differ from {path.name}"
