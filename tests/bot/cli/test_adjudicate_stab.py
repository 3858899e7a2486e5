"""`parley adjudicate --rules stab` (issue 14, "Command line")."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.bot.core.stab.test_report import EXAMPLE_ORDERS, EXAMPLE_UNITS


def _run(doc: dict, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    f = tmp_path / "doc.json"
    f.write_text(json.dumps(doc), encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "bot", "adjudicate", "--rules", "stab", str(f)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip


def test_the_example_with_conditional_retreats(tmp_path: Path) -> None:
    orders = {p: list(o) for p, o in EXAMPLE_ORDERS.items()}
    orders["ENGLAND"] += [
        "F PIC R BEL",
        "F PIC R ENG",
    ]  # "If necessary F(Pic) retreats to Bel, ENG"
    centres = {"FRANCE": ["BRE"], "GERMANY": ["HOL"]}
    doc = {"position": {"phase": "F1902M", "units": EXAMPLE_UNITS, "centers": centres}}
    doc["orders"] = orders
    run = _run(doc, tmp_path)
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert out["reports"]["public"]["ENGLAND"] == ["F PIC S ?; (cut) (dislodged)"]
    france = out["reports"]["private"]["FRANCE"]
    assert france["centres_lost"] == [{"centre": "BRE", "by": "ENGLAND", "unit": "F BRE"}]
    assert france["retreats_caused"] == [{"power": "ENGLAND", "unit": "F PIC", "to": "ENG"}]
    assert "F ENG" in out["position"]["units"]["ENGLAND"]
    assert out["position"]["phase"] == "W1902A"


def test_spring_1901_placement_and_its_errors(tmp_path: Path) -> None:
    doc = {"position": {"phase": "S1901M", "centers": {"ENGLAND": ["EDI", "LON", "LVP"]}},
           "orders": {"ENGLAND": ["A YOR", "A WAL", "F CLY", "A YOR - LVP",
                                  "F CLY - NAO"]}}  # fmt: skip
    run = _run(doc, tmp_path)
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert sorted(out["position"]["units"]["ENGLAND"]) == ["A LVP", "A WAL", "F NAO"]
    assert out["reports"]["public"]["ENGLAND"] == []  # "never published"
    assert out["reports"]["private"]["ENGLAND"]["units"] == ["A LVP", "A WAL", "F NAO"]
    doc["orders"] = {"ENGLAND": ["A YOR", "A WAL", "F CLY", "F LON"]}
    bad = _run(doc, tmp_path)
    assert bad.returncode == 2
    assert "4 units placed" in bad.stderr


def test_winter_totals(tmp_path: Path) -> None:
    doc = {"position": {"phase": "W1901A", "units": {"FRANCE": ["A PAR"]},
                        "centers": {"FRANCE": ["PAR", "BRE", "SPA"]}},
           "orders": {"FRANCE": ["A MAR B"]}}  # fmt: skip
    run = _run(doc, tmp_path)
    assert run.returncode == 0, run.stderr
    reports = json.loads(run.stdout)["reports"]
    assert reports["public"]["centre_totals"]["FRANCE"] == 3
    assert reports["private"]["FRANCE"]["centres"] == ["BRE", "PAR", "SPA"]


def test_a_retreat_phase_takes_its_retreat_orders(tmp_path: Path) -> None:
    # Rule 4's conditional retreats are written with movement orders; in a separate retreat
    # phase ("Separate retreats phases will be allowed") `A SIL R PRU` is the retreat itself.
    doc = {"position": {"phase": "S1901R", "units": {"AUSTRIA": ["A SIL"]},
                        "dislodged": [{"power": "GERMANY", "unit": "A SIL",
                                       "attacker_from": "GAL", "retreats": ["PRU", "BER"]}]},
           "orders": {"GERMANY": ["A SIL R PRU"]}}  # fmt: skip
    run = _run(doc, tmp_path)
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert out["position"]["units"]["GERMANY"] == ["A PRU"]
    assert out["reports"]["public"]["GERMANY"] == []  # where it went is not published
