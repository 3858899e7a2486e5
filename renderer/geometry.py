"""The map's drawing, read from `data/maps/NAME_geometry.json` (made by tools/mapgen).

Run time reads only this JSON: no geographic library is needed to draw a map. Format 1:
`{"width", "height", "style": {"unit_radius", "label_size", "sc_radius"},
  "provinces": {ID: {"kind", "polygons": [[exterior ring, hole...]...], "anchor": [x, y],
                     "coasts": {"NC": [x, y]}, "label": [x, y], "sc": [x, y]}},
  "impassable": polygons (Switzerland, Ireland...), "lakes": polygons,
  "land": polygons whose rings are the coastlines}`
in a plane `width` units wide (y down); the renderer scales everything, sizes included.
Borders shared by two provinces are stored as identical vertex runs in both outlines.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from bot.core.model import Location
from bot.paths import data_dir

Point = tuple[float, float]
Ring = tuple[Point, ...]
PolygonRings = tuple[Ring, ...]  # exterior first, then holes


class GeometryError(ValueError):
    """A geometry file that is missing or malformed."""


@dataclass(frozen=True, slots=True)
class ProvinceShape:
    id: str
    kind: str
    polygons: tuple[PolygonRings, ...]
    anchor: Point
    coasts: Mapping[str, Point]
    label: Point
    sc: Point | None


@dataclass(frozen=True, slots=True)
class Geometry:
    name: str
    width: float
    height: float
    unit_radius: float
    label_size: float
    sc_radius: float
    provinces: Mapping[str, ProvinceShape]
    impassable: tuple[PolygonRings, ...]
    land: tuple[PolygonRings, ...]
    lakes: tuple[PolygonRings, ...] = ()

    def anchor(self, loc: Location) -> Point:
        """Where a unit at `loc` is drawn (its coast's anchor for a split-coast fleet)."""
        shape = self.provinces[loc.province]
        if loc.coast is not None and loc.coast.value in shape.coasts:
            return shape.coasts[loc.coast.value]
        return shape.anchor


def _pt(v: Any) -> Point:
    return (float(v[0]), float(v[1]))


def _polys(raw: Any) -> tuple[PolygonRings, ...]:
    return tuple(tuple(tuple(_pt(p) for p in ring) for ring in poly) for poly in raw)


def parse_geometry(doc: Mapping[str, Any], name: str = "map") -> Geometry:
    try:
        style = doc["style"]
        provinces = {}
        for pid, d in doc["provinces"].items():
            provinces[pid] = ProvinceShape(
                id=pid,
                kind=d["kind"],
                polygons=_polys(d["polygons"]),
                anchor=_pt(d["anchor"]),
                coasts={c: _pt(p) for c, p in d.get("coasts", {}).items()},
                label=_pt(d["label"]),
                sc=_pt(d["sc"]) if d.get("sc") else None,
            )
        return Geometry(
            name=name,
            width=float(doc["width"]),
            height=float(doc["height"]),
            unit_radius=float(style["unit_radius"]),
            label_size=float(style["label_size"]),
            sc_radius=float(style["sc_radius"]),
            provinces=provinces,
            impassable=_polys(doc.get("impassable", [])),
            land=_polys(doc.get("land", [])),
            lakes=_polys(doc.get("lakes", [])),
        )
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise GeometryError(f"geometry {name}: malformed ({exc!r})") from None


@lru_cache(maxsize=4)
def load_geometry(name: str = "standard") -> Geometry:
    """Read `data/maps/NAME_geometry.json` (cached: geometry is immutable)."""
    path = data_dir() / "maps" / f"{name}_geometry.json"
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise GeometryError(f"cannot read {path}: {exc}") from None
    return parse_geometry(doc, name)


def load_geometry_file(path: Path, name: str) -> Geometry:
    """A geometry file anywhere (beside a variant file given by path)."""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise GeometryError(f"cannot read {path}: {exc}") from None
    return parse_geometry(doc, name)


@lru_cache(maxsize=4)
def load_labels(name: str = "standard") -> Mapping[str, Mapping[str, str]]:
    """Province label per language: the first abbreviation of each nomenclature."""
    path = data_dir() / "maps" / f"{name}_names.json"
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return {}
    out: dict[str, dict[str, str]] = {}
    for pid, entry in doc.get("provinces", {}).items():
        for lang, names in entry.items():
            abbr = names.get("abbr") or [pid]
            out.setdefault(lang, {})[pid] = str(abbr[0])
    return out
