"""Where Parley's data files live.

`data/` sits beside the `bot` package in the source tree (installed editable);
`PARLEY_DATA` points elsewhere, e.g. for tests that need a broken map file.
"""

from __future__ import annotations

import os
from pathlib import Path


def data_dir() -> Path:
    override = os.environ.get("PARLEY_DATA")
    if override:
        return Path(override)
    return Path(__file__).resolve().parent.parent / "data"
