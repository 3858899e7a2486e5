"""Where the project's spec data lives: `shared/` beside the repository (as in CI's clone),
or `PARLEY_SHARED`. Tests that need it fail loudly if it is missing; they are never skipped."""

from __future__ import annotations

import os
from pathlib import Path

_REPO = Path(__file__).resolve().parents[1]


def shared_dir() -> Path:
    override = os.environ.get("PARLEY_SHARED")
    candidates = [Path(override)] if override else []
    candidates += [_REPO.parent / "shared", Path("/work/shared")]
    for c in candidates:
        if (c / "datc").is_dir():
            return c
    raise FileNotFoundError(f"spec data not found; looked in {', '.join(map(str, candidates))}")


SHARED = shared_dir()
DATC_CASES = SHARED / "datc" / "datc_v3.0_cases.json"
CORPUS = SHARED / "games" / "droidippy.jsonl.gz"
