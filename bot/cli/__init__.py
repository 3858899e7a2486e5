"""`parley` command line: one sub-command per module in this package.

Each sub-command module exposes `register(subparsers)`, which adds its parser and sets
`func(args) -> int` as the handler. Errors a user can fix are printed on stderr with exit 2.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import os
import sys
from collections.abc import Sequence

from bot.core.model import NATIVE

# Issue 33: what this package's modules may import besides each other (tests/test_rooms.py).
MAY_IMPORT = (
    "bot.client",
    "bot.core",
    "bot.hosting",
    "bot.service",
    "renderer",
)

# Modules are imported lazily so that `parley parse` does not pay for discord or Pillow.
SUBCOMMANDS: tuple[str, ...] = (
    "parse",
    "adjudicate",
    "render",
    "demo",
    "score",
    "run",
    "tournament",
    "db",
    "doctor",
)


def build_name() -> str:
    """Which build runs: a wheel's batch path is compiled unless it could not be (setup.py)."""
    return "compiled" if NATIVE else "pure Python"


def _version() -> str:
    try:
        version = importlib.metadata.version("parley")
    except importlib.metadata.PackageNotFoundError:  # run from a checkout, not installed
        version = "(not installed)"
    return f"{version} ({build_name()})"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="parley", description="Parley: the game Diplomacy at a table."
    )
    parser.add_argument("--version", action="version", version=f"parley {_version()}")
    subs = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in SUBCOMMANDS:
        try:
            module = importlib.import_module(f"bot.cli.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"bot.cli.{name}":
                continue  # not built yet
            raise
        module.register(subs)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return 2
    try:
        status = int(args.func(args))
        sys.stdout.flush()
    except BrokenPipeError:
        # `parley ... | head`: the reader left; no traceback. Further writes (and the flush at
        # exit) go to /dev/null, as the Python documentation advises.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141  # 128 + SIGPIPE, as a shell reports a command killed by a closed pipe
    return status


if __name__ == "__main__":
    sys.exit(main())
