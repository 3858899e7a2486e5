"""`parley render POSITION.json [--orders ORDERS.json] [--results RESULTS.json] -o OUT.png`.

POSITION.json is a POSITION document (docs/formats.md), or an adjudicate input
`{"position": ..., "orders": ...}` (its orders are drawn unless --orders is given).
ORDERS.json: `{"FRANCE": ["A PAR - BUR", ...], ...}` (or `{"orders": {...}}`).
RESULTS.json: the output of `parley adjudicate` for that position (or only its "results"
list); failed orders are drawn differently. Draw the position the orders were given in.
--view POWER|public|gm: what that viewer may see. In a hidden-movement game (`--rules stab`,
or a RESULTS.json with "reports") the orders are adjudicated and only what the viewer may see
is drawn (docs/formats.md, "render --view").
"""

from __future__ import annotations

import argparse
import io
import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from bot.cli.inputs import InputFileError, read_file
from bot.cli.render_view import ViewInputError, hidden_rules, stab_sight
from bot.core import catalogue
from bot.core.map import GameMap, MapError, load_map
from bot.core.model import ModelError, Position, Power
from bot.core.orders import Build, Hold, Order, UnitOrder, UnitRef
from bot.core.outcome import OrderResult, Reason, Verdict
from bot.core.records.jsonio import FormatError, position_from_json
from bot.core.stab.views import GM, Viewer, parse_viewer

# Narrower pictures cannot hold the title and legend; wider ones take gigabytes to draw.
MIN_WIDTH, MAX_WIDTH = 400, 6000


class RenderInputError(ValueError):
    """A file the user can fix; the message says which and why."""


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "render",
        help="draw a position (with orders and results) as a PNG map",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("position", help="POSITION JSON file")
    p.add_argument("--orders", metavar="ORDERS.json", help="orders per power")
    p.add_argument("--results", metavar="RESULTS.json", help="parley adjudicate output")
    p.add_argument(
        "--lang",
        choices=catalogue.languages(),
        default=catalogue.DEFAULT_LANG,
        help="nomenclature (en)",
    )
    p.add_argument("--palette", choices=("default", "colorblind"), default="default")
    p.add_argument(
        "--map", default="standard", metavar="NAME|FILE", help="variant (default standard)"
    )
    p.add_argument(
        "--view",
        default=None,
        metavar="POWER|public|gm",
        help="what one power, the public or the GM sees",
    )
    p.add_argument(
        "--rules",
        default=None,
        metavar="PRESET",
        help="rule preset; a hidden-movement one (stab) draws only what --view may see",
    )
    p.add_argument(
        "--width",
        type=int,
        default=1600,
        help=f"picture width in pixels ({MIN_WIDTH}-{MAX_WIDTH}, default 1600)",
    )
    p.add_argument(
        "-o", "--output", required=True, metavar="OUT.png", help="PNG (or .jpg) file to write"
    )
    p.set_defaults(func=run)


def _read_json(path: str, what: str) -> Any:
    try:
        return json.loads(read_file(path))
    except InputFileError as exc:
        raise RenderInputError(f"{what}: {exc}") from None
    except json.JSONDecodeError as exc:
        raise RenderInputError(f"{what}: {path} is not valid JSON ({exc})") from None


def _parse(text: str, power: Power, position: Position, gm: GameMap, lang: str) -> Order:
    from bot.core.language.parser import OrderSyntaxError, parse_order  # noqa: PLC0415

    try:
        return parse_order(text, lang=lang, power=power, position=position, game_map=gm)
    except OrderSyntaxError as exc:
        raise RenderInputError(f"order {text!r} of {power.value}: {exc.message}") from None


class Unreadable(list[tuple[Power, str, str]]):
    """(power, text, why) of the orders that could not be read: reported and marked on the
    map (their unit, if the text names one of the power's, holds crossed out), not fatal."""


