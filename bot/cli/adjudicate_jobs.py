"""`parley adjudicate --jsonl --jobs N`: the lines answered by N worker processes (issue 18).

The input is cut into chunks of `CHUNK` lines. This process answers the first `WARM` lines
itself, so that its engine (map, rules, tables built on first use, parse cache) is warm, then
forks the workers: each inherits
that engine as it stands (copy-on-write; its objects frozen out of the collector's walks, so the
pages stay shared). A worker answers one chunk at a time, sent and returned over its own pipe;
the parent hands the next chunk to whichever worker is free and writes the answers in the
input's order. Plain pipes, not `multiprocessing.Pool`: the pool's queue threads cost this
process ~2x the CPU per line (bench figures in the commit). At most `2 * N` chunks are sent or
held, so a corpus of any size streams through in bounded memory. An input of fewer than
`WARM + CHUNK` lines, or a system without fork, is answered in this process.
"""

from __future__ import annotations

import gc
import io
import os
import pickle
import signal
import sys
import traceback
from collections.abc import Iterable, Iterator
from itertools import chain, islice
from multiprocessing.connection import Connection, Pipe, wait
from types import TracebackType
from typing import IO, NoReturn

from bot.cli.adjudicate import Engine, run_jsonl

CHUNK = 250  # lines per task: ~0.1 s of work, so the pipes' cost per line stays small
# Lines answered here before the workers start: enough for the tables built on first use (the
# first line costs ~10 ms, the next ones ~2x a warm line's); few, as the other CPUs wait.
WARM = 50


def default_jobs() -> int:
    """The CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _chunks(lines: Iterable[bytes]) -> Iterator[list[bytes]]:
    it = iter(lines)
    while chunk := list(islice(it, CHUNK)):
        yield chunk


def run_jsonl_jobs(engine: Engine, lines: Iterable[bytes], out: IO[str], *, jobs: int) -> int:
    """`run_jsonl(engine, lines, out)` with `jobs` worker processes, each using `engine` as
    this process left it after the first `WARM` lines; the same output, line for line."""
    if jobs <= 1 or not hasattr(os, "fork"):
        return run_jsonl(engine, lines, out)
    it = iter(lines)
    first = list(islice(it, WARM))
    errors = run_jsonl(engine, first, out)
    chunks = _chunks(it)
    second = next(chunks, []) if len(first) == WARM else []
    if len(second) < CHUNK:
        return errors + run_jsonl(engine, second, out, start=len(first) + 1)
    for stream in (out, sys.stdout, sys.stderr):  # no buffered text is copied into a worker
        stream.flush()
    gc.freeze()  # what the workers inherit is not walked (and so not copied) by their collector
    with _Workers(engine, jobs) as workers:
        return errors + workers.run(chain([second], chunks), out, start=len(first) + 1)


class _Workers:
    """Forked worker processes, each with a pipe to this one."""

    def __init__(self, engine: Engine, jobs: int) -> None:
        self.pids: dict[Connection, int] = {}
        for _ in range(jobs):
            here, there = Pipe()
            pid = os.fork()
            if pid == 0:  # the worker: only its own end of its own pipe stays open
                for conn in (here, *self.pids):
                    conn.close()
                _serve(engine, there)
            there.close()
            self.pids[here] = pid

    def run(self, chunks: Iterator[list[bytes]], out: IO[str], start: int) -> int:
        idle = list(self.pids)
        busy: dict[Connection, int] = {}  # worker -> the number of the chunk it answers
        answered: dict[int, tuple[str, int]] = {}  # by chunk number, until written in order
        sent = written = errors = 0
        more = True
        while True:
            while more and idle and sent < written + 2 * len(self.pids):
                chunk = next(chunks, None)
                if chunk is None:
                    more = False
                    break
                conn = idle.pop()
                conn.send_bytes(pickle.dumps((start, chunk), pickle.HIGHEST_PROTOCOL))
                busy[conn] = sent
                sent += 1
                start += len(chunk)
            if not busy:
                return errors
            for ready in wait(list(busy)):
                assert isinstance(ready, Connection)
                try:  # our own worker's answer: S301's untrusted data is not in this pipe
                    answered[busy.pop(ready)] = pickle.loads(ready.recv_bytes())  # noqa: S301
                except EOFError:
                    raise RuntimeError("a --jobs worker stopped before its answer") from None
                idle.append(ready)
            while written in answered:
                text, bad = answered.pop(written)
                out.write(text)
                errors += bad
                written += 1

    def __enter__(self) -> _Workers:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        for conn, pid in self.pids.items():
            conn.close()  # the worker reads the end of its input and exits
            if kind is not None:  # Ctrl-C or an error: do not wait for a chunk's end
                os.kill(pid, signal.SIGTERM)
        for pid in self.pids.values():
            os.waitpid(pid, 0)


def _serve(engine: Engine, conn: Connection) -> NoReturn:
    """A worker's life: answer each chunk sent until the parent closes the pipe."""
    code = 0
    try:
        while True:
            try:
                start, lines = pickle.loads(conn.recv_bytes())  # noqa: S301 - from the parent
            except EOFError:
                break
            text = io.StringIO()
            errors = run_jsonl(engine, lines, text, start=start)
            conn.send_bytes(pickle.dumps((text.getvalue(), errors), pickle.HIGHEST_PROTOCOL))
    except Exception:  # noqa: BLE001 - shown here; the parent reports the worker stopped
        traceback.print_exc()
        code = 1
    except BaseException:  # noqa: BLE001 - Ctrl-C (the parent has it too), a closed pipe
        code = 1
    finally:
        os._exit(code)  # no cleanup of the parent's state copied into this process
