"""`parley adjudicate --jsonl --jobs N` (bot/cli/adjudicate_jobs.py, issue 18): the workers'
answers are one process's, byte for byte and in order, from a list of lines or from a binary
stream cut into blocks; this process answers the first lines and the workers start from its
engine as it left it."""

from __future__ import annotations

import gzip
import io
import json
import os
import sys
from collections.abc import Iterable
from itertools import islice
from pathlib import Path
from typing import Any

import pytest

from bench.batch import phases
from bot.cli import main
from bot.cli.adjudicate import make_engine
from bot.cli.adjudicate_engine import Engine, run_jsonl
from bot.cli.adjudicate_jobs import _TASK, ALONE, BLOCK, CHUNK, WARM, _serve, run_jsonl_jobs
from bot.core.map import load_map
from bot.core.presets import load_rules
from tests.shared import CORPUS


def _lines(corpus: int, boards: int) -> list[bytes]:
    with gzip.open(CORPUS, "rb") as fh:
        lines = list(islice(fh, corpus))
    return lines + [line.encode() for line in phases(boards, 28, 18)[0]]


def _jobs(engine: Engine, lines: Iterable[bytes], jobs: int = 2) -> tuple[str, int]:
    out = io.StringIO()
    errors = run_jsonl_jobs(engine, lines, out, jobs=jobs)
    return out.getvalue(), errors


def test_jobs_answer_in_the_input_order_with_the_lines_numbered_as_one_run() -> None:
    lines = _lines(550, 300)
    lines[3] = b"{not json"
    lines[600] = b"\xff\xfe not text"  # its error names line 601, in the third chunk
    lines[650] = b""
    one = io.StringIO()
    errors_one = run_jsonl(make_engine("datc"), lines, one)
    many, errors_many = _jobs(make_engine("datc"), lines)
    assert len(lines) > 3 * CHUNK
    assert errors_one == errors_many == 3
    assert many == one.getvalue()
    answers = many.splitlines()
    assert json.loads(answers[600]) == {"error": "line 601 is not UTF-8 text"}


@pytest.mark.parametrize("last", [b"\n", b""])
def test_a_stream_is_cut_into_blocks_and_answered_as_its_lines(last: bytes) -> None:
    """From a binary stream the workers split blocks of bytes themselves: the lines and their
    numbers are still the stream's lines (empty ones, a line longer than a block, a last line
    without its newline)."""
    lines = [line.rstrip(b"\n") + b"\n" for line in _lines(1200, 100)]
    lines[ALONE + 7] = b"\n"
    lines[700] = b"\xff\xfe not text\n"
    lines[800] = b" " * (BLOCK + 5) + lines[800]  # one line over two blocks
    lines[-1] = lines[-1].rstrip(b"\n") + last
    data = b"".join(lines)
    one = io.StringIO()
    errors_one = run_jsonl(make_engine("datc"), io.BytesIO(data), one)
    many, errors_many = _jobs(make_engine("datc"), io.BytesIO(data))
    assert len(data) > 10 * BLOCK
    assert errors_one == errors_many == 2
    assert many == one.getvalue()
    answers = many.splitlines()
    assert len(answers) == len(lines)
    assert json.loads(answers[700]) == {"error": "line 701 is not UTF-8 text"}
    assert json.loads(answers[ALONE + 7]) == {"error": "empty line"}


class _Counting(Engine):
    """Answers each line with how many lines its engine answered, and in which process."""

    def __init__(self) -> None:
        super().__init__(load_rules("datc"), load_map("standard"))
        self.answered = 0

    def run(self, doc: object) -> dict[str, Any]:
        self.answered += 1
        return {"answered": self.answered, "pid": os.getpid()}


def test_this_process_answers_the_first_lines_and_the_workers_inherit_its_engine() -> None:
    engine = _Counting()
    text, errors = _jobs(engine, [b"{}"] * (ALONE + 4 * CHUNK))
    answers = [json.loads(line) for line in text.splitlines()]
    assert errors == 0
    assert len(answers) == ALONE + 4 * CHUNK
    assert [a["answered"] for a in answers[:WARM]] == list(range(1, WARM + 1))
    assert {a["pid"] for a in answers[:WARM]} == {os.getpid()}
    workers = answers[WARM:]
    assert os.getpid() not in {a["pid"] for a in workers}
    # each worker's count goes on from the parent's: the engine came warm, not built anew
    assert min(a["answered"] for a in workers) == WARM + 1


def _no_fork() -> int:
    raise AssertionError("no worker here")


@pytest.mark.parametrize("n", [WARM, ALONE - 1])
def test_a_short_input_is_answered_without_workers(monkeypatch: pytest.MonkeyPatch, n: int) -> None:
    monkeypatch.setattr(os, "fork", _no_fork)
    text, errors = _jobs(make_engine("datc"), [b"[]"] * n, jobs=4)
    assert errors == n
    assert len(text.splitlines()) == n


def test_without_fork_one_process_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delattr(os, "fork")
    lines = _lines(ALONE + 3 * CHUNK, 0)
    one = io.StringIO()
    run_jsonl(make_engine("datc"), lines, one)
    assert _jobs(make_engine("datc"), lines) == (one.getvalue(), 0)


class _Dying(Engine):
    """Stops its process at its second task (in a worker: this process answers `WARM`)."""

    def __init__(self) -> None:
        super().__init__(load_rules("datc"), load_map("standard"))
        self.answered = 0

    def run(self, doc: object) -> dict[str, Any]:
        self.answered += 1
        if self.answered == WARM + CHUNK + 5:
            os._exit(3)
        return {}


def test_a_worker_that_stops_is_an_error_not_a_hang() -> None:
    with pytest.raises(RuntimeError, match="a --jobs worker stopped before its answer"):
        _jobs(_Dying(), [b"{}"] * (ALONE + 4 * CHUNK))


def test_a_worker_whose_parent_is_gone_stops_without_a_traceback(tmp_path: Path) -> None:
    # The parent killed mid-run (Ctrl-C on a pipeline, the OOM killer): its end of the answers'
    # pipe is closed, so the worker's answer meets a broken pipe. Nothing to tell anyone.
    task_r, task_w = os.pipe()
    answer_r, answer_w = os.pipe()
    os.close(answer_r)
    os.write(task_w, _TASK.pack(3, 1, True) + b"{}\n")
    os.close(task_w)
    err = tmp_path / "stderr"
    engine = make_engine()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the worker; _serve always ends the process
        try:
            sys.stderr = err.open("w", buffering=1)  # line-buffered: os._exit does not flush
            _serve(engine, task_r, answer_w)
        finally:
            os._exit(99)
    os.close(task_r)
    os.close(answer_w)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 1
    assert err.read_text() == ""


def test_negative_jobs_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["adjudicate", "--jsonl", "--jobs", "-1"]) == 2
    assert "--jobs must be 0 (one per CPU) or more" in capsys.readouterr().err
