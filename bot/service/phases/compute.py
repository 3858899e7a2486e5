"""One phase computed: adjudicated, drawn, the phases with nothing to do skipped, all as
JSON-able values. Pure, so it runs in a thread or in a worker process (workers.py); the
phase machine (phase_machine.py) commits and announces what it returns."""

from __future__ import annotations

import json
import time
from typing import Any

from bot.core.map import GameMap
from bot.core.model import Position, Power
from bot.core.orders import Order
from bot.core.outcome import Outcome
from bot.core.records.jsonio import position_from_json, position_to_json
from bot.core.writing.advice import nothing_to_do
from bot.service.engine import Engine
from bot.service.hidden import stab as hidden
from bot.service.storage import codec
from bot.service.table import cached_rules, centre_counts, dumps, result_lines


def compute_phase(  # noqa: PLR0917 - internal helper
    engine: Engine,
    map_name: str,
    rules_name: str,
    position_doc: dict[str, Any] | str,
    orders_doc: list[dict[str, Any]],
    lang: str,
    render: bool = True,
    palette: str = "default",
    hidden_mode: str = "",
    preferences: dict[str, list[str]] | None = None,
) -> dict[str, Any]:
    """Adjudicate (and render) one phase, then skip phases with nothing to do.

    Pure function of JSON-able arguments, so it can run in a thread or another process. What
    the commit stores and announces comes back ready (JSON text, the result lines, the
    centres): the event loop, which every game shares, neither encodes nor decodes them.
    """
    t0 = time.perf_counter()
    game_map = engine.load_map(map_name)
    rules = cached_rules(engine, rules_name)
    if isinstance(position_doc, str):
        position_doc = json.loads(position_doc)
    position = position_from_json(position_doc)
    orders = codec.orders_from_json(orders_doc)
    skipped: list[Outcome] = []
    if hidden_mode:  # Stab!: placement, conditional retreats, the public map (hidden.py)
        played, png, map_error, drawing = hidden.compute(
            engine,
            game_map,
            rules,
            position,
            orders,
            hidden_mode,
            lang,
            render,
            palette,
            {Power(p): v for p, v in (preferences or {}).items()},
        )
        outcome = played.outcome
        nxt = outcome.position
        if played.settled is not None:  # rule 4: the retreats settled with the moves
            skipped.append(played.settled)
            nxt = played.settled.position
        t2 = time.perf_counter()
        t1 = t2 - drawing
    else:
        outcome = engine.adjudicate(position, orders, rules, game_map)
        t1 = time.perf_counter()
        png, map_error = _draw(engine, game_map, position, orders, outcome, lang, render, palette)
        t2 = time.perf_counter()
        nxt = outcome.position
    while nothing_to_do(nxt, game_map) and len(skipped) < 5:
        extra = engine.adjudicate(nxt, [], rules, game_map)
        skipped.append(extra)
        nxt = extra.position
    # Each skipped phase starts from the position before it.
    starts = [outcome.position, *(s.position for s in skipped)]
    return {
        "outcome_json": dumps(codec.outcome_to_json(outcome)),
        "skipped": [
            (str(s.phase), dumps(codec.outcome_to_json(s)), dumps(position_to_json(start)))
            for s, start in zip(skipped, starts, strict=False)
        ],
        "next_phase": str(nxt.phase),
        "next_json": dumps(position_to_json(nxt)),
        "centers": centre_counts(nxt),
        # Stab!: nothing of the board in the event; each viewer's report is made at delivery.
        "lines": [] if hidden_mode else result_lines(engine, game_map, lang, outcome),
        "png": png,
        "map_error": map_error,
        "adjudicate_seconds": t1 - t0,
        "render_seconds": t2 - t1,
    }


def _draw(  # noqa: PLR0917 - internal helper
    engine: Engine,
    game_map: GameMap,
    position: Position,
    orders: list[Order],
    outcome: Outcome,
    lang: str,
    render: bool,
    palette: str,
) -> tuple[bytes | None, str]:
    png = None
    map_error = ""
    if render:
        # A map that cannot be drawn must never hold back the results.
        try:
            png = engine.render(game_map, position, orders, outcome, lang, palette=palette)
        except Exception as exc:  # noqa: BLE001 - any renderer failure
            map_error = f"{type(exc).__name__}: {exc}"
    return png, map_error


def render_final_map(  # noqa: PLR0917 - the JSON-able inputs of one picture
    engine: Engine,
    map_name: str,
    position_doc: dict[str, Any] | str,
    orders_doc: list[dict[str, Any]],
    outcome_json: str,
    lang: str,
    palette: str,
) -> bytes | None:
    """The map of a game's last phase, its title saying the game is over (issue 16). Pure,
    like `compute_phase`: runs in a thread or another process."""
    return engine.render(
        engine.load_map(map_name),
        position_from_json(
            json.loads(position_doc) if isinstance(position_doc, str) else position_doc
        ),
        codec.orders_from_json(orders_doc),
        codec.outcome_from_json(json.loads(outcome_json)),
        lang,
        palette=palette,
        game_over=True,
    )
