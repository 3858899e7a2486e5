"""`parley render`: files in, PNG out, readable errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image

from bot.cli import main

START = Path(__file__).resolve().parents[2] / "docs" / "examples" / "start.json"


def test_render_with_orders_and_adjudicate_results(tmp_path: Path) -> None:
    orders = tmp_path / "orders.json"
    orders.write_text(json.dumps({"FRANCE": ["A PAR - BUR"], "GERMANY": ["A MUN - BUR"]}))
    results = tmp_path / "results.json"
    results.write_text(
        json.dumps(
            {
                "results": [
                    {
                        "power": "FRANCE",
                        "order": "A PAR - BUR",
                        "outcome": "fails",
                        "reason": "bounced",
                    },
                    {
                        "power": "GERMANY",
                        "order": "A MUN - BUR",
                        "outcome": "fails",
                        "reason": "bounced",
                    },
                    {
                        "power": "ITALY",
                        "order": "A ROM H",
                        "outcome": "succeeds",
                        "reason": "",
                        "implied": True,
                    },
                ]
            }
        )
    )
    out = tmp_path / "map.png"
    argv = [
        "render",
        str(START),
        "--orders",
        str(orders),
        "--results",
        str(results),
        "-o",
        str(out),
    ]
    assert main(argv) == 0
    assert Image.open(out).size[0] == 1600
    # A results list alone is accepted too, and draws its orders.
    lone = tmp_path / "lone.json"
    lone.write_text(json.dumps(json.loads(results.read_text())["results"]))
    out2 = tmp_path / "map2.png"
    assert (
        main(["render", str(START), "--results", str(lone), "--lang", "fr", "-o", str(out2)]) == 0
    )
    assert out2.read_bytes() != out.read_bytes()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"NARNIA": ["A PAR H"]}', "NARNIA"),
        ("not json", "not valid JSON"),
    ],
)
def test_bad_orders_file_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, message: str
) -> None:
    orders = tmp_path / "orders.json"
    orders.write_text(content)
    out = tmp_path / "map.png"
    assert main(["render", str(START), "--orders", str(orders), "-o", str(out)]) == 2
    assert message in capsys.readouterr().err
    assert not out.exists()


def test_missing_position_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["render", str(tmp_path / "none.json"), "-o", str(tmp_path / "x.png")]) == 2
    assert "cannot read" in capsys.readouterr().err
