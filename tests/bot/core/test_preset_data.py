"""Presets are wholly data: a renamed copy of every preset behaves as the original."""

from __future__ import annotations

import shutil
from dataclasses import replace

import pytest

from bot.core import presets
from bot.core.adjudicator import adjudicate
from bot.core.ending.endgame import end_rules_for
from bot.core.ending.votes import policy_for_rules
from bot.core.language.parser import parse_order
from bot.core.map import load_map
from bot.core.model import Phase, Position, Power, Unit
from bot.core.presets import list_presets, load_rules
from bot.core.rules import RuleSet
from bot.core.writing.submission import accepts_orders, combine_mode
from bot.service.games.settings import scoring_system

STD = load_map("standard")


@pytest.fixture
def club(tmp_path, monkeypatch):
    """The presets directory with a renamed copy `club-<name>` of every preset."""
    for name in list_presets():
        shutil.copy(presets.rules_dir() / f"{name}.toml", tmp_path / f"{name}.toml")
        shutil.copy(presets.rules_dir() / f"{name}.toml", tmp_path / f"club-{name}.toml")
    monkeypatch.setattr(presets, "rules_dir", lambda: tmp_path)
    load_rules.cache_clear()
    yield
    load_rules.cache_clear()


@pytest.mark.parametrize("name", list_presets())
def test_renamed_copy_behaves_identically(club, name):
    # The issue: "`cp data/rules/house.toml club.toml` silently loses house voting, draw
    # offers and the stalemate rule".
    orig, copy = load_rules(name), load_rules(f"club-{name}")
    assert replace(copy, name=name) == orig
    assert replace(policy_for_rules(copy), name=name) == policy_for_rules(orig)
    assert replace(end_rules_for(copy, years=None), name=name) == end_rules_for(orig)
    assert scoring_system(f"club-{name}") == scoring_system(name)
    for merge in (False, True):
        assert combine_mode(copy, merge_requested=merge) is combine_mode(
            orig, merge_requested=merge
        )
    late = {"status": "open", "now": 2.0, "deadline": 1.0, "paused_at": None}
    assert accepts_orders(copy, **late) == accepts_orders(orig, **late)
    # An adjudication (a Fall with a power that owns no centre, a first-year Winter).
    fall = Position.build(
        Phase.parse("F1901M"),
        [Unit.parse(Power.RUSSIA, "A ANK"), Unit.parse(Power.TURKEY, "F BLA")],
        {"ANK": Power.RUSSIA},
    )
    order = parse_order("A ANK H", power=Power.RUSSIA, position=fall, game_map=STD)
    assert adjudicate(fall, [order], copy, STD) == adjudicate(fall, [order], orig, STD)


def test_house_copy_keeps_voting_draw_offers_and_scoring(club):
    h = load_rules("club-house")
    assert policy_for_rules(h).abstentions  # house IX(1)-(2)
    assert end_rules_for(h).draw_offer_years == 2  # house IX(2) Alternative A
    assert scoring_system("club-house") == "draw-size"


def test_every_option_is_a_preset_key():
    # Each option is written in every preset (presets.py refuses a missing one), flat or in a
    # table; none is chosen by a preset's name.
    names = RuleSet.option_names()
    for key in ("votes.abstentions", "end.years", "scoring.system"):
        assert key in names
    for removed in ("convoy_path_allowed", "order_sets_unknown_order", "perpetual_orders"):
        assert removed not in names
