"""Small builders for the adjudicator's unit tests (orders go through the parser)."""

from __future__ import annotations

from bot.core.map import load_map
from bot.core.model import Phase, Position, Power, Unit
from bot.core.orders import Order
from bot.core.outcome import OrderResult, Outcome
from bot.core.rules import DATC, RuleSet
from tests.standard import adjudicate, parse_order

GM = load_map("standard")


def board(
    phase: str, units: dict[Power, list[str]], centers: dict[Power, list[str]] | None = None
) -> Position:
    us = [Unit.parse(p, u) for p, texts in units.items() for u in texts]
    cs = {c: p for p, cc in (centers or {}).items() for c in cc}
    return Position.build(Phase.parse(phase), us, cs)


def orders(position: Position, by_power: dict[Power, list[str]]) -> list[Order]:
    return [
        parse_order(t, power=p, position=position, game_map=GM)
        for p, texts in by_power.items()
        for t in texts
    ]


def run(position: Position, by_power: dict[Power, list[str]], rules: RuleSet = DATC) -> Outcome:
    return adjudicate(position, orders(position, by_power), rules, GM)


def result(outcome: Outcome, canonical: str) -> OrderResult:
    found = [r for r in outcome.results if r.order.canonical() == canonical]
    assert len(found) == 1, f"{canonical}: {[str(r.order) for r in outcome.results]}"
    return found[0]


def units_of(position: Position) -> set[str]:
    return {f"{u.power.value[:3]} {u}" for u in position.units.values()}
