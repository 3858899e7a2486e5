"""`parley adjudicate --jsonl --jobs N`: the lines answered by N worker processes (issue 18).

This process answers the first `WARM` lines itself (the tables built on first use), then forks
the workers: each inherits that engine as it stands (copy-on-write; its objects frozen out of
the collector's walks, so the pages stay shared). The rest of the input goes out in tasks of
consecutive lines: `CHUNK` lines of an iterable, or a block of about `BLOCK` bytes cut at a
line's end from a binary stream (the worker splits it: this process does not touch each line).
A worker holds `AHEAD` tasks, so the next one is already in its pipe when it sends an answer;
the last tasks are smaller (`PIECES`), so that the workers end together. This process only
reads, hands out tasks (to the worker holding fewest) and writes the answers in the input's
order; its pipes are non-blocking, so it never waits on one worker while another has an answer.
Plain pipes, not `multiprocessing.Pool`: the pool's queue threads cost this process ~2x the CPU
per line. At most `HELD` tasks per worker are out or held, so a corpus of any size streams
through in bounded memory. An input of fewer than `ALONE` lines, or a system without fork, is
answered in this process.
"""

from __future__ import annotations

import gc
import io
import os
import pickle
import selectors
import signal
import struct
import sys
import traceback
from collections import deque
from collections.abc import Iterable, Iterator
from itertools import chain, islice
from types import TracebackType
from typing import IO, NoReturn

from bot.cli.adjudicate_engine import Engine, run_jsonl

# Lines per task from an iterable (~50 ms of bench work). The workers' caches fill alike with
# 64- and 250-line tasks (corpus, 20,000 records: 4,287 and 4,319 parse plans made twice).
CHUNK = 64
BLOCK = 1 << 17  # bytes per task from a binary stream: ~65 corpus lines
# Lines answered here before forking: the first builds the tables made on first use (~10 ms).
# More would keep the other CPUs waiting (50 were ~60 ms of bench/batch.py's 2,000 phases),
# and each worker still fills its caches with what its own lines need.
WARM = 1
ALONE = 300  # fewer lines: one process (forking and warming the workers cost more)
LOOK = 4  # units read ahead per worker, so that the last ones are known as the last
PIECES = 4  # tasks each of those last units is cut into (16 lines: the workers end together)
AHEAD = 2  # tasks a worker holds: the one it answers and the next one, waiting in its pipe
HELD = 4  # tasks per worker sent and not yet written, at most
_PIPE = 1 << 20  # pipe size asked for (Linux): a task or an answer fits without waiting
_TASK = struct.Struct("<QQ?")  # bytes, first line's number, whether a block (else a pickled list)
_ANSWER = struct.Struct("<QQ")  # bytes of the answers' UTF-8 text, error lines among them


