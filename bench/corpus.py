"""Replay the Droidippy corpus through `parley adjudicate --jsonl`'s code path and compare.

    python3 bench/corpus.py [--limit N] [--rules NAME] [--examples K] [FILE]
    python3 bench/corpus.py --replay-only [--jobs N]... [--rounds R] [--limit N] [FILE]

FILE defaults to $PARLEY_SHARED/games/droidippy.jsonl.gz, else ../shared/games/ (a 5,352-record
sample is tests/data/droidippy_sample.jsonl.gz). Each record's line goes to the same
`Engine.run_line` that `parley adjudicate --jsonl` uses (map, rules and parser loaded once), and
the output is compared as games/README.md says: `phase`; `units` and `centers` as sets per power;
the (power, unit) pairs awaiting retreat, then their `attacker_from` and `retreats` sets; for M
records, the top-level `dislodged` against `expected.dislodged`. Mismatches are classified by
the record's flags; the unflagged ones are printed as examples. Prints records per second.
--replay-only: the whole file through `parley adjudicate --jsonl --jobs N`'s own function, given
the gzip stream as the CLI gives its input (with --limit, a gzip stream of the first N records,
made beforehand in memory; the answers written to a null sink): wall and CPU seconds
(this process's and the workers'), records/s, the load average before and after, for --jobs 1
and then one per CPU (at least 2); `--jobs N` (repeatable) chooses; `--rounds R` takes them in
turn R times (a change of load then falls on each). First, one pass that only reads the file
says how much of this process's CPU is the gzip read. Issue 18's target: <= 20 s wall.
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
import os
import sys
import time
from collections import Counter
from collections.abc import Iterator
from itertools import islice
from pathlib import Path
from typing import IO, Any

# Appended: in the README's venv `bot` is this checkout (its editable install); run by the
# python of a venv where Parley is installed (bench/.venv-parley), the installed, compiled one.
sys.path.append(str(Path(__file__).resolve().parents[1]))
import bot
from bot.cli import build_name
from bot.cli.adjudicate import make_engine
from bot.cli.adjudicate_jobs import default_jobs, run_jsonl_jobs

_SHARED = os.environ.get("PARLEY_SHARED") or Path(__file__).resolve().parents[2] / "shared"
DEFAULT = Path(_SHARED) / "games" / "droidippy.jsonl.gz"
FLAG_CLASSES = (
    "civil disorder",
    "solo",
    "VIA",
    "orders edited",
    "ambiguous attacker",
    "order for no unit",
    "target not on board",
    "unit coast differs",
    "unparsed order",
)


def lines(path: Path, limit: int | None) -> Iterator[str]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as fh:
        for n, line in enumerate(fh):
            if limit is not None and n >= limit:
                return
            yield line


def _sets(by_power: dict[str, list[str]] | None) -> dict[str, frozenset[str]]:
    return {p.upper(): frozenset(v) for p, v in (by_power or {}).items() if v}


def _dis(items: list[dict[str, Any]] | None) -> dict[tuple[str, str], tuple[str, frozenset[str]]]:
    return {
        (d["power"].upper(), d["unit"]): (d.get("attacker_from", ""), frozenset(d["retreats"]))
        for d in items or []
    }


def differences(out: dict[str, Any], rec: dict[str, Any]) -> list[str]:
    """What differs between an output document and a record's expectation ([] if nothing)."""
    if "error" in out:
        return [f"error: {out['error']}"]
    got, exp = out["position"], rec["expected"]["position"]
    diffs: list[str] = []
    if got["phase"] != exp["phase"]:
        diffs.append(f"phase {got['phase']} != {exp['phase']}")
    for key in ("units", "centers"):
        g, e = _sets(got.get(key)), _sets(exp.get(key))
        if g != e:
            extra = sorted({f"{p}:{x}" for p, v in g.items() for x in v - e.get(p, frozenset())})
            miss = sorted({f"{p}:{x}" for p, v in e.items() for x in v - g.get(p, frozenset())})
            diffs.append(f"{key} +{extra} -{miss}")
    diffs += _compare_dislodged("awaiting", _dis(got.get("dislodged")), _dis(exp.get("dislodged")))
    if rec["position"]["phase"].endswith("M") and "dislodged" in rec["expected"]:
        diffs += _compare_dislodged(
            "dislodged", _dis(out.get("dislodged")), _dis(rec["expected"]["dislodged"])
        )
    return diffs


def _compare_dislodged(
    what: str,
    got: dict[tuple[str, str], tuple[str, frozenset[str]]],
    exp: dict[tuple[str, str], tuple[str, frozenset[str]]],
) -> list[str]:
    if set(got) != set(exp):
        return [f"{what} units {sorted(got)} != {sorted(exp)}"]
    out = []
    for key, (att, ret) in exp.items():
        g_att, g_ret = got[key]
        if g_att != att:
            out.append(f"{what} {key[1]} attacker_from {g_att} != {att}")
        if g_ret != ret:
            out.append(f"{what} {key[1]} retreats {sorted(g_ret)} != {sorted(ret)}")
    return out


