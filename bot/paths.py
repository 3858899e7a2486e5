"""Where Parley's data files live.

`data/` at the top of the source tree is the one place they are edited. A wheel ships that
folder as the package `parley_data` (see setup.py), read through `importlib.resources`. In a
source tree (a clone, an editable install) the `data/` beside the running code is used, so a
checkout never reads another checkout's files. `PARLEY_DATA` points elsewhere, e.g. for tests
that need a broken map file.
"""

from __future__ import annotations

import os
from importlib.resources import files
from pathlib import Path

DATA_PACKAGE = "parley_data"


def data_dir() -> Path:
    override = os.environ.get("PARLEY_DATA")
    if override:
        return Path(override)
    tree = Path(__file__).resolve().parent.parent
    if (tree / "pyproject.toml").is_file() and (tree / "data").is_dir():
        return tree / "data"
    return installed_data_dir()


def installed_data_dir() -> Path:
    """The data shipped inside the installed distribution (`parley_data`)."""
    root = files(DATA_PACKAGE)
    # pip, pipx and container images install wheels unpacked; the loaders want real paths
    # (Path.glob for presets, a file name for the fonts).
    if not isinstance(root, Path):
        raise RuntimeError(f"Parley's data package {DATA_PACKAGE} is not on the file system")
    return root
