"""Compile the batch path with mypyc, in place: opt-in, ~1.45x a phase (issue 18).

Usage, from the checkout's root: `python tools/build_native.py` (writes .so files next to the
sources; they take precedence over the .py on import). `python tools/build_native.py clean`
removes them (do, before editing a compiled module). The modules are listed in MODULES;
tests/native.sh builds them in a copy of the tree and runs the core's and CLI's tests there."""

from __future__ import annotations

import pathlib
import sys

MODULES = [
    "bot/core/model.py",
    "bot/core/orders.py",
    "bot/core/outcome.py",
    "bot/core/adjudicator/legality.py",
    "bot/core/adjudicator/movement_phase.py",
    "bot/core/adjudicator/movement.py",
    "bot/core/adjudicator/fastpath.py",
    "bot/core/adjudicator/mapindex.py",
    "bot/core/adjudicator/phases.py",
    "bot/core/interpret.py",
    "bot/core/fastparse.py",
    "bot/core/fastread.py",
    "bot/core/jsonio_fast.py",
    "bot/cli/adjudicate.py",
    "bot/core/adjudicator/__init__.py",
    "bot/core/adjudicator/retreat.py",
    "bot/core/adjudicator/adjustment.py",
    "bot/core/adjudicator/expedited.py",
    "bot/core/jsonio.py",
]


def main() -> None:
    root = pathlib.Path(__file__).resolve().parent.parent
    if sys.argv[1:] == ["clean"]:
        for so in [*root.glob("*__mypyc*.so"), *root.glob("bot/**/*.so")]:
            so.unlink()
        return
    from mypyc.build import mypycify  # noqa: PLC0415 - a dev tool, only when building
    from setuptools import setup  # noqa: PLC0415

    mods = sys.argv[1:] or MODULES
    setup(
        name="parley_native",
        packages=[],
        py_modules=[],
        ext_modules=mypycify(mods, opt_level="3"),
        script_args=["build_ext", "--inplace"],
    )


if __name__ == "__main__":
    main()
