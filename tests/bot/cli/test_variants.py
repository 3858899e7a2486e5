"""`--map` / `--variant` on the command line: Sandard and the test-only variant."""

from __future__ import annotations

import io
import json

from bot.cli import main
from tests.variants import TRI_PATH


def run(capsys, monkeypatch, argv, stdin=""):
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_adjudicate_on_sandard_refuses_turkey(capsys, monkeypatch) -> None:
    doc = {
        "position": {"phase": "S1901M", "units": {"TURKEY": ["A CON"]}, "centers": {}},
        "orders": {},
    }
    code, _, err = run(capsys, monkeypatch, ["adjudicate", "--map", "sandard"], json.dumps(doc))
    assert code == 2
    assert "TURKEY" in err
    code, _, _ = run(capsys, monkeypatch, ["adjudicate"], json.dumps(doc))
    assert code == 0  # the standard map has Turkey


def test_adjudicate_the_test_variant_by_path(capsys, monkeypatch) -> None:
    doc = {
        "position": {
            "phase": "S1901M",
            "units": {"WEST": ["F WES"], "EAST": ["F EAS"]},
            "centers": {"WEST": ["WES"], "EAST": ["EAS"]},
        },
        "orders": {"Ouest": ["F WES - CLD"], "EAST": ["F EAS - CLD"]},
    }
    argv = ["adjudicate", "--map", str(TRI_PATH)]
    code, out, err = run(capsys, monkeypatch, argv, json.dumps(doc))
    assert code == 0, err
    results = json.loads(out)["results"]
    assert {r["power"] for r in results} == {"WEST", "EAST"}
    assert all(r["outcome"] == "fails" for r in results)  # a bounce in the Cold Sea


def test_parse_with_the_test_variants_names(capsys, monkeypatch) -> None:
    argv = ["parse", "--map", str(TRI_PATH), "--power", "nord", "A Highmoor - Norland"]
    code, out, err = run(capsys, monkeypatch, argv)
    assert code == 0, err
    assert out.strip() == "A NHI - NOR"
    code, _, err = run(capsys, monkeypatch, ["parse", "--map", str(TRI_PATH), "--power", "x"])
    assert code == 2
    assert "north, east, west" in err


def test_demo_plays_sandard_with_six_powers(tmp_path, capsys) -> None:
    out = tmp_path / "demo"
    argv = ["demo", "--out", str(out), "--years", "1", "--seed", "3", "--variant", "sandard"]
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "variant sandard, 6 powers" in text
    assert "Turkey" not in text
    first = (out / "01_S1901M.txt").read_text(encoding="utf-8")
    assert "Russia:" in first
    assert "Turkey" not in first


def test_demo_refuses_an_unknown_variant_before_touching_the_folder(tmp_path, capsys) -> None:
    assert main(["demo", "--out", str(tmp_path / "d"), "--variant", "atlantis"]) == 2
    assert "atlantis" in capsys.readouterr().err
    assert not (tmp_path / "d").exists()
