"""Stab!, the hidden-movement variant (seeds/stab-hidden-movement-variant.txt).

Pure: placement (rule 1, `placement`), the public and private reports of each phase (rules 2,
3, 5 and 6, `report`), conditional retreats (rule 4, `retreats`), what each viewer may see
(`views`). The service calls, per phase, `movement_report` / `retreat_report` /
`adjustment_report`, then `views.sight(game_map, position, orders, results, report, viewer)`
for what a power's, the public's or the GM's map may show, and hands that to the renderer.
"""

from __future__ import annotations

from bot.core.rules import RuleSet

# Issue 33: what this package's modules may import besides each other (tests/test_rooms.py).
MAY_IMPORT = (
    "bot.core.adjudicator",
    "bot.core.catalogue",
    "bot.core.language",
    "bot.core.map",
    "bot.core.messages",
    "bot.core.model",
    "bot.core.order_text",
    "bot.core.orders",
    "bot.core.outcome",
    "bot.core.rules",
)


def hidden_movement(rules: RuleSet) -> bool:
    """Is this game played under Stab!? (the preset's `hidden_movement` key, never its name)."""
    return rules.hidden_movement
