"""Issue 31: a unit destroyed at once by stabbeurfou 3(a) is marked destroyed, not listed as
dislodged with retreat options it will never use (docs/formats.md), nor read "(dislodged)"."""

from __future__ import annotations

import io
import json

from bot.cli import main
from bot.cli.adjudicate_engine import Engine
from bot.core.language.notation import notation_lines
from bot.core.map import load_map
from bot.core.presets import load_rules

# Turkey's last unit, A ARM, dislodged; its only centre (ANK) held by Russia, SMY occupied:
# its one retreat (SYR) is no centre and collides with no one, so 3(a) destroys it.
DOC = {
    "position": {
        "phase": "F1905M",
        "units": {"TURKEY": ["A ARM"], "RUSSIA": ["A SEV", "F BLA", "A ANK", "A SMY"]},
        "centers": {"TURKEY": ["ANK"], "RUSSIA": ["SMY", "CON", "SEV"]},
    },
    "orders": {
        "RUSSIA": ["A SEV - ARM", "F BLA S A SEV - ARM", "A ANK H", "A SMY H"],
        "TURKEY": ["A ARM H"],
    },
}


def _run(capsys, monkeypatch, *args):
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(DOC)))
    assert main(["adjudicate", *args]) == 0
    return json.loads(capsys.readouterr().out)


def test_destroyed_at_once_is_marked_destroyed(capsys, monkeypatch):
    out = _run(capsys, monkeypatch, "--rules", "stabbeurfou")
    (gone,) = out["dislodged"]
    assert gone["unit"] == "A ARM"
    assert gone["retreats"] == []
    assert gone["destroyed"] is True
    assert "TURKEY" not in out["position"]["units"]


def test_without_the_rule_it_may_retreat(capsys, monkeypatch):
    out = _run(capsys, monkeypatch, "--rules", "datc")
    (waiting,) = out["dislodged"]
    assert waiting["retreats"] == ["SYR"]
    assert "destroyed" not in waiting


def test_results_text_says_destroyed():
    engine = Engine(load_rules("stabbeurfou"), load_map("standard"))
    _, outcome, _, _ = engine.adjudicated(DOC)
    lines = notation_lines(outcome, "en", load_map("standard"))
    assert "A ARM H; (destroyed)" in lines
    fr = notation_lines(outcome, "fr", load_map("standard"))
    assert any("(détruit)" in line for line in fr)
