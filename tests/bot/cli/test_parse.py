"""`parley parse` (issue 2: command line)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from bot.cli import main

ROOT = Path(__file__).resolve().parents[3]
START = ROOT / "docs" / "examples" / "start.json"


def test_quick_start_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["parse", "--position", str(START), "A PAR - BUR", "F BRE - MAO"]) == 0
    out = capsys.readouterr()
    assert out.out.splitlines() == ["A PAR - BUR", "F BRE - MAO"]
    assert out.err == ""


def test_json_report_and_exit_1(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["parse", "--json", "--position", str(START), "f gas - spain", "A Bugundy H"])
    assert code == 1
    doc = json.loads(capsys.readouterr().out)
    assert doc == {
        "orders": [{"text": "f gas - spain", "canonical": "F GAS - SPA/NC"}],
        "errors": [
            {
                "text": "A Bugundy H",
                "message": "unknown province 'Bugundy' — did you mean Burgundy?",
            }
        ],
    }


def test_french_nomenclature(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["parse", "--lang", "fr", "--json", "F MAR - TYR", "A TOU - BOU", "F ATL - ESP"])
    assert code == 1
    doc = json.loads(capsys.readouterr().out)
    assert [o["canonical"] for o in doc["orders"]] == ["F NAF - TYS", "A MAR - BUR"]
    assert doc["errors"] == [
        {"text": "F ATL - ESP", "message": "Espagne a deux côtes : écrivez esp/cn ou esp/cs"}
    ]


def test_french_text_output_shows_both_notations(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["parse", "--lang", "fr", "A PAR - BOU"]) == 0
    assert capsys.readouterr().out == "A PAR - BOU\tA PAR - BUR\n"


def test_order_set_on_stdin(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(
        "sys.stdin", io.StringIO("A PAR - BUR; F BRE - MAO\n\nA MAR S A PAR - BUR\n")
    )
    assert main(["parse", "--power", "France"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "A PAR - BUR",
        "F BRE - MAO",
        "A MAR S A PAR - BUR",
    ]


def test_errors_go_to_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["parse", "A PAR"]) == 1
    out = capsys.readouterr()
    assert out.out == ""
    assert "incomplete order 'A PAR'" in out.err


def test_unknown_power_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["parse", "--power", "Prussia", "A PAR H"]) == 2
    assert "unknown power 'Prussia'" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        ("{not json", "is not valid JSON"),
        ('{"phase": "S1901M", "units": {"FRANCE": ["X PAR"]}}', "not a unit"),
        ('{"phase": "S1901M", "units": {"PRUSSIA": ["A PAR"]}}', "unknown power"),
        ('{"phase": "S1901M", "units": {"FRANCE": ["F PAR"]}}', "cannot stand in PAR"),
    ],
)
def test_bad_position_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, fragment: str
) -> None:
    path = tmp_path / "pos.json"
    path.write_text(content, encoding="utf-8")
    assert main(["parse", "--position", str(path), "A PAR H"]) == 2
    err = capsys.readouterr().err
    assert fragment in err
    assert "Traceback" not in err


def test_missing_position_file_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["parse", "--position", str(tmp_path / "none.json"), "A PAR H"]) == 2
    assert "position file not found" in capsys.readouterr().err


def test_retreat_phase_position(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "pos.json"
    path.write_text(
        json.dumps(
            {
                "phase": "F1901R",
                "units": {"GERMANY": ["A PAR"]},
                "dislodged": [
                    {
                        "power": "france",
                        "unit": "A PAR",
                        "attacker_from": "BUR",
                        "retreats": ["PIC"],
                    }
                ],
            }
        ),
        encoding="utf-8",
    )
    assert main(["parse", "--json", "--position", str(path), "Paris - Picardy"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["orders"] == [{"text": "Paris - Picardy", "canonical": "A PAR R PIC"}]


def test_position_from_an_adjudicate_document(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The output of `parley adjudicate` (or its input) gives the position, as for `render`.
    doc = {
        "results": [],
        "dislodged": [],
        "position": {
            "phase": "F1901R",
            "units": {"ITALY": ["A TRI"]},
            "dislodged": [
                {"power": "AUSTRIA", "unit": "A TRI", "attacker_from": "VEN", "retreats": ["ALB"]}
            ],
        },
    }
    path = tmp_path / "out.json"
    path.write_text(json.dumps(doc))
    assert main(["parse", "--position", str(path), "A TRI - ALB"]) == 0
    assert capsys.readouterr().out == "A TRI R ALB\n"


def test_rules_runs_the_presets_submission_checks(capsys: pytest.CaptureFixture[str]) -> None:
    # stabbeurfou 4.D.1-4.D.6: "rejects any set of order with any order extra than that is
    # requested": `--rules stabbeurfou` shows the refusal at entry; datc takes the set.
    args = ["parse", "--position", str(START), "A PAR - BUR", "A RUH - HOL"]
    assert main([*args, "--rules", "stabbeurfou"]) == 1
    err = capsys.readouterr().err
    assert "refused (stabbeurfou): A RUH - HOL: there is no unit in RUH" in err
    assert main([*args, "--rules", "datc"]) == 0
    assert "refused" not in capsys.readouterr().err
    assert main(["parse", "--rules", "stabbeurfou", "A PAR H"]) == 2  # no board to check on
    assert "--rules needs --position" in capsys.readouterr().err


def test_rules_read_a_set_as_a_whole_under_house(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # house-rules III(1) Alternative B: "a presumption being made that each player wishes to
    # submit a complete set of valid orders" (poorly_written_orders = "b").
    path = tmp_path / "pos.json"
    position = {"phase": "S1901M", "units": {"FRANCE": ["F MAO", "F POR"]}}
    path.write_text(json.dumps(position), encoding="utf-8")
    text = "F MAO - SPA\nF POR S F MAO - SPA/NC\n"
    args = ["parse", "--power", "France", "--position", str(path)]
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    assert main([*args, "--rules", "house"]) == 0
    assert capsys.readouterr().out.splitlines() == ["F MAO - SPA/NC", "F POR S F MAO - SPA/NC"]
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    assert main([*args, "--rules", "datc"]) == 1  # each order by itself: two coasts possible
    assert capsys.readouterr().out.splitlines() == ["F POR S F MAO - SPA/NC"]
