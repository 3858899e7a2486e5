"""Build a phase from unit and order texts, adjudicate it under the `stab` preset."""

from __future__ import annotations

from bot.core.adjudicator import adjudicate
from bot.core.language.parser import parse_order
from bot.core.map import load_map
from bot.core.model import Phase, Position, Power, Unit
from bot.core.outcome import Outcome
from bot.core.presets import load_rules

MAP = load_map("standard")
RULES = load_rules("stab")


def phase(
    when: str,
    units: dict[str, list[str]],
    orders: dict[str, list[str]],
    centers: dict[str, str] | None = None,
) -> tuple[Position, Outcome]:
    us = [Unit.parse(Power(p), u) for p, ls in units.items() for u in ls]
    owned = {pid: Power(p) for pid, p in (centers or {}).items()}
    pos = Position.build(Phase.parse(when), us, owned)
    parsed = [
        parse_order(t, power=Power(p), position=pos, game_map=MAP)
        for p, ts in orders.items()
        for t in ts
    ]
    return pos, adjudicate(pos, parsed, RULES, MAP)
