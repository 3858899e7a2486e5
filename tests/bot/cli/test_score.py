"""`parley score`: JSON in, JSON out; bad input is a clear message and exit 2."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from bot.cli import main


def run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_scores_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # edc-2023 C: best second place, 6 behind 7 with 7 survivors = 40; lone leader = 50.
    f = tmp_path / "t.json"
    centers = {"AUSTRIA": 7, "ENGLAND": 6, "FRANCE": 5, "GERMANY": 5, "ITALY": 4, "RUSSIA": 4}
    f.write_text(json.dumps({"centers": {**centers, "TURKEY": 3}, "total_centers": 34}))
    code, out, err = run(capsys, ["score", "--system", "edc2023", str(f)])
    assert code == 0, err
    scores = json.loads(out)["scores"]
    assert scores["AUSTRIA"] == 50.0
    assert scores["ENGLAND"] == 40.0
    assert len(scores) == 7


def test_reads_stdin_and_defaults_total_to_the_variant(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # edc-2023 C: "In the case of Sandard, the victory with 6 survivors ... 46 points".
    doc = {"centers": {"FRANCE": 9, "ENGLAND": 5, "GERMANY": 5, "ITALY": 4, "RUSSIA": 4}}
    doc["centers"]["AUSTRIA"] = 4
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(doc)))
    code, out, _ = run(capsys, ["score", "--system", "edc2023", "--variant", "sandard"])
    assert code == 0
    scores = json.loads(out)["scores"]
    assert scores["FRANCE"] == 46.0
    assert "TURKEY" not in scores


def test_draw_members(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "t.json"
    f.write_text(json.dumps({"centers": {"FRANCE": 12, "ITALY": 11}, "draw": ["france"]}))
    code, out, _ = run(capsys, ["score", "--system", "draw-size", str(f)])
    assert code == 0
    assert json.loads(out)["scores"]["FRANCE"] == 100.0


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "not valid JSON"),
        ('{"centres": {}}', '"centers"'),
        ('{"centers": {"NARNIA": 3}}', "unknown power"),
        ('{"centers": {"FRANCE": "3"}}', "whole number"),
        ('{"centers": {"FRANCE": 30, "ITALY": 10}}', "only 34"),
        ('{"centers": {"FRANCE": 3}, "total_centers": "x"}', "total_centers"),
    ],
)
def test_bad_input_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, message: str
) -> None:
    f = tmp_path / "t.json"
    f.write_text(text)
    code, out, err = run(capsys, ["score", "--system", "edc2023", str(f)])
    assert code == 2
    assert out == ""
    assert message in err
    assert "Traceback" not in err


def test_unknown_system_and_missing_file(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, ["score", "--system", "elo", "/nonexistent.json"])
    assert code == 2
    assert "unknown scoring system" in err
    code, _, err = run(capsys, ["score", "--system", "edc2023", "/nonexistent.json"])
    assert code == 2
    assert "cannot read" in err


def test_unknown_variant_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "t.json"
    f.write_text('{"centers": {"FRANCE": 3}}')
    code, _, err = run(capsys, ["score", "--system", "edc2023", "--variant", "nowhere", str(f)])
    assert code == 2
    assert "map file not found" in err


def test_scores_are_printed_rounded_to_two_decimals(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # draw-size: a three-way draw shares 100 points, 100 / 3 each.
    f = tmp_path / "t.json"
    draw = ["FRANCE", "ITALY", "RUSSIA"]
    f.write_text(json.dumps({"centers": {"FRANCE": 12, "ITALY": 11, "RUSSIA": 11}, "draw": draw}))
    code, out, err = run(capsys, ["score", "--system", "draw-size", str(f)])
    assert code == 0, err
    assert '"FRANCE": 33.33,' in out
    assert "33.333" not in out
    assert json.loads(out)["scores"]["ITALY"] == 33.33


def test_score_reads_years_of_elimination(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Whipping pays an eliminated power 1 point per year played, its last year included.
    doc = {
        "centers": {
            "AUSTRIA": 10,
            "ENGLAND": 8,
            "FRANCE": 6,
            "GERMANY": 4,
            "ITALY": 3,
            "RUSSIA": 3,
        },
        "eliminated": {"TURKEY": 1904},
    }
    f = tmp_path / "t.json"
    f.write_text(json.dumps(doc))
    assert main(["score", "--system", "whipping", str(f)]) == 0
    out = json.loads(capsys.readouterr().out)["scores"]
    assert out["TURKEY"] == 4
    assert out["AUSTRIA"] == 130
    f.write_text(json.dumps({**doc, "eliminated": {"TURKEY": "soon"}}))
    assert main(["score", "--system", "whipping", str(f)]) == 2
    assert "whole number" in capsys.readouterr().err
