"""Write the Droidippy corpus sample the tests replay (tests/data/droidippy_sample.jsonl.gz).

    python3 tools/corpus_sample.py [FULL_CORPUS]

FULL_CORPUS defaults to $PARLEY_SHARED/games/droidippy.jsonl.gz, else ../shared/games/. The
sample keeps, in file order: the first records (whole early games, for the parser tests), every
record carrying a rare flag, every Nth record of each common flag class, and every Nth unflagged
record (so movement, retreat and adjustment phases of many games). gzip -9 without a name or a
timestamp: the same corpus gives the same bytes.
"""

from __future__ import annotations

import gzip
import io
import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.corpus import FLAG_CLASSES  # noqa: E402 - after the path set-up

OUT = REPO / "tests" / "data" / "droidippy_sample.jsonl.gz"
FIRST = 300  # the parser test reads the first 240
COMMON = {"civil disorder": 25, "solo": 12, "VIA": 4}  # flag class -> keep every Nth
UNFLAGGED = 45


def default_corpus() -> Path:
    shared = os.environ.get("PARLEY_SHARED")
    root = Path(shared) if shared else REPO.parent / "shared"
    return root / "games" / "droidippy.jsonl.gz"


def classes(line: str) -> set[str]:
    import json  # noqa: PLC0415 - only here

    flags = json.loads(line).get("flags", [])
    return {c for f in flags for c in FLAG_CLASSES if f.startswith(c)}


def main(argv: list[str]) -> int:
    src = Path(argv[0]) if argv else default_corpus()
    seen = dict.fromkeys([*FLAG_CLASSES, "unflagged"], 0)
    kept = 0
    buf = io.BytesIO()
    with gzip.open(src, "rt", encoding="utf-8") as fh:
        for n, line in enumerate(fh):
            cls = classes(line)
            keep = n < FIRST or bool(cls - set(COMMON))
            for c in cls or {"unflagged"}:
                every = COMMON.get(c, UNFLAGGED if c == "unflagged" else 1)
                keep = keep or seen[c] % every == 0
                seen[c] += 1
            if keep:
                buf.write(line.encode("utf-8"))
                kept += 1
    with OUT.open("wb") as raw, gzip.GzipFile("", "wb", 9, raw, mtime=0) as gz:
        gz.write(buf.getvalue())
    print(f"{kept} records from {src} -> {OUT} ({OUT.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