def read_orders(
    doc: object,
    position: Position,
    gm: GameMap,
    lang: str = "en",
    skipped: Unreadable | None = None,
) -> list[Order]:
    if isinstance(doc, Mapping) and "orders" in doc and isinstance(doc["orders"], Mapping):
        doc = doc["orders"]
    if not isinstance(doc, Mapping):
        raise RenderInputError('orders: expected {"POWER": ["order", ...], ...}')
    out: list[Order] = []
    for name, texts in doc.items():
        try:
            power = gm.parse_power(str(name))
        except ModelError:
            raise RenderInputError(f"orders: unknown power {name!r}") from None
        if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
            raise RenderInputError(f"orders.{name}: expected a list of order strings")
        for text in texts:
            try:
                out.append(_parse(str(text), power, position, gm, lang))
            except RenderInputError as exc:
                if skipped is None:
                    raise
                skipped.append((power, str(text), str(exc)))
    return out


def marks(position: Position, skipped: Unreadable) -> list[OrderResult]:
    """A crossed-out hold for each unreadable order whose first words name one of its power's
    units (`F Mao - Spa` names no French unit in MAO: only reported)."""
    out: list[OrderResult] = []
    for power, text, _ in skipped:
        words = text.replace("-", " ").split()
        for pid in (w.upper().split("/")[0] for w in words[:2]):
            unit = position.units.get(pid)
            if unit is not None and unit.power is power:
                hold = Hold(power, UnitRef.of(unit), source=text)
                out.append(OrderResult(power, hold, Verdict.FAILS, Reason.ILLEGAL))
                break
    return out


def read_results(
    doc: object, position: Position, gm: GameMap, skipped: Unreadable | None = None
) -> list[OrderResult]:
    if isinstance(doc, Mapping):
        doc = doc.get("results")
    if not isinstance(doc, list):
        raise RenderInputError('results: expected the adjudicate output or its "results" list')
    out = []
    for i, r in enumerate(doc):
        if not isinstance(r, Mapping) or "order" not in r:
            raise RenderInputError(f"results[{i}]: expected an object with an order")
        try:
            power = gm.parse_power(str(r.get("power")))
            verdict = Verdict(str(r.get("outcome", "succeeds")))
            reason = Reason(str(r.get("reason", "")))
        except (ModelError, ValueError):
            raise RenderInputError(f"results[{i}]: bad power, outcome or reason") from None
        try:
            order = _parse(str(r["order"]), power, position, gm, "en")
        except RenderInputError:
            if reason is Reason.ILLEGAL and verdict is Verdict.FAILS and skipped is not None:
                # `parley adjudicate` reports an order it could not read as illegal.
                skipped.append((power, str(r["order"]), str(r.get("detail", "not understood"))))
                continue
            raise  # a result that does not fit the position: the wrong file
        if isinstance(order, UnitOrder) and not isinstance(order, Build):
            here = {*position.units, *(d.unit.province for d in position.dislodged)}
            if order.unit.province not in here:
                raise RenderInputError(
                    f"results[{i}]: {r['order']!r}: no unit in {order.unit.province} in this"
                    " position (results of another phase?)"
                )
        out.append(OrderResult(power, order, verdict, reason, implied=bool(r.get("implied"))))
    return out


def load_inputs(
    args: argparse.Namespace, gm: GameMap, skipped: Unreadable | None = None
) -> tuple[Position, list[Order] | None, list[OrderResult] | None]:
    doc = _read_json(args.position, "position")
    orders_doc = None
    if isinstance(doc, Mapping) and "position" in doc and "phase" not in doc:
        orders_doc = doc.get("orders")
        doc = doc["position"]
    try:
        position = position_from_json(doc, gm)
    except FormatError as exc:
        raise RenderInputError(str(exc)) from None
    if args.orders:
        orders_doc = _read_json(args.orders, "orders")
    # Order files use the canonical English notation of docs/formats.md, whatever --lang says.
    orders = (
        read_orders(orders_doc, position, gm, "en", skipped) if orders_doc is not None else None
    )
    results = None
    if args.results:
        results = read_results(_read_json(args.results, "results"), position, gm, skipped)
        if orders is None:
            # Default holds the engine supplied are not drawn.
            orders = [r.order for r in results if not r.implied]
    return position, orders, results


