"""`parley adjudicate --jsonl --jobs N`: the lines answered by N worker processes (issue 18).

The input is cut into chunks of `CHUNK` lines; each worker builds its own engine (map, rules,
caches) once and answers whole chunks; the answers are written in the input's order. At most
`2 * N` chunks are in flight, so a corpus of any size streams through in bounded memory. An
input shorter than one chunk is answered in this process (starting workers would cost more).
"""

from __future__ import annotations

import io
import multiprocessing
import os
from collections import deque
from collections.abc import Iterable, Iterator
from itertools import chain, islice
from multiprocessing.pool import AsyncResult
from typing import IO

from bot.cli.adjudicate import Engine, make_engine, run_jsonl

CHUNK = 250  # lines per task: ~0.1 s of work, so the pipes' cost per line stays small

_worker: Engine | None = None  # each worker process's engine


def default_jobs() -> int:
    """The CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _init(rules_name: str, map_name: str) -> None:
    global _worker  # noqa: PLW0603 - one engine per worker process, built once
    _worker = make_engine(rules_name, map_name)


def _answer_chunk(task: tuple[int, list[bytes]]) -> tuple[str, int]:
    start, lines = task
    assert _worker is not None
    out = io.StringIO()
    errors = run_jsonl(_worker, lines, out, start=start)
    return out.getvalue(), errors


def _chunks(lines: Iterable[bytes]) -> Iterator[list[bytes]]:
    it = iter(lines)
    while chunk := list(islice(it, CHUNK)):
        yield chunk


def run_jsonl_jobs(
    engine: Engine,
    lines: Iterable[bytes],
    out: IO[str],
    *,
    jobs: int,
    rules_name: str,
    map_name: str,
) -> int:
    """`run_jsonl(engine, lines, out)` with `jobs` worker processes, each making its engine
    with `make_engine(rules_name, map_name)`; the same output, line for line."""
    chunks = _chunks(lines)
    first = next(chunks, [])
    if jobs <= 1 or len(first) < CHUNK:
        return run_jsonl(engine, chain(first, *chunks), out)
    context = multiprocessing.get_context(
        "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    )
    errors = 0
    start = 1
    with context.Pool(jobs, initializer=_init, initargs=(rules_name, map_name)) as pool:
        pending: deque[AsyncResult[tuple[str, int]]] = deque()
        for chunk in chain([first], chunks):
            pending.append(pool.apply_async(_answer_chunk, ((start, chunk),)))
            start += len(chunk)
            if len(pending) >= 2 * jobs:
                errors += _write(pending.popleft(), out)
        while pending:
            errors += _write(pending.popleft(), out)
    return errors


def _write(result: AsyncResult[tuple[str, int]], out: IO[str]) -> int:
    text, errors = result.get()
    out.write(text)
    return errors
