"""Compile the batch path with mypyc, in place: opt-in, ~1.7x fewer instructions a phase (issue
18). A wheel (`pip install .`) is compiled by setup.py anyway; this is for a checkout (editable
install).

Usage, from the checkout's root: `python tools/build_native.py` (writes .so files next to the
sources; they take precedence over the .py on import). `python tools/build_native.py clean`
removes them (do, before editing a compiled module, and before tests/run.sh: its first
pytest checks that it runs the pure build). The modules are setup.py's NATIVE_MODULES;
tests/run.sh tests them from the wheel (built once a run, installed in a temporary venv)."""

from __future__ import annotations

import pathlib
import runpy
import sys


def main() -> None:
    root = pathlib.Path(__file__).resolve().parent.parent
    if sys.argv[1:] == ["clean"]:
        for so in [*root.glob("*__mypyc*.so"), *root.glob("bot/**/*.so")]:
            so.unlink()
        return
    from setuptools import setup  # noqa: PLC0415 - a dev tool, only when building

    # The wheel's list and options (setup.py), so both builds compile the same thing.
    # Its setup() call runs only as __main__.
    wheel_setup = runpy.run_path(str(root / "setup.py"), run_name="parley_setup")
    mods = sys.argv[1:] or wheel_setup["NATIVE_MODULES"]
    setup(
        name="parley_native",
        packages=[],
        py_modules=[],
        ext_modules=wheel_setup["native_extensions"](mods),
        script_args=["build_ext", "--inplace"],
    )


if __name__ == "__main__":
    main()
