from __future__ import annotations

# Assigned, not a docstring: mypyc leaves a compiled module's docstring out (the native
# spike), and it is this command's --help text.
__doc__ = """\
`parley adjudicate [--rules NAME] [--jsonl [--jobs N]] [FILE]`: adjudicate one phase from JSON.

Input (FILE or standard input), as in docs/formats.md:
  {"position": POSITION, "orders": {"FRANCE": ["A PAR - BUR", ...], ...}}
Output: {"results": [{"power", "order", "outcome", "reason"}...], "dislodged": [...],
         "position": POSITION of the next phase}
A malformed document or an unknown power is an error on standard error, exit status 2.
With --jsonl: one document per line in, one per line out; a bad line gives {"error": "..."}.
"""

import argparse
import io
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

from bot.cli.adjudicate_engine import Engine, InputError
from bot.cli.adjudicate_jobs import default_jobs, run_jsonl_jobs
from bot.cli.inputs import InputFileError, read_input
from bot.core.map import MapError, load_map
from bot.core.presets import DEFAULT_PRESET, RulesError, list_presets, load_rules
from bot.core.stab import hidden_movement


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "adjudicate",
        help="adjudicate a phase given as JSON",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--rules",
        default=DEFAULT_PRESET,
        metavar="NAME",
        help=f"rule preset (default {DEFAULT_PRESET}; one of: {', '.join(list_presets())})",
    )
    p.add_argument(
        "--map",
        default="standard",
        metavar="NAME|FILE",
        help="variant: a bundled map (standard, sandard) or a variant file (default standard)",
    )
    p.add_argument("--jsonl", action="store_true", help="one JSON document per line")
    p.add_argument(
        "--jobs",
        type=int,
        default=0,
        metavar="N",
        help="with --jsonl: worker processes (default: one per CPU; inputs of fewer than"
        " 300 lines are answered in one process)",
    )
    p.add_argument("file", nargs="?", help="input file (default: standard input)")
    p.set_defaults(func=run)


def make_engine(rules_name: str = DEFAULT_PRESET, map_name: str = "standard") -> Engine:
    rules = load_rules(rules_name)
    if hidden_movement(rules):  # Stab!: placement, conditional retreats, the reports
        from bot.cli.stab import StabEngine  # noqa: PLC0415 - Stab! rules only

        return StabEngine(rules, load_map(map_name))
    return Engine(rules, load_map(map_name))


def run(args: argparse.Namespace) -> int:
    try:
        engine = make_engine(args.rules, args.map)
    except (RulesError, MapError) as exc:
        print(f"parley adjudicate: {exc}", file=sys.stderr)
        return 2
    if args.jsonl:
        if args.jobs < 0:
            print("parley adjudicate: --jobs must be 0 (one per CPU) or more", file=sys.stderr)
            return 2
        return _run_jsonl_input(engine, args)
    try:
        text = read_input(args.file)
    except InputFileError as exc:
        print(f"parley adjudicate: {exc}", file=sys.stderr)
        return 2
    return _run_one(engine, text)


def _run_jsonl_input(engine: Engine, args: argparse.Namespace) -> int:
    """--jsonl: the lines are read as bytes, so that one line that is not UTF-8 text is an
    error line and the others are still adjudicated."""
    path: str | None = args.file
    if path and path != "-":
        if Path(path).is_dir():
            print(f"parley adjudicate: {path} is a directory, not a file", file=sys.stderr)
            return 2
        try:
            stream: IO[bytes] = open(path, "rb")  # noqa: SIM115 - closed below
        except OSError as exc:
            print(f"parley adjudicate: cannot read {path}: {exc.strerror}", file=sys.stderr)
            return 2
    else:
        stream = getattr(sys.stdin, "buffer", None) or io.BytesIO(sys.stdin.read().encode())
    try:
        run_jsonl_jobs(engine, stream, sys.stdout, jobs=args.jobs or default_jobs())
    finally:
        if path and path != "-":
            stream.close()
    sys.stdout.flush()
    return 0


def _run_one(engine: Engine, text: str) -> int:
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        print(f"parley adjudicate: not valid JSON: {exc}", file=sys.stderr)
        return 2
    try:
        out = engine.run(doc)
    except InputError as exc:
        print(f"parley adjudicate: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # noqa: BLE001 - never a stack trace to a user
        print(f"parley adjudicate: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    json.dump(out, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """`python3 -m bot.cli.adjudicate ...` (same as `parley adjudicate ...`)."""
    parser = argparse.ArgumentParser(prog="parley adjudicate")
    subs = parser.add_subparsers()
    register(subs)
    args = parser.parse_args(["adjudicate", *(argv if argv is not None else sys.argv[1:])])
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
