"""Bad input to every `parley` command: a clear message on stderr, exit 2, nothing written,
never a Python traceback (BRIEF: errors a user can cause)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from bot.cli import main
from bot.core import model

START = Path(__file__).resolve().parents[3] / "docs" / "examples" / "start.json"
NOT_UTF8 = b'\xff\xfe{"phase": "S1901M"}'


class _BinaryStdin(io.TextIOWrapper):
    """A text stdin over bytes, as the real one is: `.buffer` gives the raw bytes."""


def _stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr("sys.stdin", _BinaryStdin(io.BytesIO(data), encoding="utf-8"))


def _fails_cleanly(capsys: pytest.CaptureFixture[str], argv: list[str], *words: str) -> str:
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 2, (out, err)
    assert "Traceback" not in err
    assert err.startswith(f"parley {argv[0]}: "), err
    for word in words:
        assert word in err, err
    return err


@pytest.mark.parametrize(
    "argv",
    [
        ["adjudicate", "{file}"],
        ["render", "{file}", "-o", "{out}"],
        ["render", str(START), "--orders", "{file}", "-o", "{out}"],
        ["score", "--system", "sum-of-squares", "{file}"],
        ["parse", "--position", "{file}", "A PAR H"],
    ],
    ids=["adjudicate", "render", "render-orders", "score", "parse"],
)
def test_a_file_that_is_not_utf8_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    bad = tmp_path / "latin1.json"
    bad.write_bytes(NOT_UTF8)
    out = tmp_path / "out.png"
    argv = [a.format(file=bad, out=out) for a in argv]
    _fails_cleanly(capsys, argv, str(bad), "not UTF-8")
    assert not out.exists()


@pytest.mark.parametrize(
    "argv",
    [["adjudicate"], ["score", "--system", "sum-of-squares"], ["parse"]],
    ids=["adjudicate", "score", "parse"],
)
def test_stdin_that_is_not_utf8_is_a_clear_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    _stdin(monkeypatch, b"A PAR H\n\xe9\xff\n")
    _fails_cleanly(capsys, argv, "standard input", "not UTF-8")


def test_jsonl_line_that_is_not_utf8_is_an_error_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    good = {"position": {"phase": "S1901M", "units": {"FRANCE": ["A PAR"]}}, "orders": {}}
    _stdin(monkeypatch, b"\xff\n" + json.dumps(good).encode() + b"\n")
    assert main(["adjudicate", "--jsonl"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert lines[0] == {"error": "line 1 is not UTF-8 text"}
    assert lines[1]["position"]["units"] == {"FRANCE": ["A PAR"]}


@pytest.mark.parametrize(
    "argv",
    [["adjudicate"], ["score", "--system", "sum-of-squares"]],
    ids=["adjudicate", "score"],
)
def test_empty_stdin_says_it_is_empty(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    _stdin(monkeypatch, b"  \n")
    _fails_cleanly(capsys, argv, "standard input is empty")


def test_adjudicate_given_a_bare_position_says_how_to_wrap_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _fails_cleanly(capsys, ["adjudicate", str(START)], '"position"', '"orders"', "POSITION")


@pytest.mark.parametrize("width", ["0", "-5", "100000"])
def test_render_refuses_an_absurd_width(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], width: str
) -> None:
    out = tmp_path / "x.png"
    _fails_cleanly(capsys, ["render", str(START), "--width", width, "-o", str(out)], "--width")
    assert not out.exists()


def test_render_order_that_is_not_a_string(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    orders = tmp_path / "orders.json"
    orders.write_text(json.dumps({"FRANCE": [5]}))
    out = tmp_path / "x.png"
    argv = ["render", str(START), "--orders", str(orders), "-o", str(out)]
    _fails_cleanly(capsys, argv, "orders.FRANCE", "order strings")


def test_score_power_given_twice(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = tmp_path / "table.json"
    doc.write_text('{"centers": {"FRANCE": 3, "france": 5}}')
    _fails_cleanly(capsys, ["score", "--system", "sum-of-squares", str(doc)], "FRANCE", "twice")


def test_parse_empty_power_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    _fails_cleanly(capsys, ["parse", "--power", "", "A PAR H"], "unknown power")


@pytest.mark.parametrize(
    "argv",
    [
        ["demo", "--out", "{file}"],
        ["demo", "--out", "{file}/sub"],
    ],
    ids=["out-is-a-file", "out-under-a-file"],
)
def test_demo_output_folder_that_cannot_be_made(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    afile = tmp_path / "afile"
    afile.write_text("keep me")
    _fails_cleanly(capsys, [a.format(file=afile) for a in argv], str(afile))
    assert afile.read_text() == "keep me"


def test_demo_unknown_rules_change_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "demo"
    out.mkdir()
    old = out / "01_S1901M.txt"
    old.write_text("an earlier demo")
    _fails_cleanly(capsys, ["demo", "--out", str(out), "--rules", "nope"], "nope", "datc")
    assert old.read_text() == "an earlier demo"


def test_parse_a_huge_line_is_refused_quickly_and_shown_short(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _stdin(monkeypatch, ("A " + "PAR " * 100_000 + "- BUR\nA MAR - SPA\n").encode())
    assert main(["parse"]) == 1
    out, err = capsys.readouterr()
    assert out == "A MAR - SPA\n"
    assert "order too long (400007 characters)" in err
    assert len(err) < 300


def test_parse_at_a_terminal_says_what_it_waits_for(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _stdin(monkeypatch, b"A PAR - BUR\n")
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    assert main(["parse"]) == 0
    out, err = capsys.readouterr()
    assert out == "A PAR - BUR\n"
    assert "one per line, then Ctrl-D" in err


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("parley 0.")
    # The build that runs: this test's (the checkout's) unless compiled in place.
    assert out.endswith("(compiled)\n" if model.NATIVE else "(pure Python)\n")


def test_no_command_prints_the_help_on_stderr_and_exits_2(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main([]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert "usage: parley" in err
    assert "demo" in err
