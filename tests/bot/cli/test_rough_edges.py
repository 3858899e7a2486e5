"""Command-line rough edges: unreadable orders drawn around, unknown keys named, a byte-order
mark, `;` in arguments, BrokenPipe, the output format follows the file name, French scores."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from bot.cli import main
from bot.core.map import load_map
from bot.core.scoring import Standing, standings_lines

EXAMPLES = Path(__file__).resolve().parents[3] / "docs" / "examples"
SPRING = EXAMPLES / "spring1901.json"


def _typo_phase(tmp_path: Path) -> Path:
    doc = json.loads(SPRING.read_text(encoding="utf-8"))
    doc["orders"]["FRANCE"] = ["F Mao - Spa", "A PAR - BUR", "A MAR H"]  # a player's typo
    path = tmp_path / "typo.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def test_render_draws_a_phase_with_an_unreadable_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    phase = _typo_phase(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert main(["adjudicate", str(phase)]) == 0
    (tmp_path / "r.json").write_text(capsys.readouterr().out, encoding="utf-8")
    out = tmp_path / "map.png"
    assert main(["render", str(phase), "--results", "r.json", "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert err.count("not drawn (FRANCE): 'F Mao - Spa'") == 1  # named once, not fatal
    assert out.read_bytes().startswith(b"\x89PNG")


def test_render_refuses_results_of_another_position(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    results = tmp_path / "r.json"
    bad = [{"power": "FRANCE", "order": "A BUR - MUN", "outcome": "succeeds", "reason": ""}]
    results.write_text(json.dumps({"results": bad}), encoding="utf-8")
    out = tmp_path / "map.png"
    assert main(["render", str(SPRING), "--results", str(results), "-o", str(out)]) == 2
    assert "A BUR - MUN" in capsys.readouterr().err
    assert not out.exists()


@pytest.mark.parametrize(("name", "fmt"), [("map.jpg", "JPEG"), ("map.JPEG", "JPEG")])
def test_render_writes_the_format_the_name_asks_for(tmp_path: Path, name: str, fmt: str) -> None:
    out = tmp_path / name
    assert main(["render", str(SPRING), "--width", "400", "-o", str(out)]) == 0
    assert Image.open(io.BytesIO(out.read_bytes())).format == fmt


def test_render_refuses_a_format_it_does_not_write(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "map.gif"
    assert main(["render", str(SPRING), "-o", str(out)]) == 2
    assert ".png or .jpg" in capsys.readouterr().err
    assert not out.exists()


@pytest.mark.parametrize(
    ("argv", "doc", "message"),
    [
        (["adjudicate"], {"position": {"phase": "S1901M"}, "ordres": {}}, "did you mean 'orders'"),
        (["adjudicate"], {"position": {"phase": "S1901M", "unit": {}}, "orders": {}}, "'units'"),
        (
            ["score", "--system", "carnage"],
            {"centers": {"FRANCE": 3}, "total_center": 3},
            "'total_centers'",
        ),
    ],
)
def test_an_unknown_key_is_named_not_ignored(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    doc: dict[str, object],
    message: str,
) -> None:
    path = tmp_path / "in.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert main([*argv, str(path)]) == 2
    err = capsys.readouterr().err
    assert "unknown key" in err
    assert message in err


def test_a_byte_order_mark_is_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + SPRING.read_bytes())
    assert main(["adjudicate", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["results"]


def test_semicolons_in_arguments_read_as_on_standard_input(
    capsys: pytest.CaptureFixture[str],
) -> None:
    start = str(EXAMPLES / "start.json")
    assert main(["parse", "--position", start, "A Par-Bur; F Bre - Mao", "A Mar H"]) == 0
    assert capsys.readouterr().out.split("\n")[:3] == ["A PAR - BUR", "F BRE - MAO", "A MAR H"]


def test_parse_exit_status_is_one_for_an_unreadable_order(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["parse", "A PAR - BUR", "A PAR - XYZ"]) == 1
    assert "XYZ" in capsys.readouterr().err


def test_a_closed_pipe_is_no_traceback() -> None:
    # `parley parse | head -1`: the reader leaves after one line of thousands.
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot", "parse"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdin is not None
    assert proc.stdout is not None
    assert proc.stderr is not None
    proc.stdin.write(b"A PAR - BUR\n" * 20000)
    proc.stdin.close()
    assert proc.stdout.readline() == b"A PAR - BUR\n"
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 141
    assert "Traceback" not in err
    assert "BrokenPipe" not in err


def test_french_standings_have_two_decimals() -> None:
    gm = load_map("standard")
    france = gm.parse_power("france")
    rows = [Standing(1, france, 8, 22.857142)]
    assert "22,86 pts" in standings_lines(rows, "carnage", "fr", gm)[1]
    assert "22.86 pts" in standings_lines(rows, "carnage", "en", gm)[1]
