"""stabbeurfou 4.B.4 at entry: a support naming no coast where two coasts are possible is
refused when the set comes in (not voided at the deadline); with one coast it is accepted."""

from __future__ import annotations

import pytest

from bot.core.language.interpret import submission_problems
from bot.core.language.parser import parse_orders
from bot.core.map import load_map
from bot.core.messages import render
from bot.core.model import Phase, Position, Power, Unit
from bot.core.presets import load_rules

STANDARD = load_map("standard")
FRANCE = Power("FRANCE")
POSITION = Position.build(
    Phase.parse("S1901M"), [Unit.parse(FRANCE, u) for u in ("F MAO", "F POR", "F GAS")]
)


def _problems(text: str, rules: str) -> list[str]:
    parsed = parse_orders(text, power=FRANCE, position=POSITION, game_map=STANDARD)
    assert not parsed.errors
    orders = list(parsed.orders)
    problems = submission_problems(POSITION, orders, load_rules(rules), STANDARD)
    return [render(p, "en", STANDARD) for p in problems]


def test_a_coastless_support_where_two_coasts_are_possible_is_refused_at_entry():
    # stabbeurfou 4.B.4: "«Stabbeurfou» requires to specify coast in supported move when two
    # coasts are possible."
    assert _problems("F MAO - SPA/NC\nF POR S F MAO - SPA", "stabbeurfou") == [
        "F POR S F MAO - SPA: the support must name the coast (SPA)"
    ]


@pytest.mark.parametrize(
    "text",
    [
        "F MAO - SPA/NC\nF POR S F MAO - SPA/NC",  # the coast is named
        "F GAS - SPA\nF MAO S F GAS - SPA",  # GAS reaches one coast: "the system guesses"
    ],
)
def test_a_support_with_its_coast_or_only_one_coast_possible_is_accepted(text):
    assert _problems(text, "stabbeurfou") == []


def test_other_rule_sets_do_not_refuse_it_at_entry():
    assert _problems("F MAO - SPA/NC\nF POR S F MAO - SPA", "datc") == []
