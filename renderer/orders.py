"""One picture's drawing on the board: supply centres, units, and every kind of order with its
result (styles in the legend's key)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from PIL import ImageDraw

from bot.core import catalogue
from bot.core.catalogue import DEFAULT_LANG, languages
from bot.core.model import Location, PhaseKind, Position, Power, Unit, UnitType
from bot.core.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Retreat,
    SupportHold,
    SupportMove,
    UnitOrder,
)
from bot.core.outcome import OrderResult, Reason
from renderer.geometry import Point
from renderer.palette import (
    _SUPERSAMPLE,
    BUILD,
    CONVOY_DASH,
    FAIL,
    ILLEGAL_DASH,
    INK,
    RETREAT_DASH,
    RGB,
    STROKE,
    SUPPORT_DASH,
    UNIT_SCALE,
    _dark,
    _Draw,
    _luma,
    _mix,
)

if TYPE_CHECKING:
    from renderer.kit import RenderKit

# Results drawn as illegal (red, dashed): the order was never valid, unlike a bounce.
ILLEGAL = frozenset({Reason.ILLEGAL, Reason.VOID})

# The mark under a dislodged unit, in the game's language.
DISLODGED: Mapping[str, str] = {
    lang: catalogue.text("render", "unit.dislodged", lang) for lang in languages()
}


class _Ctx:
    """One render's drawing helpers (scale, palette, position)."""

    def __init__(
        self,
        r: RenderKit,
        draw: _Draw,
        s: float,
        colours: Mapping[Power, RGB],
        position: Position,
        *,
        lang: str = "en",
        labels: Mapping[str, tuple[int, int, int, int]] | None = None,
    ) -> None:
        self.r = r
        self.lang = lang
        margin = 2.0 * s
        self.label_boxes = [
            (x0 - margin, y0 - margin, x1 + margin, y1 + margin)
            for x0, y0, x1, y1 in (labels or {}).values()
        ]
        self.boxes_px = list((labels or {}).values())
        self.crossed: set[tuple[int, int, int, int]] = set()
        self.dots: list[tuple[Point, float, RGB]] = []
        self.words: list[tuple[tuple[float, float, float, float], object]] = []
        self.geo = r.geometry
        self.gm = r.game_map
        self.draw = draw
        self.s = s
        self.colours = colours
        self.position = position
        # Units, centres and strokes a little larger than the geometry's style: the map is
        # mostly seen as Discord's preview (~550 px wide, ~380 px on a phone).
        self.radius = self.geo.unit_radius * s * UNIT_SCALE
        # Where units stand: a failure mark is placed clear of them.
        self.occupied = [self.at(u.location) for u in position.units.values()] + [
            self.dislodged_point(d.unit.location) for d in position.dislodged
        ]

    def at(self, loc: Location) -> Point:
        x, y = self.geo.anchor(loc)
        return (x * self.s, y * self.s)

    def unit_point(self, loc: Location) -> Point:
        """Anchor of the unit actually at a province (its coast), else the location's own."""
        unit = self.position.units.get(loc.province)
        if unit is not None:
            return self.at(unit.location)
        return self.at(loc)

    # --- board ---------------------------------------------------------------------------

    def centres(self) -> None:
        rad = self.geo.sc_radius * self.s * UNIT_SCALE
        for pid in sorted(self.gm.supply_centers):
            shape = self.geo.provinces[pid]
            if shape.sc is None:
                continue
            x, y = shape.sc[0] * self.s, shape.sc[1] * self.s
            owner = self.position.centers.get(pid)
            fill = self.colours[owner] if owner else (250, 250, 250)
            self.draw.ellipse(
                (x - rad, y - rad, x + rad, y + rad),
                fill=fill,
                outline=INK,
                width=max(1, round(0.8 * self.s)),
            )
            dot = rad * 0.35
            self.draw.ellipse((x - dot, y - dot, x + dot, y + dot), fill=INK)

    def units(self) -> None:
        # Dislodged units first: the unit that took the province is drawn over, not under.
        for d in self.position.dislodged:
            p = self.dislodged_point(d.unit.location)
            self.unit_icon(d.unit, p)
            self.dislodged_mark(p)
        for unit in self.position.units.values():
            self.unit_icon(unit, self.at(unit.location))

    def dislodged_point(self, loc: Location) -> Point:
        """A unit awaiting retreat is drawn beside the unit that took its place (up and to the
        right: labels sit under the anchors)."""
        x, y = self.at(loc)
        return (x + self.radius * 2.1, y - self.radius * 1.5)

    def unit_icon(self, unit: Unit, p: Point, *, ghost: bool = False) -> None:
        """Army: a disc with a bold A; fleet: a ship's hull with a bold F under a sail (the
        letters are the same in French: Armée, Flotte)."""
        colour = self.colours[unit.power]
        if ghost:
            colour = _mix(colour, (255, 255, 255), 0.45)
        letter_ink = INK if _luma(colour) > 165 else (255, 255, 255)
        r = self.radius
        s = self.s
        army = unit.type is UnitType.ARMY
        font = self.r._font(r * (1.45 if army else 1.2) * _SUPERSAMPLE)

        def paint(d: ImageDraw.ImageDraw, c: float, k: float) -> None:
            rr = r * k
            ow = max(1.0, 1.1 * s * k)
            if army:
                d.ellipse(
                    (c - rr, c - rr, c + rr, c + rr), fill=colour, outline=INK, width=round(ow)
                )
                d.text((c, c + 0.06 * rr), "A", font=font, fill=letter_ink, anchor="mm")
                return
            hull = [
                (c - 1.35 * rr, c - 0.3 * rr),
                (c + 1.35 * rr, c - 0.3 * rr),
                (c + 0.9 * rr, c + 0.85 * rr),
                (c - 0.9 * rr, c + 0.85 * rr),
            ]
            sail = [
                (c - 0.1 * rr, c - 1.25 * rr),
                (c - 0.1 * rr, c - 0.4 * rr),
                (c - 0.95 * rr, c - 0.4 * rr),
            ]
            flag = [
                (c + 0.1 * rr, c - 1.05 * rr),
                (c + 0.1 * rr, c - 0.4 * rr),
                (c + 0.75 * rr, c - 0.4 * rr),
            ]
            d.polygon(sail, fill=colour, outline=INK, width=round(ow))
            d.polygon(flag, fill=colour, outline=INK, width=round(ow))
            d.polygon(hull, fill=colour, outline=INK, width=round(ow))
            d.text((c, c + 0.3 * rr), "F", font=font, fill=letter_ink, anchor="mm")

        key = ("unit", unit.type, colour, round(r * 10))
        self.draw.sprite(self.r.sprite(key, r * 3.0, paint, (colour, INK, letter_ink)), p)

    def dislodged_mark(self, p: Point, *, radius: float | None = None, word: bool = True) -> None:
        """A red ring with a cross around the unit, and the word above it (labels are below)."""
        r = radius or self.radius
        s = self.s

        def paint(d: ImageDraw.ImageDraw, c: float, k: float) -> None:
            rr = r * 1.35 * k
            w = round(2.4 * s * k)
            d.ellipse(
                (c - rr, c - rr, c + rr, c + rr),
                outline=(255, 255, 255),
                width=w + round(2 * s * k),
            )
            d.ellipse((c - rr, c - rr, c + rr, c + rr), outline=FAIL, width=w)
            # A small red cross on the ring, clear of the unit's letter.
            e, q = rr * 0.7071, rr * 0.28
            x0, y0 = c + e, c - e
            d.ellipse((x0 - 2 * q, y0 - 2 * q, x0 + 2 * q, y0 + 2 * q), fill=(255, 255, 255))
            for a, b in (((-q, -q), (q, q)), ((-q, q), (q, -q))):
                d.line([(x0 + a[0], y0 + a[1]), (x0 + b[0], y0 + b[1])], fill=FAIL, width=w)

        self.draw.sprite(
            self.r.sprite(("dislodged", round(r * 10)), r * 4.0, paint, (FAIL, (255, 255, 255))), p
        )
        if not word:
            return
        name = DISLODGED.get(self.lang) or DISLODGED[DEFAULT_LANG]
        font = self.r._font(9.5 * s)
        tw = font.getlength(name)
        x, y = p[0], p[1] - r * 1.45 - 12 * s
        halo = max(1, round(1.1 * s))

        def paint_word(d: ImageDraw.ImageDraw) -> None:
            d.text(
                (tw / 2 + 3 * s, 1 * s),
                name,
                font=font,
                fill=FAIL,
                anchor="ma",
                stroke_width=halo,
                stroke_fill=(255, 255, 255),
            )

        # Pasted after the orders (see Renderer.image): no retreat line runs over the word.
        self.words.append(((x - tw / 2 - 3 * s, y, x + tw / 2 + 3 * s, y + 14 * s), paint_word))

    # --- orders --------------------------------------------------------------------------

    def orders(self, orders: Sequence[Order], result_of: Mapping[Order, OrderResult]) -> None:
        moves: dict[str, Move] = {}
        for o in orders:
            if isinstance(o, Move):
                moves[o.unit.province] = o
        convoy_fleets: dict[tuple[str, Location], list[str]] = {}
        for o in orders:
            if isinstance(o, Convoy):
                convoy_fleets.setdefault((o.target.province, o.dest), []).append(o.unit.province)
        # Supports and convoys first, so moves are drawn on top of them. Styles (see the
        # legend): a support is a thin dotted line ending in a dot on the supported move's arrow
        # or on the held unit; a convoy is a dashed ring on the fleet (and a dash-dot route when
        # the army's move is not drawn); a failed order is faded and crossed in red.
        for o in orders:
            res = result_of.get(o)
            failed = res is not None and not res.succeeded
            colour = self.order_colour(o, failed=failed, res=res)
            if isinstance(o, SupportMove):
                a = self.unit_point(o.target.location)
                b = self.at(o.dest)
                mv = moves.get(o.target.province)
                if mv is not None and mv.dest.province == o.dest.province:
                    # On the supported arrow's last leg (a convoyed move goes via its fleets).
                    fleets = convoy_fleets.get((mv.unit.province, mv.dest), [])
                    route = self.convoy_route(mv, fleets)
                    if route:
                        a = route[-1]
                mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
                start = self.unit_point(o.unit.location)
                self.support_line(start, mid, colour, failed=failed, shorten=0.0)
            elif isinstance(o, SupportHold):
                start = self.unit_point(o.unit.location)
                end = self.unit_point(o.target.location)
                self.support_line(start, end, colour, failed=failed, shorten=self.radius * 1.15)
            elif isinstance(o, Convoy):
                mv = moves.get(o.target.province)
                f = self.unit_point(o.unit.location)
                if mv is None or mv.dest != o.dest:
                    a = self.unit_point(o.target.location)
                    b = self.at(o.dest)
                    self.line(a, f, colour, dash=CONVOY_DASH, width=1.6, head=None, failed=False)
                    self.line(
                        f, b, colour, dash=CONVOY_DASH, width=1.6, head="arrow", failed=failed
                    )
                self.convoy_ring(f, colour)
                if failed:
                    rr = self.radius * 1.5
                    self.cross((f[0] + rr * 0.7, f[1] - rr * 0.7))
        for o in orders:
            res = result_of.get(o)
            failed = res is not None and not res.succeeded
            colour = self.order_colour(o, failed=failed, res=res)
            illegal = res is not None and res.reason in ILLEGAL
            if isinstance(o, Move):
                start = self.unit_point(o.unit.location)
                end = self.at(o.dest)
                route = self.convoy_route(o, convoy_fleets.get((o.unit.province, o.dest), []))
                back = moves.get(o.dest.province)
                if not route and back is not None and back.dest.province == o.unit.province:
                    # Two units swapping or bouncing head-on: each arrow keeps to its side.
                    dx, dy = end[0] - start[0], end[1] - start[1]
                    norm = math.hypot(dx, dy) or 1.0
                    k = self.radius * 0.45
                    side = (-dy / norm * k, dx / norm * k)
                    start = (start[0] + side[0], start[1] + side[1])
                    end = (end[0] + side[0], end[1] + side[1])
                pts = [start, *route, end]
                for i in range(len(pts) - 1):
                    last = i == len(pts) - 2
                    self.line(
                        pts[i],
                        pts[i + 1],
                        colour,
                        dash=ILLEGAL_DASH if illegal else None,
                        width=2.4,
                        head="arrow" if last else None,
                        failed=failed and last,
                        shorten_start=i == 0,
                        shorten=self.radius * 0.9 if last else 0.0,
                    )
            elif isinstance(o, Hold):
                x, y = self.unit_point(o.unit.location)
                rr = self.radius * 1.5
                pts = [
                    (x + rr * math.cos(a), y + rr * math.sin(a)) for a in _angles(8, math.pi / 8)
                ]
                self.draw.polygon(pts, outline=colour, width=max(2, round(1.8 * STROKE * self.s)))
                if failed:
                    self.cross((x + rr * 0.7, y - rr * 0.7))
            elif isinstance(o, Retreat):
                start = self.at(o.unit.location)
                if self.position.dislodged_in(o.unit.province) is not None:
                    start = self.dislodged_point(o.unit.location)
                self.line(
                    start,
                    self.at(o.dest),
                    colour,
                    dash=None,
                    width=2.4,
                    head="arrow",
                    failed=failed,
                )
            elif isinstance(o, Disband):
                p = self.at(o.unit.location)
                if self.position.dislodged_in(o.unit.province) is not None:
                    p = self.dislodged_point(o.unit.location)
                self.cross(p, size=self.radius * 1.1, colour=(0, 0, 0) if failed else FAIL)
            elif isinstance(o, Build):
                p = self.at(o.unit.location)
                if (
                    o.unit.type is not None
                    and o.power is not None
                    and o.unit.province not in self.position.units
                ):
                    self.unit_icon(Unit(o.power, o.unit.type, o.unit.location), p, ghost=failed)
                rr = self.radius * 1.55
                x, y = p
                ring = BUILD if not failed else FAIL
                self.draw.ellipse(
                    (x - rr, y - rr, x + rr, y + rr), outline=ring, width=max(2, round(2 * self.s))
                )
                if failed:
                    self.cross((x + rr * 0.7, y - rr * 0.7))
            if (
                failed
                and res is not None
                and res.reason is Reason.DISLODGED
                and isinstance(o, UnitOrder)
                and o.unit.province in self.position.units
            ):
                # Dislodged by this phase's moves: ringed, crossed and named.
                self.dislodged_mark(self.unit_point(o.unit.location))
        self.flush_dots()

    def flush_dots(self) -> None:
        for (x, y), rd, colour in self.dots:
            self.draw.ellipse(
                (x - rd, y - rd, x + rd, y + rd), fill=colour, outline=(255, 255, 255), width=1
            )
        self.dots.clear()

    def convoy_route(self, move: Move, fleets: Sequence[str]) -> list[Point]:
        """The convoying fleets in order from the army to its destination (shortest chain)."""
        if not fleets:
            return []
        src = move.unit.province
        fleet_set = set(fleets)
        prev: dict[str, str | None] = {src: None}
        queue = [src]
        found = None
        while queue:
            cur = queue.pop(0)
            for nxt in sorted(self.gm.neighbours(cur)):
                if nxt in prev:
                    continue
                if nxt == move.dest.province and cur != src:
                    prev[nxt] = cur
                    found = nxt
                    queue = []
                    break
                if nxt in fleet_set:
                    prev[nxt] = cur
                    queue.append(nxt)
        if found is None:
            return [self.unit_point(Location(f)) for f in sorted(fleets)]
        chain = []
        cur2 = prev[found]
        while cur2 is not None and cur2 != src:
            chain.append(cur2)
            cur2 = prev[cur2]
        return [self.unit_point(Location(f)) for f in reversed(chain)]

    def retreat_options(self, orders: Sequence[Order]) -> None:
        if self.position.phase.kind is not PhaseKind.RETREAT:
            return
        ordered = {o.unit.province for o in orders if isinstance(o, UnitOrder)}
        for d in self.position.dislodged:
            if d.unit.province in ordered:
                continue
            start = self.dislodged_point(d.unit.location)
            colour = _dark(self.colours[d.unit.power], 0.2)
            for pid in sorted(d.retreats):
                locs = self.gm.fleet_locations(pid) if d.unit.type is UnitType.FLEET else ()
                near = [
                    loc for loc in locs if self.gm.adjacent(UnitType.FLEET, d.unit.location, loc)
                ]
                dest = near[0] if near else Location(pid)
                self.line(
                    start,
                    self.at(dest),
                    colour,
                    dash=RETREAT_DASH,
                    width=1.2,
                    head="arrow",
                    failed=False,
                )

    def order_colour(
        self, o: Order, *, failed: bool = False, res: OrderResult | None = None
    ) -> RGB:
        """The power's colour, darkened; a failed order's is faded a little towards white; an
        illegal one is red."""
        if res is not None and res.reason in ILLEGAL:
            return FAIL
        power = o.power
        if power is None and isinstance(o, UnitOrder):
            unit = self.position.units.get(o.unit.province)
            power = unit.power if unit else None
        colour = _dark(self.colours[power], 0.45) if power else INK
        # Faded only a little: a failed move must stay visible at preview size (the ✕ says it).
        return _mix(colour, (255, 255, 255), 0.2) if failed else colour

    def support_line(
        self, a: Point, b: Point, colour: RGB, *, failed: bool, shorten: float
    ) -> None:
        self.line(
            a,
            b,
            colour,
            dash=SUPPORT_DASH,
            width=1.8,
            head="dot",
            failed=failed,
            shorten=shorten,
            clip_labels=False,
        )

    def convoy_ring(self, p: Point, colour: RGB, rr: float | None = None) -> None:
        """A dashed ring around a convoying fleet: eight arcs."""
        x, y = p
        rr = rr or self.radius * 1.5
        w = max(2, round(1.6 * self.s))
        for k in range(8):
            a0 = k * 45.0
            box = (x - rr, y - rr, x + rr, y + rr)
            self.draw.arc(box, a0, a0 + 28.0, fill=(255, 255, 255), width=w + 2)
            self.draw.arc(box, a0, a0 + 28.0, fill=colour, width=w)

    # --- primitives ----------------------------------------------------------------------

    def line(
        self,
        a: Point,
        b: Point,
        colour: RGB,
        *,
        dash: tuple[float, float] | None,
        width: float,
        head: str | None,
        failed: bool,
        shorten: float | None = None,
        shorten_start: bool = True,
        clip_labels: bool = True,
        track_labels: bool = True,
    ) -> None:
        s = self.s
        width *= STROKE
        dx, dy = b[0] - a[0], b[1] - a[1]
        length = math.hypot(dx, dy)
        if length < 1:
            return
        ux, uy = dx / length, dy / length
        w = max(1, round(width * s))
        hl = (6.0 + width * 1.8) * s if head == "arrow" else 0.0
        start_cut = self.radius * 0.9 if shorten_start else 0.0
        end_cut = self.radius * 0.9 if shorten is None else shorten
        # A short move (VIE-BOH) keeps a body twice its head: the cuts give way first.
        room = length - 2.2 * hl
        if start_cut + end_cut > max(room, 0.0):
            k = max(0.0, room) / (start_cut + end_cut)
            start_cut, end_cut = start_cut * k, end_cut * k
        a = (a[0] + ux * start_cut, a[1] + uy * start_cut)
        b = (b[0] - ux * end_cut, b[1] - uy * end_cut)
        length = math.hypot(b[0] - a[0], b[1] - a[1])
        if clip_labels:
            # Stop where the line would enter a label box near its end (NWG, NTH, BLA...).
            # A short move (VIE-BOH: its line meets BOH's label 44 px out) stops there too,
            # with a body of half its head or more: going on would put the head under the
            # label pasted back over the line (issue 16).
            reach = hl + 6 * s
            for box in self.label_boxes:
                span = _enter_exit(a, b, box)
                if span is None:
                    continue
                t0, t1 = span
                if t0 > 0 and t1 * length > length - reach and t0 * length > 1.5 * hl + 2 * s:
                    length = t0 * length
                    b = (a[0] + ux * length, a[1] + uy * length)
        body_end = (b[0] - ux * hl * 0.8, b[1] - uy * hl * 0.8)
        # Labels the body crosses are pasted back over it; an arrow's head stays on top.
        for box, pixels in zip(self.label_boxes, self.boxes_px, strict=True):
            if track_labels and _enter_exit(a, body_end, box) is not None:
                self.crossed.add(pixels)
        casing = (255, 255, 255)
        if dash is None:
            self.draw.line([a, body_end], fill=casing, width=w + max(2, round(1.4 * s)))
            self.draw.line([a, body_end], fill=colour, width=w)
        else:
            on, off = dash[0] * s, dash[1] * s
            t = 0.0
            total = max(0.0, length - hl * 0.8)
            while t < total:
                t2 = min(total, t + on)
                p1 = (a[0] + ux * t, a[1] + uy * t)
                p2 = (a[0] + ux * t2, a[1] + uy * t2)
                self.draw.line([p1, p2], fill=casing, width=w + max(2, round(1.2 * s)))
                self.draw.line([p1, p2], fill=colour, width=w)
                t = t2 + off
        if head == "arrow":
            hw = hl * 0.55
            px, py = -uy, ux
            tri = [
                b,
                (b[0] - ux * hl + px * hw, b[1] - uy * hl + py * hw),
                (b[0] - ux * hl - px * hw, b[1] - uy * hl - py * hw),
            ]
            self.draw.polygon(tri, fill=colour, outline=casing)
        elif head == "dot":
            # Drawn after the moves (see orders()), so it sits on top of the supported arrow.
            self.dots.append((b, (2.4 + width) * s, colour))
        if failed:
            self.cross(self.mark_point(a, b))

    def mark_point(self, a: Point, b: Point) -> Point:
        """Where a failed line's ✕ goes: on the line, near its end, clear of units and labels
        (a mark on a unit or a name hides what failed)."""
        c = self.radius * 0.6 + 2 * self.s
        for t in (0.72, 0.55, 0.88, 0.4, 1.0, 0.25):
            p = (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)
            if not self._covers(p, c):
                return p
        return (a[0] + (b[0] - a[0]) * 0.72, a[1] + (b[1] - a[1]) * 0.72)

    def _covers(self, p: Point, c: float) -> bool:
        """Whether a mark of half-size c at p would touch a unit or a province label."""
        clear = c + self.radius * 1.2
        if any(math.hypot(p[0] - q[0], p[1] - q[1]) < clear for q in self.occupied):
            return True
        x, y = p
        return any(
            x - c < x1 and x + c > x0 and y - c < y1 and y + c > y0
            for x0, y0, x1, y1 in self.boxes_px
        )

    def cross(
        self, p: Point, size: float | None = None, colour: RGB = FAIL, *, track: bool = True
    ) -> None:
        x, y = p
        c = size if size is not None else self.radius * 0.6
        w = max(2, round(2.2 * self.s))
        if track:
            # A label the cross overlaps is pasted back on top (see Renderer.image).
            for (x0, y0, x1, y1), pixels in zip(self.label_boxes, self.boxes_px, strict=True):
                if x - c < x1 and x + c > x0 and y - c < y1 and y + c > y0:
                    self.crossed.add(pixels)
        for q in (((x - c, y - c), (x + c, y + c)), ((x - c, y + c), (x + c, y - c))):
            self.draw.line(q, fill=(255, 255, 255), width=w + 2)
        for q in (((x - c, y - c), (x + c, y + c)), ((x - c, y + c), (x + c, y - c))):
            self.draw.line(q, fill=colour, width=w)


def _enter_exit(a: Point, b: Point, box: tuple[float, float, float, float]) -> Point | None:
    """Where segment a-b enters and leaves a box, as fractions of its length (Liang-Barsky);
    None when it misses the box."""
    # Most boxes are far from the segment: a bounding-box test first (issue 18).
    if (
        (a[0] < box[0] and b[0] < box[0])
        or (a[0] > box[2] and b[0] > box[2])
        or (a[1] < box[1] and b[1] < box[1])
        or (a[1] > box[3] and b[1] > box[3])
    ):
        return None
    t0, t1 = 0.0, 1.0
    dx, dy = b[0] - a[0], b[1] - a[1]
    for p, q in (
        (-dx, a[0] - box[0]),
        (dx, box[2] - a[0]),
        (-dy, a[1] - box[1]),
        (dy, box[3] - a[1]),
    ):
        if p == 0:
            if q < 0:
                return None
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return None
    return (t0, t1)


def _angles(n: int, offset: float) -> list[float]:
    return [offset + 2 * math.pi * k / n for k in range(n)]
