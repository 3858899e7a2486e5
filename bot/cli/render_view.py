"""`parley render --view POWER|public|gm` for a hidden-movement game (Stab!).

What a viewer may see depends on the phase's public report (rule 2), so the orders are
adjudicated here, exactly as `parley adjudicate --rules stab` does, and the picture draws the
viewer's `Sight` (bot/core/stab/views.py). The game is hidden-movement when `--rules` names a
preset with `hidden_movement`, or when the --results file is a Stab! output (it has "reports").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.core.map import GameMap
from bot.core.presets import RulesError, load_rules
from bot.core.stab import hidden_movement
from bot.core.stab.views import GM, Sight, Viewer, sight

STAB = "stab"  # the preset a Stab! results file was made with, when --rules is not given


class ViewInputError(ValueError):
    """A file or option the user can fix."""


def hidden_rules(rules_name: str | None, results_doc: object) -> str | None:
    """The hidden-movement preset to adjudicate with, or None for an ordinary game."""
    if rules_name is not None:
        try:
            rules = load_rules(rules_name)
        except RulesError as exc:
            raise ViewInputError(str(exc)) from None
        return rules_name if hidden_movement(rules) else None
    if isinstance(results_doc, Mapping) and "reports" in results_doc:
        return STAB
    return None


def stab_sight(
    rules_name: str, game_map: GameMap, doc: object, orders_doc: object, viewer: Viewer | None
) -> tuple[Any, Sight]:
    """(the StabPhase, the viewer's sight); `doc` is the render input (an adjudicate document
    or a bare POSITION), `orders_doc` the --orders file if any. No viewer: the GM's."""
    from bot.cli.adjudicate_engine import InputError  # noqa: PLC0415
    from bot.cli.stab import StabEngine  # noqa: PLC0415

    if isinstance(doc, Mapping) and "position" in doc and "phase" not in doc:
        adj: dict[str, Any] = dict(doc)
    else:
        adj = {"position": doc}
    if orders_doc is not None:
        if isinstance(orders_doc, Mapping) and isinstance(orders_doc.get("orders"), Mapping):
            orders_doc = orders_doc["orders"]
        adj["orders"] = orders_doc
    adj.setdefault("orders", {})
    engine = StabEngine(load_rules(rules_name), game_map)
    try:
        phase = engine.phase(adj)
    except InputError as exc:
        raise ViewInputError(str(exc)) from None
    # The results' own orders: those the engine read and ruled on, not its default holds.
    seen = sight(game_map, phase.position, None, phase.outcome.results, phase.report, viewer or GM)
    return phase, seen
