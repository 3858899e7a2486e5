"""DATC 4.D.8, the 2023 rule for removals in civil disorder."""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module

from bot.core.adjudicator.mapindex import distances, map_index
from bot.core.map import GameMap
from bot.core.model import Position, Power, Unit, UnitType
from bot.core.rules import CivilDisorder, RuleSet

RemovalRule = Callable[[Position, Power, int, GameMap], list[Unit]]


def removals_2023(position: Position, power: Power, count: int, game_map: GameMap) -> list[Unit]:
    """The `count` units to remove: farthest (in moves, armies and fleets alike crossing land
    and sea) from the nearest centre the power owns; ties: fleets first, then by the English
    province name (DATC 6.J.3-6.J.11)."""
    idx = map_index(game_map)
    dist = distances(idx, position.centers_of(power))
    far = len(idx.name_en) + 1  # no owned centre: every unit is as far as can be
    units = position.units_of(power)
    units.sort(
        key=lambda u: (
            -dist.get(u.province, far),
            0 if u.type is UnitType.FLEET else 1,
            idx.name_en[u.province],
        )
    )
    return units[: max(count, 0)]


def civil_disorder_rule(rules: RuleSet) -> RemovalRule:
    """The removal rule of `rules.civil_disorder`: the 2023 rule here, the others from
    `bot.core.adjudicator.civil_disorder`."""
    if rules.civil_disorder is CivilDisorder.RULE_2023:
        return removals_2023
    try:
        module = import_module("bot.core.adjudicator.civil_disorder")
    except ImportError:
        raise NotImplementedError(
            f"civil-disorder rule {rules.civil_disorder.value!r} needs"
            " bot.core.adjudicator.civil_disorder, which is not there yet"
        ) from None
    rule: RemovalRule = module.removal_rule(rules.civil_disorder)
    return rule
