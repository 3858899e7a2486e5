"""docs/rules.md is generated from data/rules/*.toml and must not drift from it."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from bot.core.rules import CivilDisorder, RuleSet

ROOT = Path(__file__).resolve().parents[2]


def _generator():
    spec = importlib.util.spec_from_file_location("rules_table", ROOT / "tools" / "rules_table.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_committed_rules_md_matches_generator():
    committed = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert committed == _generator().render(), "run: python3 tools/rules_table.py > docs/rules.md"


def test_every_field_has_an_issue_label_and_a_row():
    gen = _generator()
    assert set(gen.ISSUES) == set(RuleSet.option_names())
    text = gen.render()
    for field in RuleSet.option_names():
        assert f"`{field}`" in text


def test_table_shows_the_seed_citation_for_a_choice():
    text = _generator().render()
    assert "house-rules VI(1) Alternative A" in text
    assert "gm-order-correction-rules III(4)" in text


def test_every_civil_disorder_rule_is_explained():
    assert set(_generator().CIVIL_DISORDER) == {c.value for c in CivilDisorder}
