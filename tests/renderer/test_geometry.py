"""Invariants of data/maps/standard_geometry.json against the rules in data/maps/standard.json."""

from __future__ import annotations

import math
from collections.abc import Iterable

import pytest
from PIL import ImageFont

from bot.core.map import load_map
from bot.core.model import Location
from bot.paths import data_dir
from renderer.geometry import Geometry, Point, load_geometry, load_labels

GM = load_map("standard")
GEO = load_geometry("standard")


def _edges(geo: Geometry, pid: str) -> Iterable[tuple[Point, Point]]:
    for poly in geo.provinces[pid].polygons:
        for ring in poly:
            yield from zip(ring, [*ring[1:], ring[0]], strict=True)


def picture_borders(geo: Geometry) -> set[tuple[str, str]]:
    """Pairs of provinces whose outlines share at least one segment."""
    owners: dict[tuple[Point, Point], set[str]] = {}
    for pid in geo.provinces:
        for a, b in _edges(geo, pid):
            owners.setdefault((min(a, b), max(a, b)), set()).add(pid)
    pairs = set()
    for names in owners.values():
        if len(names) == 2:
            a, b = sorted(names)
            pairs.add((a, b))
    return pairs


def _inside(geo: Geometry, pid: str, p: Point) -> bool:
    x, y = p
    hit = False
    for (x1, y1), (x2, y2) in _edges(geo, pid):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            hit = not hit
    return hit


def _seg_dist(p: Point, a: Point, b: Point) -> float:
    (px, py), (ax, ay), (bx, by) = p, a, b
    dx, dy = bx - ax, by - ay
    t = (
        0.0
        if dx == dy == 0
        else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)))
    )
    return math.hypot(px - ax - t * dx, py - ay - t * dy)


def _dist(geo: Geometry, pid: str, p: Point) -> float:
    if _inside(geo, pid, p):
        return 0.0
    return min(_seg_dist(p, a, b) for a, b in _edges(geo, pid))


def test_geometry_has_every_province_and_nothing_else() -> None:
    assert set(GEO.provinces) == set(GM.provinces)
    for pid, shape in GEO.provinces.items():
        assert shape.polygons, pid
        assert shape.kind == GM.province(pid).kind.value, pid
        assert set(shape.coasts) == {c.value for c in GM.province(pid).coasts}, pid


def test_borders_in_the_picture_are_exactly_the_adjacencies() -> None:
    rules = {tuple(sorted((a, b))) for a in GM.provinces for b in GM.neighbours(a)}
    picture = picture_borders(GEO)
    missing = sorted(rules - picture)
    extra = sorted(picture - rules)
    assert (missing, extra) == ([], []), (
        f"adjacent but no shared border: {missing}; border but not adjacent: {extra}"
    )


def test_border_check_can_fail() -> None:
    # Dropping one province's outline must make its borders go missing.
    shapes = dict(GEO.provinces)
    del shapes["BUR"]
    geo = Geometry(
        **{**{f: getattr(GEO, f) for f in GEO.__dataclass_fields__}, "provinces": shapes}
    )
    assert ("BUR", "PAR") not in picture_borders(geo)
    assert ("BRE", "PAR") in picture_borders(geo)


@pytest.mark.parametrize("pid", sorted(GM.provinces))
def test_anchors_lie_inside_their_province(pid: str) -> None:
    shape = GEO.provinces[pid]
    assert _inside(GEO, pid, shape.anchor), f"{pid} unit anchor {shape.anchor} outside"
    assert _inside(GEO, pid, shape.label), f"{pid} label {shape.label} outside"
    for coast, p in shape.coasts.items():
        assert _inside(GEO, pid, p), f"{pid}/{coast} anchor {p} outside"
    if GM.province(pid).supply_center:
        assert shape.sc is not None, f"{pid} has no centre marker"
        assert _inside(GEO, pid, shape.sc), f"{pid} centre marker outside"


@pytest.mark.parametrize("pid", sorted(p for p in GM.provinces if GM.province(p).coasts))
def test_coast_anchor_is_on_its_own_coast(pid: str) -> None:
    coasts = GM.province(pid).coasts
    reach = {c: {d.province for d in GM.fleet_adj[Location(pid, c)]} for c in coasts}
    for c in coasts:
        own = reach[c] - set().union(*(reach[o] for o in coasts if o != c))
        other = set().union(*(reach[o] for o in coasts if o != c)) - reach[c]
        p = GEO.provinces[pid].coasts[c.value]
        near_own = min(_dist(GEO, q, p) for q in own)
        near_other = min(_dist(GEO, q, p) for q in other)
        assert near_own < near_other, (
            f"{pid}/{c}: {near_own:.1f} to its coast, {near_other:.1f} to the other"
        )


def test_no_label_overlaps_a_unit() -> None:
    font = ImageFont.truetype(
        str(data_dir() / "fonts" / "DejaVuSans-Bold.ttf"), round(GEO.label_size)
    )
    labels = load_labels("standard")
    anchors = [s.anchor for s in GEO.provinces.values()]
    anchors += [p for s in GEO.provinces.values() for p in s.coasts.values()]
    r = GEO.unit_radius
    bad = []
    for lang in ("en", "fr"):
        for pid, shape in GEO.provinces.items():
            text = labels.get(lang, {}).get(pid, pid)
            left, top, right, bottom = font.getbbox(text, anchor="mm")
            x0, y0 = shape.label[0] + left, shape.label[1] + top
            x1, y1 = shape.label[0] + right, shape.label[1] + bottom
            for ax, ay in anchors:
                dx = max(x0 - ax, 0.0, ax - x1)
                dy = max(y0 - ay, 0.0, ay - y1)
                if math.hypot(dx, dy) < r:
                    bad.append(f"{lang} {text} at {shape.label} over unit at {(ax, ay)}")
    assert not bad, "; ".join(bad)


def test_centre_markers_and_labels_keep_clear_of_each_other_and_of_units() -> None:
    font = ImageFont.truetype(
        str(data_dir() / "fonts" / "DejaVuSans-Bold.ttf"), round(GEO.label_size)
    )
    labels = load_labels("standard")
    anchors = [s.anchor for s in GEO.provinces.values()]
    anchors += [p for s in GEO.provinces.values() for p in s.coasts.values()]
    boxes = []
    for pid, shape in GEO.provinces.items():
        for lang in ("en", "fr"):
            left, top, right, bottom = font.getbbox(labels.get(lang, {}).get(pid, pid), anchor="mm")
            x, y = shape.label
            boxes.append((pid, (x + left, y + top, x + right, y + bottom)))
        if shape.sc is not None:
            r = GEO.sc_radius
            x, y = shape.sc
            boxes.append((pid, (x - r, y - r, x + r, y + r)))
            for ax, ay in anchors:
                assert math.hypot(x - ax, y - ay) >= GEO.unit_radius + r, (
                    f"{pid} centre under a unit"
                )
    bad = []
    for i, (p, (a0, b0, a1, b1)) in enumerate(boxes):
        for q, (c0, d0, c1, d1) in boxes[i + 1 :]:
            if p != q and a0 < c1 and c0 < a1 and b0 < d1 and d0 < b1:
                bad.append(f"{p}/{q}")
    assert not bad, f"overlapping labels or centre markers: {bad}"
