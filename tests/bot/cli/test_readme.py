"""The README's quick start and command-line examples name what exists and run as written."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from bot.cli import main

ROOT = Path(__file__).resolve().parents[3]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _section(title: str) -> str:
    return README.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]


def _commands(title: str) -> list[str]:
    blocks = re.findall(r"```sh\n(.*?)```", _section(title), re.DOTALL)
    return [line for block in blocks for line in block.splitlines() if line.strip()]


def _path(word: str, tmp_path: Path) -> str:
    """Repository files from the root; the examples' `/tmp/` outputs in the test's folder."""
    if word.startswith("/tmp/"):
        return str(tmp_path / word.removeprefix("/tmp/"))
    return str(ROOT / word) if (ROOT / word).is_file() else word


def test_command_line_examples_write_nothing_in_the_repository() -> None:
    for line in _commands("Command line"):
        words = shlex.split(line)
        outputs = [w for i, w in enumerate(words) if i and words[i - 1] in (">", "-o")]
        assert all(w.startswith("/tmp/") for w in outputs), line


def test_command_line_examples_run_as_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    commands = _commands("Command line")
    assert len(commands) >= 4
    monkeypatch.chdir(tmp_path)
    # Paths in the examples are relative to the repository root; outputs go to tmp_path.
    for line in commands:
        words = shlex.split(line)
        assert words[0] == "parley", line
        target = None
        if ">" in words:
            words, target = words[: words.index(">")], words[words.index(">") + 1]
        argv = [_path(w, tmp_path) for w in words[1:]]
        code = main(argv)
        out, err = capsys.readouterr()
        assert code == 0, (line, err)
        if target:
            Path(_path(target, tmp_path)).write_text(out, encoding="utf-8")
    assert (tmp_path / "s1901.png").read_bytes().startswith(b"\x89PNG")


def _help(command: str, capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit):
        main([command, "--help"])
    return capsys.readouterr().out


def test_quick_start_options_and_paths_exist(capsys: pytest.CaptureFixture[str]) -> None:
    quick = _section("Quick start (fresh machine, Python ≥ 3.11)")
    demo_options = re.findall(r"`(--[a-z-]+) [A-Z]+`", quick)
    assert demo_options == ["--out", "--years", "--seed"]
    demo_help = _help("demo", capsys)
    for option in demo_options:
        assert option in demo_help, option
    run_help = _help("run", capsys)
    for option in re.findall(r"`(--[a-z-]+)(?: FILE)?`", _section("Discord application")):
        assert option in run_help, option
    for path in ["tests/run.sh", ".ci/run", "docs/formats.md"]:
        assert path in README
        assert (ROOT / path).exists(), path


def test_layout_table_paths_exist() -> None:
    paths = re.findall(r"^\| `([^`]+)`", _section("Layout"), re.MULTILINE)
    assert len(paths) >= 8
    for path in paths:
        assert (ROOT / path).exists(), path