def _format(path: str) -> str | None:
    """The picture format an output name asks for: PNG (also with no suffix), JPEG, or None
    for another format (never a PNG under a .jpg or .gif name)."""
    suffix = Path(path).suffix.lower()
    if suffix in ("", ".png"):
        return "PNG"
    if suffix in (".jpg", ".jpeg"):
        return "JPEG"
    return None


def run(args: argparse.Namespace) -> int:
    from renderer import Renderer  # noqa: PLC0415  (Pillow only when drawing)

    if not MIN_WIDTH <= args.width <= MAX_WIDTH:
        print(
            f"parley render: --width must be between {MIN_WIDTH} and {MAX_WIDTH} pixels,"
            f" not {args.width}",
            file=sys.stderr,
        )
        return 2
    fmt = _format(args.output)
    if fmt is None:
        print(
            f"parley render: cannot write {args.output}: name a .png or .jpg file",
            file=sys.stderr,
        )
        return 2
    skipped = Unreadable()
    try:
        gm = load_map(args.map)
        view = parse_viewer(args.view, gm) if args.view else None
        results_doc = _read_json(args.results, "results") if args.results else None
        hidden = hidden_rules(args.rules, results_doc)
        if hidden is not None:
            return _draw_hidden(args, gm, hidden, view, fmt)
        position, orders, results = load_inputs(args, gm, skipped)
    except (RenderInputError, ViewInputError, MapError, ModelError) as exc:
        print(f"parley render: {exc}", file=sys.stderr)
        return 2
    # The same order read from the input and from its results is reported once.
    seen: dict[tuple[Power, str], str] = {}
    for power, text, why in skipped:
        seen.setdefault((power, text), why)
    skipped = Unreadable((p, t, w) for (p, t), w in seen.items())
    for power, text, why in skipped:
        print(f"parley render: not drawn ({power.value}): {text!r}: {why}", file=sys.stderr)
    if view == GM:
        view = None  # an ordinary game's GM sees every order
    if skipped and (results is not None or view is None):  # a view filters unjudged orders
        marked = marks(position, skipped)
        orders = [*(orders or []), *(m.order for m in marked)]
        results = [*(results or []), *marked] if results is not None or marked else results
    img = Renderer(gm, width=args.width).image(
        position, orders, results, lang=args.lang, view=view, palette=args.palette
    )
    return _write(args, img, fmt)


def _draw_hidden(
    args: argparse.Namespace, gm: GameMap, rules: str, view: Viewer | None, fmt: str
) -> int:
    """A hidden-movement game: adjudicate, then draw the viewer's sight (the GM's if none)."""
    from renderer import Renderer  # noqa: PLC0415

    doc = _read_json(args.position, "position")
    orders_doc = _read_json(args.orders, "orders") if args.orders else None
    phase, sight = stab_sight(rules, gm, doc, orders_doc, view)
    img = Renderer(gm, width=args.width).image(
        phase.position, lang=args.lang, palette=args.palette, sight=sight
    )
    return _write(args, img, fmt)


def _write(args: argparse.Namespace, img: Any, fmt: str) -> int:
    buf = io.BytesIO()
    if fmt == "JPEG":
        img.convert("RGB").save(buf, format="JPEG", quality=90)
    else:
        img.save(buf, format="PNG", compress_level=1)
    png = buf.getvalue()
    try:
        Path(args.output).write_bytes(png)
    except OSError as exc:
        print(f"parley render: cannot write {args.output}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    print(f"wrote {args.output} ({len(png) // 1024} KiB)")
    return 0
