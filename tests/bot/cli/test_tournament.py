"""`parley tournament score` and `parley tournament seat`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main

POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]


def tournament(n: int = 14) -> dict[str, Any]:
    ids = [f"p{i:02d}" for i in range(n)]
    tables = []
    for t in range(n // 7):
        members = ids[t * 7 : t * 7 + 7]
        tables.append(
            {
                "table": f"r1t{t}",
                "scores": {p: float(10 + i) + 0.5 for i, p in enumerate(members)},
                "powers": dict(zip(members, POWERS, strict=True)),
            }
        )
    return {
        "rules": "edc2023",
        "players": [{"id": p, "preregistered": [1]} for p in ids],
        "rounds": [{"round": 1, "tables": tables}],
        "final": None,
        "absences": [],
        "penalties": [{"player": "p00", "points": -5, "reason": "contest"}],
        "withdrawals": [],
        "two_tables": [],
    }


def run(tmp_path: Path, doc: Any, *args: str) -> int:
    f = tmp_path / "t.json"
    f.write_text(json.dumps(doc))
    return main(["tournament", *args, str(f)])


def test_score_prints_truncated_standings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(tmp_path, tournament(), "score") == 0
    rows = json.loads(capsys.readouterr().out)["standings"]
    best = rows[0]
    # 16.5 truncated to 16 ("All scores are truncated after each round"), × 110 % = 17.6 -> 17
    assert best["total"] == 17
    assert best["rank"] == 1
    assert {r["player"] for r in rows if r["rank"] == 1} == {"p06", "p13"}
    assert next(r for r in rows if r["player"] == "p00")["total"] == 11 - 5


def test_seat_proposes_a_round(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = tournament()
    doc["present"] = [p["id"] for p in doc["players"]]
    assert run(tmp_path, doc, "seat", "--seed", "2") == 0
    out = json.loads(capsys.readouterr().out)
    assert out["round"] == 2
    assert len(out["tables"]) == 2
    before = {(p, power) for t in doc["rounds"][0]["tables"] for p, power in t["powers"].items()}
    after = {(s["player"], s["power"]) for t in out["tables"] for s in t["seats"]}
    assert not before & after  # nobody plays the same country twice


def test_bad_input_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(tmp_path, {"rules": "edc2023", "players": "x"}, "score") == 2
    assert "players must be a list" in capsys.readouterr().err
    assert run(tmp_path, tournament(), "seat") == 2
    assert "--present" in capsys.readouterr().err
    f = tmp_path / "bad.json"
    f.write_text("{")
    assert main(["tournament", "score", str(f)]) == 2
    assert "not valid JSON" in capsys.readouterr().err