def default_jobs() -> int:
    """The CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def run_jsonl_jobs(engine: Engine, lines: Iterable[bytes], out: IO[str], *, jobs: int) -> int:
    """`run_jsonl(engine, lines, out)` with `jobs` worker processes, each using `engine` as
    this process left it after the first `WARM` lines; the same output, line for line. `lines`
    may be a binary stream (a file opened "rb", standard input's buffer, a gzip file)."""
    if jobs <= 1 or not hasattr(os, "fork"):
        return run_jsonl(engine, lines, out)
    it = iter(lines)
    head = list(islice(it, ALONE))
    if len(head) < ALONE:
        return run_jsonl(engine, head, out)
    errors = run_jsonl(engine, head[:WARM], out)
    rest = lines if isinstance(lines, io.BufferedIOBase) else it
    tasks = _tasks(_units(head[WARM:], rest), jobs)
    for stream in (out, sys.stdout, sys.stderr):  # no buffered text is copied into a worker
        stream.flush()
    gc.freeze()  # what the workers inherit is not walked (and so not copied) by their collector
    with _Workers(engine, jobs) as workers:
        return errors + workers.run(tasks, out, start=WARM + 1)


def _tasks(units: Iterator[list[bytes] | bytes], jobs: int) -> Iterator[tuple[int, bytes, bool]]:
    """The tasks: each one's number of lines, its bytes, and whether it is a block of the
    stream's text (else a pickled list of lines). `LOOK` units per worker are read ahead: at
    the input's end they are cut into `PIECES` each, so that the workers end together."""
    ahead = deque(islice(units, LOOK * jobs))
    for unit in units:
        yield _task(ahead.popleft())
        ahead.append(unit)
    for unit in ahead:
        if isinstance(unit, list):
            step = -(-len(unit) // PIECES)
            for start in range(0, len(unit), step):
                yield _task(unit[start : start + step])
            continue
        start = 0
        for k in range(1, PIECES + 1):
            end = len(unit) if k == PIECES else unit.find(b"\n", len(unit) * k // PIECES) + 1
            if end > start:
                yield _task(unit[start:end])
                start = end


def _task(unit: list[bytes] | bytes) -> tuple[int, bytes, bool]:
    if isinstance(unit, list):
        return len(unit), pickle.dumps(unit, pickle.HIGHEST_PROTOCOL), False
    return unit.count(b"\n") + (not unit.endswith(b"\n")), unit, True


def _units(
    head: list[bytes], rest: Iterator[bytes] | io.BufferedIOBase
) -> Iterator[list[bytes] | bytes]:
    """The input in `CHUNK` lines, or from a binary stream (after `head`) in blocks of about
    `BLOCK` bytes that end at a line's end."""
    if not isinstance(rest, io.BufferedIOBase):
        lines = chain(head, rest)
        while chunk := list(islice(lines, CHUNK)):
            yield chunk
        return
    for start in range(0, len(head), CHUNK):
        yield head[start : start + CHUNK]
    part = b""  # a line begun in the last block read
    while data := rest.read(BLOCK):
        end = data.rfind(b"\n") + 1
        if end == 0:
            part += data
            continue
        yield part + data[:end] if part else data[:end]
        part = data[end:]
    if part:
        yield part


def _split(block: bytes) -> list[bytes]:
    """A block's lines, as iterating over the stream gives them (without their newline)."""
    lines = block.split(b"\n")
    if not lines[-1]:
        lines.pop()
    return lines


class _Worker:
    """A forked worker: its process, the ends of its two pipes here, what is on its way."""

    def __init__(self, pid: int, send: int, recv: int) -> None:
        self.pid = pid
        self.send = send
        self.recv = recv
        self.unsent = bytearray()  # tasks' bytes not yet in its pipe
        self.tasks: deque[int] = deque()  # the numbers of the tasks it holds, in order
        self.inbox = bytearray()  # answers' bytes read, the last one maybe incomplete


class _Workers:
    """Forked worker processes, each with a pipe from this one and a pipe back."""

    def __init__(self, engine: Engine, jobs: int) -> None:
        self.workers: list[_Worker] = []
        for _ in range(jobs):
            task_r, task_w = os.pipe()
            answer_r, answer_w = os.pipe()
            for fd in (task_w, answer_w):
                _widen(fd)
            pid = os.fork()
            if pid == 0:  # the worker: only its own ends of its own pipes stay open
                for fd in (task_w, answer_r, *(x for w in self.workers for x in (w.send, w.recv))):
                    os.close(fd)
                _serve(engine, task_r, answer_w)
            os.close(task_r)
            os.close(answer_w)
            os.set_blocking(task_w, False)
            os.set_blocking(answer_r, False)
            self.workers.append(_Worker(pid, task_w, answer_r))

    def run(self, tasks: Iterator[tuple[int, bytes, bool]], out: IO[str], start: int) -> int:
        workers = self.workers
        selector = selectors.DefaultSelector()
        for w in workers:
            selector.register(w.recv, selectors.EVENT_READ, w)
        answered: dict[int, str] = {}  # by task number, until written in order
        sent = written = errors = 0
        more = True
        try:
            while True:
                while more and sent < written + HELD * len(workers):
                    w = min(workers, key=_held)
                    if len(w.tasks) >= AHEAD:
                        break
                    task = next(tasks, None)
                    if task is None:
                        more = False
                        break
                    lines, data, block = task
                    waiting = bool(w.unsent)  # then its pipe is full: the selector says when not
                    w.unsent += _TASK.pack(len(data), start, block)
                    w.unsent += data
                    w.tasks.append(sent)
                    sent += 1
                    start += lines
                    if not waiting and not _push(w):
                        selector.register(w.send, selectors.EVENT_WRITE, w)
                if written == sent:
                    return errors
                for key, _ in selector.select():
                    w = key.data
                    if key.fd == w.send:
                        if _push(w):
                            selector.unregister(w.send)
                        continue
                    errors += _pull(w, answered)
                while written in answered:
                    out.write(answered.pop(written))
                    written += 1
        finally:
            selector.close()

    def __enter__(self) -> _Workers:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        for w in self.workers:
            os.close(w.send)  # the worker reads the end of its input and exits
            os.close(w.recv)
            if kind is not None:  # Ctrl-C or an error: do not wait for a task's end
                os.kill(w.pid, signal.SIGTERM)
        for w in self.workers:
            os.waitpid(w.pid, 0)


def _held(w: _Worker) -> int:
    return len(w.tasks)


def _widen(fd: int) -> None:
    try:
        import fcntl  # noqa: PLC0415 - not on Windows (where there is no fork either)

        fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, _PIPE)
    except (ImportError, AttributeError, OSError):  # not Linux, or over the user's limit
        pass


def _stopped() -> RuntimeError:
    return RuntimeError("a --jobs worker stopped before its answer")


def _push(w: _Worker) -> bool:
    """Write what the pipe takes of the worker's unsent tasks; whether all are sent."""
    try:
        while w.unsent:
            n = os.write(w.send, w.unsent)
            del w.unsent[:n]
    except BlockingIOError:
        return False
    except BrokenPipeError:
        raise _stopped() from None
    return True


def _pull(w: _Worker, answered: dict[int, str]) -> int:
    """Read what the worker's pipe holds; its whole answers go to `answered`. Returns the
    error lines among them."""
    try:
        data = os.read(w.recv, _PIPE)
    except BlockingIOError:
        return 0
    if not data:
        raise _stopped()
    inbox = w.inbox
    inbox += data
    errors = 0
    while len(inbox) >= _ANSWER.size:
        size, bad = _ANSWER.unpack_from(inbox)
        end = _ANSWER.size + size
        if len(inbox) < end:
            break
        answered[w.tasks.popleft()] = inbox[_ANSWER.size : end].decode()
        del inbox[:end]
        errors += bad
    return errors


def _serve(engine: Engine, task_fd: int, answer_fd: int) -> NoReturn:
    """A worker's life: answer each task sent until the parent closes the pipe."""
    code = 0
    try:
        tasks = open(task_fd, "rb")  # noqa: SIM115 - its read(n) waits for n bytes
        while len(head := tasks.read(_TASK.size)) == _TASK.size:
            size, start, block = _TASK.unpack(head)
            data = tasks.read(size)
            # our own parent's pickle: S301's untrusted data is not in this pipe
            lines = _split(data) if block else pickle.loads(data)  # noqa: S301
            text = io.StringIO()
            errors = run_jsonl(engine, lines, text, start=start)
            answer = text.getvalue().encode()
            _write(answer_fd, _ANSWER.pack(len(answer), errors) + answer)
    except BrokenPipeError:  # the parent is gone (killed): no one to answer or to tell
        code = 1
    except Exception:  # noqa: BLE001 - shown here; the parent reports the worker stopped
        traceback.print_exc()
        code = 1
    except BaseException:  # noqa: BLE001 - Ctrl-C (the parent has it too), a closed pipe
        code = 1
    finally:
        os._exit(code)  # no cleanup of the parent's state copied into this process


def _write(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]
