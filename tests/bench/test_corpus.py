"""Real games: the corpus sample in tests/data/ replayed through `parley adjudicate --jsonl`'s
code path (bench/corpus.py compares). Under the `datc` preset every unflagged record matches;
the flagged classes are where a DATC v3.0 engine may rightly differ (shared/games/README.md).
`pytest -m corpus` replays the whole corpus the same way."""

from __future__ import annotations

import gzip
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bench.corpus import FLAG_CLASSES, classify, differences, lines
from bot.cli.adjudicate import make_engine
from tests.shared import CORPUS, full_corpus

# Where godip's history and DATC v3.0 part: civil disorder picks, VIA without convoy orders,
# play after a solo, orders edited upstream.
MAY_DIFFER = {"civil disorder", "VIA", "solo", "orders edited"}


def _replay(path: Path) -> tuple[int, Counter[str], list[str]]:
    engine = make_engine("datc")
    total, by_class, unflagged = 0, Counter[str](), []
    for line in lines(path, None):
        total += 1
        rec: dict[str, Any] = json.loads(line)
        diffs = differences(engine.run_line(line), rec)
        if diffs:
            cls = classify(rec)
            by_class[cls] += 1
            if cls == "unflagged":
                unflagged.append(f"game {rec['game']} i {rec['i']}: {diffs}")
    return total, by_class, unflagged


def test_sample_covers_every_flag_class_and_phase_kind():
    classes: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    with gzip.open(CORPUS, "rt", encoding="utf-8") as fh:
        for line in fh:
            rec = json.loads(line)
            kinds[rec["position"]["phase"][-1]] += 1
            flags = rec.get("flags", [])
            classes.update({c for f in flags for c in FLAG_CLASSES if f.startswith(c)})
            if not flags:
                classes["unflagged"] += 1
    assert set(classes) == {*FLAG_CLASSES, "unflagged"}
    assert classes["unflagged"] >= 4000
    assert set(kinds) == {"M", "R", "A"}


def test_sample_replays_as_recorded_except_where_datc_differs():
    total, by_class, unflagged = _replay(CORPUS)
    assert total == 5352
    assert unflagged == []
    assert set(by_class) <= MAY_DIFFER, by_class


@pytest.mark.corpus
def test_full_corpus_replays_as_recorded_except_where_datc_differs():
    total, by_class, unflagged = _replay(full_corpus())
    assert total == 200_016
    assert unflagged == []
    assert set(by_class) <= MAY_DIFFER, by_class
