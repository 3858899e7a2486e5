"""`parley parse`: read orders as a player writes them and print them in canonical notation.

    parley parse [--lang en|fr] [--position FILE] [--power NAME] [--rules NAME] [--json]
                 [TEXT ...]

Each TEXT argument is one order (or several, `;`-separated); without TEXT, an order set is
read from standard input (one order per line or `;`-separated). Exit status: 0 if every order
was read, 1 if some could not be, 2 for a bad position file or an unknown power. With
`--rules` (and `--position`), the preset's submission checks run too: a set the preset
refuses at entry (Stabbeurfou) prints each reason as `refused (NAME): ...` and exits 1.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from bot.cli.inputs import InputFileError, read_file, read_stdin
from bot.core import catalogue
from bot.core.language.interpret import submission_problems
from bot.core.language.parser import (
    OrderSyntaxError,
    ParseError,
    ParseResult,
    parse_order,
    parse_orders,
    render_order,
)
from bot.core.map import GameMap, MapError, load_map
from bot.core.messages import render as render_message
from bot.core.model import ModelError, Position, Power
from bot.core.presets import RulesError, load_rules
from bot.core.records.jsonio import FormatError, position_from_json
from bot.core.rules import Choice, RuleSet


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "parse",
        help="parse orders (English or French) into canonical notation",
        description="Parse orders as players write them; print their canonical notation.",
    )
    p.add_argument(
        "--lang",
        choices=catalogue.languages(),
        default=catalogue.DEFAULT_LANG,
        help="game nomenclature",
    )
    p.add_argument("--position", metavar="FILE", help="POSITION JSON (docs/formats.md)")
    p.add_argument("--power", metavar="NAME", help="the power giving the orders")
    p.add_argument(
        "--map", default="standard", metavar="NAME|FILE", help="variant (default standard)"
    )
    p.add_argument(
        "--rules",
        metavar="NAME",
        help="rule preset whose submission checks to run (needs --position)",
    )
    p.add_argument("--json", action="store_true", help="print a JSON report")
    p.add_argument("text", nargs="*", metavar="TEXT", help="one order per argument")
    p.set_defaults(func=run)


def _load_position(path: str, game_map: GameMap) -> Position:
    if not Path(path).exists():
        raise FormatError(f"position file not found: {path}")
    try:
        doc = json.loads(read_file(path))
    except InputFileError as exc:
        raise FormatError(f"position file: {exc}") from None
    except json.JSONDecodeError as exc:
        raise FormatError(f"position file {path} is not valid JSON: {exc}") from None
    if isinstance(doc, dict) and "position" in doc and "phase" not in doc:
        doc = doc["position"]  # an adjudicate input or output, as `parley render` takes
    return position_from_json(doc, game_map)


def run(args: argparse.Namespace) -> int:
    position: Position | None = None
    power: Power | None = None
    rules: RuleSet | None = None
    try:
        game_map = load_map(args.map)
        if args.position:
            position = _load_position(args.position, game_map)
        if args.power is not None:
            power = game_map.parse_power(args.power)
        if getattr(args, "rules", None):
            rules = load_rules(args.rules)
            if position is None:
                raise FormatError("--rules needs --position (the checks read the board)")
    except (FormatError, MapError, RulesError) as exc:
        print(f"parley parse: {exc}", file=sys.stderr)
        return 2
    except ModelError:
        names = ", ".join(p.value.lower() for p in game_map.powers)
        print(f"parley parse: unknown power {args.power!r} (one of {names})", file=sys.stderr)
        return 2

    if args.text:
        result = ParseResult([], [])
        # `;` separates orders in an argument as on standard input.
        texts = [piece.strip() for arg in args.text for piece in arg.split(";")]
        for text in [t for t in texts if t]:
            try:
                order = parse_order(
                    text, lang=args.lang, power=power, position=position, game_map=game_map
                )
            except OrderSyntaxError as exc:
                result.errors.append(ParseError(text, exc.message))
            else:
                result.orders.append(order)
    else:
        try:
            if sys.stdin.isatty():  # a new user who typed `parley parse` alone
                print(
                    "parley parse: type orders, one per line, then Ctrl-D"
                    " (or give each order as an argument)",
                    file=sys.stderr,
                )
            text = read_stdin()
        except InputFileError as exc:
            print(f"parley parse: {exc}", file=sys.stderr)
            return 2
        # DATC 4.E.2 b (house III(1) B): a set from stdin is read as a whole.
        as_set = rules is not None and rules.poorly_written_orders is Choice.B
        result = parse_orders(
            text, lang=args.lang, power=power, position=position, game_map=game_map, as_set=as_set
        )

    refused: list[str] = []
    if rules is not None and position is not None:
        problems = submission_problems(position, result.orders, rules, game_map)
        refused = [render_message(p, args.lang, game_map) for p in problems]
    if args.json:
        doc: dict[str, Any] = {
            "orders": [{"text": o.source, "canonical": o.canonical()} for o in result.orders],
            "errors": [{"text": e.text, "message": e.message} for e in result.errors],
        }
        if rules is not None:
            doc["refused"] = refused
        print(json.dumps(doc, ensure_ascii=False, indent=2))
    else:
        for order in result.orders:
            line = order.canonical()
            if not catalogue.is_default(args.lang):  # the game's notation, then the canonical
                line = f"{render_order(order, args.lang, game_map)}\t{line}"
            print(line)
        for err in result.errors:
            shown = err.text if len(err.text) <= 80 else err.text[:79] + "…"
            print(f"error: {shown}: {err.message}", file=sys.stderr)
        for why in refused:
            print(f"refused ({args.rules}): {why}", file=sys.stderr)
    return 1 if result.errors or refused else 0
