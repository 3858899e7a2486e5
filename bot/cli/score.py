"""`parley score --system NAME [FILE]`: score a finished table.

Reads `{"centers": {"FRANCE": 7, ...}, "total_centers": 34}` from FILE or stdin (optional
keys: `"draw": [powers]`, `"survivors": [powers]`, `"eliminated": {"ITALY": 1905}` and
`"end_year": 1907` for the systems that pay years played; `total_centers` defaults to the
variant's)
and prints `{"scores": {"FRANCE": 50.0, ...}}`, one entry per power of the variant, each
rounded to 2 decimals (33.33).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from bot.cli.inputs import InputFileError, read_input
from bot.core.map import GameMap, MapError, load_map
from bot.core.model import ModelError, Power
from bot.core.records.jsonio import unknown_key
from bot.core.scoring import SYSTEMS, ScoringError, score


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "score",
        help="score a finished table",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--system", required=True, help=f"one of: {', '.join(sorted(SYSTEMS))}")
    p.add_argument("--variant", default="standard", help="map (default: standard; or sandard)")
    p.add_argument("file", nargs="?", help="JSON input (default: stdin)")
    p.set_defaults(func=run)


class _InputError(ValueError):
    pass


def _powers(raw: Any, what: str, game_map: GameMap) -> list[Power]:
    if not isinstance(raw, list):
        raise _InputError(f'"{what}" must be a list of powers')
    try:
        return [game_map.parse_power(str(x)) for x in raw]
    except ModelError as exc:
        raise _InputError(f'"{what}": {exc}') from None


def _years(raw: Any, game_map: GameMap) -> dict[Power, int]:
    if not isinstance(raw, dict):
        raise _InputError('"eliminated" must be an object {"ITALY": 1905, ...}')
    out: dict[Power, int] = {}
    for key, year in raw.items():
        try:
            power = game_map.parse_power(str(key))
        except ModelError as exc:
            raise _InputError(f'"eliminated": {exc}') from None
        if isinstance(year, bool) or not isinstance(year, int):
            raise _InputError(f'"eliminated": {key}: the year must be a whole number, not {year!r}')
        out[power] = year
    return out


SCORE_KEYS = ("centers", "total_centers", "draw", "survivors", "eliminated", "end_year")


def _read(text: str) -> dict[str, Any]:
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise _InputError(f"not valid JSON: {exc}") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("centers"), dict):
        raise _InputError('expected an object with "centers": {"FRANCE": 7, ...}')
    if (bad := unknown_key(doc, SCORE_KEYS, "input")) is not None:
        raise _InputError(bad)
    return doc


def run(args: argparse.Namespace) -> int:
    try:
        if args.system not in SYSTEMS:
            raise _InputError(
                f"unknown scoring system {args.system!r} (known: {', '.join(sorted(SYSTEMS))})"
            )
        doc = _read(read_input(args.file))
        game_map = load_map(args.variant)
        centers: dict[Power, int] = {}
        for key, n in doc["centers"].items():
            try:
                power = game_map.parse_power(key)
            except ModelError as exc:
                raise _InputError(str(exc)) from None
            if isinstance(n, bool) or not isinstance(n, int):
                raise _InputError(f"{key}: centre count must be a whole number, not {n!r}")
            if power in centers:
                raise _InputError(f'"centers": {power.value} is given twice')
            centers[power] = n
        total = doc.get("total_centers")
        if total is not None and (isinstance(total, bool) or not isinstance(total, int)):
            raise _InputError(f'"total_centers" must be a whole number, not {total!r}')
        eliminated = _years(doc.get("eliminated", {}), game_map)
        end_year = doc.get("end_year")
        if end_year is not None and (isinstance(end_year, bool) or not isinstance(end_year, int)):
            raise _InputError(f'"end_year" must be a year, not {end_year!r}')
        scores = score(
            args.system,
            centers,
            total,
            game_map=game_map,
            draw=_powers(doc["draw"], "draw", game_map) if "draw" in doc else None,
            survivors=(
                _powers(doc["survivors"], "survivors", game_map) if "survivors" in doc else None
            ),
            eliminated=eliminated,
            end_year=end_year,
        )
    except (_InputError, InputFileError, ScoringError, MapError) as exc:
        print(f"parley score: {exc}", file=sys.stderr)
        return 2
    # Printed to the hundredth (100 / 3 -> 33.33); the systems keep exact values.
    out = {"scores": {p.value: round(scores[p], 2) for p in game_map.powers}}
    print(json.dumps(out))
    return 0
