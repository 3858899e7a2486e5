"""The data the tests read, carried in `tests/data/` (no machine's paths, no sibling folder):

- `datc_v3.0_cases.json`: the DATC v3.0 cases (chapter 6 may be copied freely; see
  tests/data/README.md);
- `droidippy_sample.jsonl.gz`: 5,352 records of the Droidippy corpus covering every flag class
  (made by tools/corpus_sample.py).

Only the opt-in full replay (`pytest -m corpus`) reads the whole corpus, from `PARLEY_SHARED`
or `shared/` beside the repository."""

from __future__ import annotations

import os
from pathlib import Path

_REPO = Path(__file__).resolve().parents[1]
DATA = Path(__file__).resolve().parent / "data"
DATC_CASES = DATA / "datc_v3.0_cases.json"
CORPUS = DATA / "droidippy_sample.jsonl.gz"


def full_corpus() -> Path:
    """The 200,016-record corpus; a clear error if it is not there (the run asked for it)."""
    override = os.environ.get("PARLEY_SHARED")
    root = Path(override) if override else _REPO.parent / "shared"
    path = root / "games" / "droidippy.jsonl.gz"
    if not path.is_file():
        raise FileNotFoundError(f"full corpus not found at {path}; set PARLEY_SHARED")
    return path
