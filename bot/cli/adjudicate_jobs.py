"""`parley adjudicate --jsonl --jobs N`: the lines answered by N worker processes (issue 18).

The input is cut into chunks of `CHUNK` lines. This process answers the first chunk itself, so
that its engine (map, rules, parse cache, memos) is warm, then starts the workers: where the
platform forks, each inherits that engine as it stands (copy-on-write, its objects frozen out of
the collector's walks so that the pages stay shared); elsewhere each builds its own. Workers
answer whole chunks; the answers are written in the input's order. At most `2 * N` chunks are in
flight, so a corpus of any size streams through in bounded memory. An input of fewer than two
full chunks is answered in this process (starting workers would cost more than they save).
"""

from __future__ import annotations

import gc
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


def _init(engine: Engine | None, rules_name: str, map_name: str) -> None:
    """A worker's engine: the parent's, inherited by fork, or (spawned) one of its own."""
    global _worker  # noqa: PLW0603 - one engine per worker process
    _worker = engine if engine is not None else make_engine(rules_name, map_name)


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
    """`run_jsonl(engine, lines, out)` with `jobs` worker processes, each using `engine` as
    this process left it after the first chunk (fork) or `make_engine(rules_name, map_name)`;
    the same output, line for line."""
    if jobs <= 1:
        return run_jsonl(engine, lines, out)
    chunks = _chunks(lines)
    first = next(chunks, [])
    errors = run_jsonl(engine, first, out)
    second = next(chunks, []) if len(first) == CHUNK else []
    if len(second) < CHUNK:
        return errors + run_jsonl(engine, second, out, start=len(first) + 1)
    fork = "fork" in multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if fork else "spawn")
    gc.freeze()  # what the workers inherit is not walked (and so not copied) by their collector
    start = len(first) + 1
    init = (engine if fork else None, rules_name, map_name)
    with context.Pool(jobs, initializer=_init, initargs=init) as pool:
        pending: deque[AsyncResult[tuple[str, int]]] = deque()
        for chunk in chain([second], chunks):
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
