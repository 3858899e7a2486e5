"""Draw embed payloads roughly as Discord's dark theme shows them, about 550 px wide, to look
at what the table channel gets (issue 31): the colour bar, title, description, fields (inline
ones side by side, three a row), `code` in a monospace face, the footer, and the image as a
grey box named after its attachment. Discord timestamps are written as a client would show
them in UTC. The square emoji are drawn as squares of their colour (no emoji font here).

    python tools/embed_picture.py tests/data/embeds/sandard-en-results.json -o /tmp/x.png
    python tools/embed_picture.py tests/data/embeds/*.json -o /tmp/all.png
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.discord_app.embeds import SQUARES  # noqa: E402

FONTS = ROOT / "data" / "fonts"
MONO = Path("/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf")
WIDTH, PAD, BAR = 550, 12, 4
BG, EMBED, TEXT, MUTED, CODE = "#313338", "#2b2d31", "#dbdee1", "#949ba4", "#1e1f22"
NOW = 1_800_000_000  # the goldens' clock, for relative timestamps
SQUARE = dict(SQUARES)


def font(size: int, *, bold: bool = False, mono: bool = False) -> ImageFont.FreeTypeFont:
    if mono and MONO.is_file():
        return ImageFont.truetype(str(MONO), size)
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(FONTS / name), size)


def stamps(text: str) -> str:
    def show(m: re.Match[str]) -> str:
        when, style = int(m[1]), m[2]
        if style == "R":
            minutes = round((when - NOW) / 60)
            return f"in {minutes} minutes" if minutes >= 0 else f"{-minutes} minutes ago"
        return datetime.fromtimestamp(when, UTC).strftime("%A, %d %B %Y %H:%M")

    return re.sub(r"<t:(\d+):([a-zA-Z])>", show, text)


def mentions(text: str) -> str:
    return re.sub(r"<@(\d+)>", lambda m: f"@player{m[1][-2:]}", text)


class Writer:
    """Wraps and draws one markdown-ish line: **bold**, `code`, squares."""

    def __init__(self, draw: ImageDraw.ImageDraw, size: int) -> None:
        self.draw = draw
        self.size = size
        self.regular = font(size)
        self.bold = font(size, bold=True)
        self.mono = font(size - 1, mono=True)

    def runs(self, line: str, *, bold: bool = False) -> list[tuple[str, str]]:
        """(kind, text) runs: text, bold, code, square."""
        out: list[tuple[str, str]] = []
        for part in re.split(r"(`[^`]*`|\*\*[^*]*\*\*)", mentions(stamps(line))):
            if part.startswith("`") and part.endswith("`") and len(part) > 1:
                out.append(("code", part[1:-1]))
            elif part.startswith("**") and part.endswith("**"):
                out.append(("bold", part[2:-2]))
            else:
                for bit in re.split(f"({'|'.join(map(re.escape, SQUARE))})", part):
                    if bit in SQUARE:
                        out.append(("square", bit))
                    elif bit:
                        out.append(("bold" if bold else "text", bit))
        return out

    def width(self, kind: str, text: str) -> float:
        if kind == "square":
            return self.size + 4
        face = {"bold": self.bold, "code": self.mono}.get(kind, self.regular)
        return face.getlength(text) + (6 if kind == "code" else 0)

    def layout(self, line: str, most: float, *, bold: bool = False) -> list[list[tuple[str, str]]]:
        """The runs split into words, wrapped to `most` pixels."""
        rows: list[list[tuple[str, str]]] = [[]]
        used = 0.0
        for kind, text in self.runs(line, bold=bold):
            words = [text] if kind in ("code", "square") else re.split(r"(?<= )", text)
            for w in words:
                wide = self.width(kind, w)
                if used + wide > most and rows[-1]:
                    rows.append([])
                    used = 0.0
                rows[-1].append((kind, w))
                used += wide
        return rows

    def write(
        self, x: float, y: float, line: str, most: float, *, bold: bool = False, colour: str = TEXT
    ) -> float:
        """Draw; returns the height used."""
        h = self.size + 6
        rows = self.layout(line, most, bold=bold)
        for r, row in enumerate(rows):
            cx = x
            top = y + r * h
            for kind, text in row:
                wide = self.width(kind, text)
                if kind == "square":
                    rgb = SQUARE[text]
                    self.draw.rounded_rectangle(
                        [cx + 1, top + 2, cx + self.size, top + self.size + 1], 2, fill=rgb
                    )
                elif kind == "code":
                    self.draw.rounded_rectangle(
                        [cx, top, cx + wide - 2, top + self.size + 3], 3, fill=CODE
                    )
                    self.draw.text((cx + 3, top + 1), text, font=self.mono, fill=TEXT)
                else:
                    face = self.bold if kind == "bold" else self.regular
                    self.draw.text((cx, top), text, font=face, fill=colour)
                cx += wide
        return h * len(rows)


def block_lines(value: str) -> list[tuple[str, bool]]:
    """(line, in a code block) for a field value with ``` fences."""
    out, inside = [], False
    for line in value.split("\n"):
        if line.strip() == "```":
            inside = not inside
            continue
        out.append((line, inside))
    return out