def classify(rec: dict[str, Any]) -> str:
    for flag in rec.get("flags", []):
        for cls in FLAG_CLASSES:
            if flag.startswith(cls):
                return cls
    return "unflagged"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file", nargs="?", type=Path, default=DEFAULT)
    ap.add_argument("--limit", type=int, default=None, help="only the first N records")
    ap.add_argument("--rules", default="datc", help="rule preset (default datc)")
    ap.add_argument("--examples", type=int, default=25, help="unflagged mismatches to print")
    ap.add_argument("--replay-only", action="store_true", help="time the replay, no comparison")
    ap.add_argument(
        "--jobs",
        type=int,
        action="append",
        help="with --replay-only, repeatable (default: 1, then one per CPU)",
    )
    ap.add_argument("--rounds", type=int, default=1, help="with --replay-only: the runs, R times")
    args = ap.parse_args(argv)
    if args.replay_only:
        print(f"parley: {build_name()}, from {Path(bot.__file__).parent.parent}")
        t0 = time.process_time()
        n = sum(1 for _ in byte_lines(args.file, args.limit))
        read = time.process_time() - t0
        print(f"reading {n} records (gzip, lines): {read:.2f} s CPU, {read / n * 1e6:.1f} us each")
        head = None if args.limit is None else b"".join(byte_lines(args.file, args.limit))
        if head is not None and args.file.suffix == ".gz":
            head = gzip.compress(head)
        for _ in range(args.rounds):
            for jobs in args.jobs or sorted({1, max(default_jobs(), 2)}):
                replay(args.file, head, n, args.rules, jobs)
        return 0

    engine = make_engine(args.rules)
    total = 0
    engine_time = 0.0
    mismatches: Counter[str] = Counter()
    by_kind: Counter[str] = Counter()
    fields: Counter[str] = Counter()
    examples: list[str] = []
    start = time.perf_counter()
    for line in lines(args.file, args.limit):
        total += 1
        t0 = time.perf_counter()
        out = engine.run_line(line)
        engine_time += time.perf_counter() - t0
        rec = json.loads(line)
        diffs = differences(out, rec)
        if not diffs:
            continue
        cls = classify(rec)
        mismatches[cls] += 1
        by_kind[f"{cls} / {rec['position']['phase'][-1]}"] += 1
        for d in diffs:
            fields[d.split(" ", 1)[0] if not d.startswith("error") else "error"] += 1
        if cls == "unflagged" and len(examples) < args.examples:
            examples.append(f"game {rec['game']} i {rec['i']} {rec['position']['phase']}: {diffs}")
    wall = time.perf_counter() - start
    bad = sum(mismatches.values())
    print(f"records: {total}   matching: {total - bad}   mismatching: {bad}   rules: {args.rules}")
    for cls, n in mismatches.most_common():
        print(f"  {cls:20s} {n}")
    print("by class / phase kind:", dict(by_kind.most_common()))
    print("differing fields:", dict(fields.most_common()))
    print(
        f"time: {wall:.1f} s wall, {engine_time:.1f} s in Engine.run_line;"
        f" {total / wall:.0f} records/s overall, {total / max(engine_time, 1e-9):.0f} records/s"
        " engine"
    )
    if examples:
        print("unflagged mismatches:")
        for e in examples:
            print("  " + e)
    return 0


class _Null(io.StringIO):
    def write(self, text: str) -> int:
        return len(text)


def byte_lines(path: Path, limit: int | None) -> Iterator[bytes]:
    """The lines as bytes, as `parley adjudicate --jsonl` reads its input."""
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rb") as fh:
        yield from islice(fh, limit)


def replay(path: Path, head: bytes | None, total: int, rules: str, jobs: int) -> None:
    """The file (or `head`, its first records as stored) through `--jsonl --jobs N`'s
    function, as a binary stream: wall and CPU seconds (this process's and its workers'),
    records per second."""
    load = os.getloadavg()[0]
    engine = make_engine(rules)
    raw: IO[bytes] = open(path, "rb") if head is None else io.BytesIO(head)  # noqa: SIM115
    stream: IO[bytes] = gzip.GzipFile(fileobj=raw) if path.suffix == ".gz" else raw
    before = os.times()
    wall = time.perf_counter()
    with raw, stream:
        errors = run_jsonl_jobs(engine, stream, _Null(), jobs=jobs)
    wall = time.perf_counter() - wall
    after = os.times()
    here = after.user + after.system - before.user - before.system
    workers = max(
        0.0,
        after.children_user + after.children_system - before.children_user - before.children_system,
    )
    print(
        f"replayed {total} records with --jobs {jobs}: {wall:.1f} s wall,"
        f" {total / wall:,.0f} records/s; CPU {here + workers:.1f} s ({here:.1f} s here,"
        f" {workers:.1f} s in workers), {(here + workers) / total * 1e6:.0f} us per record;"
        f" load average {load:.1f} before, {os.getloadavg()[0]:.1f} after,"
        f" on {os.cpu_count()} CPUs;"
        f" {errors} error lines (target <= 20 s wall)",
        flush=True,
    )


if __name__ == "__main__":
    sys.exit(main())
