"""`parley tournament score FILE` and `parley tournament seat FILE`: a tournament's standings
and the next round's proposed seating, from the tournament file (docs/formats.md).

score prints `{"standings": [{"rank", "player", "total", "detail": {...}}]}`;
seat prints `{"round", "tables": [{"table", "variant", "seats": [{"player", "power"}]}],
"withdrawn", "two_tables", "sitting_out"}` for the present players (`--present a,b,...` or
the file's `"present"` list).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from bot.cli.inputs import InputFileError, read_input
from bot.core.map import MapError, load_map
from bot.core.tournament.model import TournamentError, TournamentInput, read_document
from bot.core.tournament.seating import PastTable, seat_round
from bot.core.tournament.standings import standings


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "tournament",
        help="tournament standings and seating",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    subs = p.add_subparsers(dest="tournament_command", metavar="ACTION")
    sc = subs.add_parser("score", help="standings from a tournament file")
    sc.add_argument("file", nargs="?", help="tournament JSON (default: stdin)")
    sc.set_defaults(func=run_score)
    se = subs.add_parser("seat", help="propose the next round's seating")
    se.add_argument("file", nargs="?", help="tournament JSON (default: stdin)")
    se.add_argument("--present", help="comma-separated player ids (default: the file's list)")
    se.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    se.set_defaults(func=run_seat)
    p.set_defaults(func=lambda _args: _usage(p))


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help(sys.stderr)
    return 2


def _load(path: str | None) -> tuple[dict[str, Any], TournamentInput]:
    text = read_input(path)
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise TournamentError(f"not valid JSON: {exc}") from None
    return doc, read_document(doc)


def _fail(exc: Exception) -> int:
    print(f"parley tournament: {exc}", file=sys.stderr)
    return 2


def run_score(args: argparse.Namespace) -> int:
    try:
        _, inp = _load(args.file)
        rows = standings(inp)
    except (TournamentError, InputFileError) as exc:
        return _fail(exc)
    out = {
        "standings": [
            {"rank": r.rank, "player": r.player, "total": r.total, "detail": dict(r.detail)}
            for r in rows
        ]
    }
    print(json.dumps(out, ensure_ascii=False))
    return 0


def run_seat(args: argparse.Namespace) -> int:
    try:
        doc, inp = _load(args.file)
        if args.present is not None:
            present = [p.strip() for p in args.present.split(",") if p.strip()]
        else:
            raw = doc.get("present")
            if not isinstance(raw, list) or not all(isinstance(p, str) for p in raw):
                raise TournamentError('give --present a,b,... or a "present": [ids] list')
            present = list(raw)
        unknown = [p for p in present if p not in inp.player_ids]
        if unknown:
            raise TournamentError(f"present players not in players: {', '.join(unknown)}")
        volunteers = doc.get("volunteers") or {}
        if not isinstance(volunteers, dict):
            raise TournamentError('"volunteers" must be {"withdraw": [ids], "two_tables": [ids]}')
        # D: withdrawal and two tables once each per player, mutually exclusive.
        used = {w.player for w in inp.withdrawals} | {t.player for t in inp.two_tables}
        ranking = [r.player for r in standings(inp)] if inp.rounds else sorted(present)
        past = [PastTable(t.round, t.powers, t.scores) for t in inp.rounds if t.powers]
        seating = seat_round(
            present,
            past,
            powers=[p.value for p in load_map("standard").powers],
            small_powers=[p.value for p in load_map("sandard").powers],
            ranking=ranking,
            volunteers_withdraw=[p for p in volunteers.get("withdraw", []) if p not in used],
            volunteers_two=[p for p in volunteers.get("two_tables", []) if p not in used],
            seed=args.seed,
        )
    except (TournamentError, InputFileError, MapError) as exc:
        return _fail(exc)
    out = {
        "round": max(inp.round_numbers, default=0) + 1,
        "tables": [
            {
                "table": t.number,
                "variant": t.variant,
                "seats": [{"player": p, "power": power} for p, power in t.seats],
            }
            for t in seating.tables
        ],
        "withdrawn": list(seating.withdrawn),
        "two_tables": list(seating.two_tables),
        "sitting_out": list(seating.sitting_out),
    }
    print(json.dumps(out, ensure_ascii=False))
    return 0
