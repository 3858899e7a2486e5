"""The direct PNG writer: what Pillow reads back is the image written, pixel for pixel."""

from __future__ import annotations

import io
import random

from PIL import Image

from renderer.png import encode_png


def _palette_image(w: int, h: int, colours: int) -> Image.Image:
    rng = random.Random(7)
    img = Image.frombytes("P", (w, h), bytes(rng.randrange(colours) for _ in range(w * h)))
    img.putpalette([rng.randrange(256) for _ in range(3 * colours)])
    return img


def test_a_palette_image_reads_back_the_same() -> None:
    img = _palette_image(37, 11, 200)  # an odd width: rows are not word-aligned
    png = encode_png(img, 1)
    back = Image.open(io.BytesIO(png))
    assert back.mode == "P"
    assert back.size == (37, 11)
    assert back.tobytes() == img.tobytes()
    assert back.convert("RGB").tobytes() == img.convert("RGB").tobytes()


def test_other_images_go_to_pillow() -> None:
    rgb = Image.new("RGB", (5, 4), (10, 20, 30))
    assert Image.open(io.BytesIO(encode_png(rgb, 1))).convert("RGB").tobytes() == rgb.tobytes()
    clear = _palette_image(6, 6, 4)
    clear.info["transparency"] = 0
    back = Image.open(io.BytesIO(encode_png(clear, 1)))
    assert back.info.get("transparency") == 0
    assert back.tobytes() == clear.tobytes()
