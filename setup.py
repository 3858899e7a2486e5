"""Only what pyproject.toml cannot say:

- the top-level `data/` folder is shipped as the package `parley_data` (package-dir needs an
  explicit package list, which `find` cannot add to);
- a wheel (`pip install .`, `pip wheel .`, `pipx install .`) carries the batch path compiled
  with mypyc (issue 18: ~1.7x fewer instructions a phase), falling back to the pure-Python
  wheel, with a warning, when it cannot compile (no C compiler or Python headers) or when
  PARLEY_PURE=1. An editable install (`pip install -e .`) is never compiled: a .so beside the
  sources would run instead of the .py a developer edits. `tools/build_native.py` builds the
  same modules in place, opt-in.
"""

from __future__ import annotations

import os
import sys
import warnings

from setuptools import Extension, find_namespace_packages, setup
from setuptools.command.build_ext import build_ext

# The batch path, compiled together: the model's classes pay off only once their callers are
# compiled too (bench/native/README.md). rules.py stays out (its presets read field types).
NATIVE_MODULES = [
    "bot/core/model.py",
    "bot/core/orders.py",
    "bot/core/outcome.py",
    "bot/core/adjudicator/legality.py",
    "bot/core/adjudicator/movement_phase.py",
    "bot/core/adjudicator/movement.py",
    "bot/core/adjudicator/fastpath.py",
    "bot/core/adjudicator/mapindex.py",
    "bot/core/adjudicator/phases.py",
    "bot/core/language/interpret.py",
    "bot/core/language/fastparse.py",
    "bot/core/language/bulk.py",
    "bot/core/language/fastread.py",
    "bot/core/records/jsonio_fast.py",
    "bot/cli/adjudicate_engine.py",
    "bot/cli/adjudicate.py",
    "bot/core/adjudicator/__init__.py",
    "bot/core/adjudicator/retreat.py",
    "bot/core/adjudicator/adjustment.py",
    "bot/core/adjudicator/expedited.py",
    "bot/core/records/jsonio.py",
]


def native_extensions(modules: list[str] = NATIVE_MODULES) -> list[Extension]:
    """mypyc's C for `modules` as setuptools extensions, one shared library (`parley__mypyc`)
    and a small module per source."""
    from mypyc.build import mypycify  # noqa: PLC0415 - only a wheel build needs mypy

    return list(mypycify(modules, opt_level="3", group_name="parley"))


class AllOrNothing(build_ext):
    """Builds every compiled module or none: the 21 shims import one shared library, so a
    half-built set would not import. On a failure the wheel is the pure one (the .py files are
    always in it)."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # noqa: BLE001 - any compiler failure means the pure wheel
            for path in self.get_outputs():
                if os.path.exists(path):
                    os.remove(path)
            self.extensions = []
            self.distribution.ext_modules = []
            warnings.warn(
                f"parley: the compiled batch path could not be built ({exc}); "
                "this wheel is the pure-Python one (same results; ~1.7x the instructions a phase)",
                stacklevel=1,
            )


def _wheel_extensions() -> list[Extension]:
    # setuptools' PEP 517 backend runs this file once per hook; only build_wheel runs
    # bdist_wheel (editable installs run editable_wheel, metadata hooks egg_info/dist_info).
    if "bdist_wheel" not in sys.argv[1:] or os.environ.get("PARLEY_PURE") == "1":
        return []
    try:
        return native_extensions()
    except (Exception, SystemExit) as exc:  # noqa: BLE001 - mypy missing or refusing (it exits)
        warnings.warn(f"parley: not compiling the batch path ({exc})", stacklevel=1)
        return []


if __name__ == "__main__":
    setup(
        packages=[*find_namespace_packages(include=["bot*", "cogs*", "renderer*"]), "parley_data"],
        package_dir={"parley_data": "data"},
        ext_modules=_wheel_extensions(),
        cmdclass={"build_ext": AllOrNothing},
    )