def draw_embed(img: Image.Image, y: int, e: dict[str, Any]) -> int:
    """One embed at height y; returns the next y."""
    draw = ImageDraw.Draw(img)
    small, normal = Writer(draw, 12), Writer(draw, 14)
    title = Writer(draw, 15)
    x0, x1 = PAD, WIDTH - PAD
    inner = x1 - x0 - BAR - 2 * PAD
    x = x0 + BAR + PAD
    top = y
    y += PAD
    if e.get("title"):
        y += title.write(x, y, e["title"], inner, bold=True, colour="#f2f3f5") + 4
    if e.get("description"):
        for line in e["description"].split("\n"):
            y += normal.write(x, y, line, inner)
        y += 6
    row: list[dict[str, Any]] = []

    def flush(row: list[dict[str, Any]], y: int) -> int:
        if not row:
            return y
        col = inner / 3 if len(row) > 1 else inner
        tallest = 0
        for i, f in enumerate(row):
            cx = x + i * col
            h = small.write(cx, y, f["name"], col - 8, bold=True, colour="#f2f3f5")
            for line, code in block_lines(f["value"]):
                if code:
                    draw.rectangle([cx, y + h - 1, cx + col - 8, y + h + 18], fill=CODE)
                    draw.text((cx + 4, y + h), line, font=normal.mono, fill=TEXT)
                    h += 18
                else:
                    h += normal.write(cx, y + h, line, col - 8)
            tallest = max(tallest, h)
        return y + tallest + 8

    for f in e.get("fields") or []:
        if f.get("inline") and len(row) < 3 and all(r.get("inline") for r in row):
            row.append(f)
            continue
        y = flush(row, y)
        row = [f] if f.get("inline") else []
        if not f.get("inline"):
            y = flush([f], y)
    y = flush(row, y)
    image = (e.get("image") or {}).get("url")
    if image:
        h = int(inner * 0.62)
        draw.rounded_rectangle([x, y, x + inner, y + h], 4, fill="#4e5058")
        label = image.removeprefix("attachment://")
        draw.text((x + inner / 2 - 30, y + h / 2 - 8), label, font=normal.regular, fill=TEXT)
        y += h + 8
    footer = (e.get("footer") or {}).get("text")
    if footer:
        y += small.write(x, y, footer, inner, colour=MUTED) + 2
    y += PAD - 4
    colour = int(e.get("color") or 0x202225)
    draw.rectangle([x0, top, x0 + BAR - 1, y], fill=f"#{colour:06x}")
    return y


def picture(messages: list[tuple[str, list[list[dict[str, Any]]]]]) -> Image.Image:
    """Each (name, messages) stacked: a grey label, then each message's embeds."""
    tall = Image.new("RGB", (WIDTH, 20000), BG)
    draw = ImageDraw.Draw(tall)
    y = PAD
    for name, msgs in messages:
        draw.text((PAD, y), name, font=font(11), fill=MUTED)
        y += 18
        for embeds in msgs:
            for e in embeds:
                # the embed's background first (drawn over once its height is known)
                probe = Image.new("RGB", (WIDTH, 6000), BG)
                end = draw_embed(probe, 0, e)
                tall.paste(EMBED, (PAD, y, WIDTH - PAD, y + end))
                draw_embed(tall, y, e)
                y += end + 6
            y += 8
    return tall.crop((0, 0, WIDTH, y + PAD))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("-o", "--out", type=Path, required=True)
    args = parser.parse_args(argv)
    found = [(p.name, json.loads(p.read_text())) for p in args.files]
    picture(found).save(args.out)
    print(args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
