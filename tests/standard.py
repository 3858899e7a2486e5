"""The core's functions on the standard map, for the tests' convenience.

Production code passes the map it works on (no hidden default); most tests play on the standard
board, so these wrappers give them `STANDARD` where they leave the map out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.core import adjudicator as _adjudicator
from bot.core import messages as _messages
from bot.core import order_text as _order_text
from bot.core import outcome as _outcome
from bot.core import scoring as _scoring
from bot.core.ending import votes as _votes
from bot.core.language import interpret as _interpret
from bot.core.language import notation as _notation
from bot.core.language import parser as _parser
from bot.core.map import GameMap, load_map
from bot.core.model import Position
from bot.core.orders import Order
from bot.core.rules import DATC, RuleSet
from bot.core.scoring import standings_lines as _standings_lines

STANDARD = load_map("standard")


def adjudicate(
    position: Position,
    orders: Sequence[Order],
    rules: RuleSet = DATC,
    game_map: GameMap | None = None,
) -> Any:
    return _adjudicator.adjudicate(position, orders, rules, game_map or STANDARD)


def interpret(
    position: Position, orders: Sequence[Order], rules: RuleSet = DATC, game_map: Any = None
) -> Any:
    return _interpret.interpret(position, orders, rules, game_map or STANDARD)


def adjudicate_interpreted(
    position: Position, orders: Sequence[Order], rules: RuleSet = DATC, game_map: Any = None
) -> Any:
    return _interpret.adjudicate_interpreted(position, orders, rules, game_map or STANDARD)


def check_submission(
    position: Position, orders: Sequence[Order], rules: RuleSet = DATC, game_map: Any = None
) -> Any:
    return _interpret.check_submission(position, orders, rules, game_map or STANDARD)


def submission_problems(
    position: Position, orders: Sequence[Order], rules: RuleSet = DATC, game_map: Any = None
) -> Any:
    return _interpret.submission_problems(position, orders, rules, game_map or STANDARD)


def parse_order(text: str, *, game_map: GameMap | None = None, **kw: Any) -> Order:
    return _parser.parse_order(text, game_map=game_map or STANDARD, **kw)


def parse_orders(text: str, *, game_map: GameMap | None = None, **kw: Any) -> Any:
    return _parser.parse_orders(text, game_map=game_map or STANDARD, **kw)


def notation_lines(outcome: Any, lang: str = "en", game_map: GameMap | None = None) -> list[str]:
    return _notation.notation_lines(outcome, lang, game_map or STANDARD)


def announce(vote: Any, policy: Any, lang: str = "en", game_map: GameMap | None = None) -> str:
    return _votes.announce(vote, policy, lang, game_map or STANDARD)


def standings_lines(rows: Any, system: str, lang: str = "en", game_map: Any = None) -> list[str]:
    return _standings_lines(rows, system, lang, game_map or STANDARD)


def score(
    system: str,
    centers: Any,
    total_centers: int | None = None,
    *,
    variant: str = "standard",
    game_map: GameMap | None = None,
    **kw: Any,
) -> Any:
    """`bot.core.scoring.score` on the named bundled variant's map (default standard)."""
    return _scoring.score(
        system, centers, total_centers, game_map=game_map or load_map(variant), **kw
    )


def render_order(order: Order, lang: str = "en", game_map: GameMap | None = None) -> str:
    return _parser.render_order(order, lang, game_map or STANDARD)


def render_notation(
    order: Order, lang: str = "en", *, lower: bool = False, game_map: GameMap | None = None
) -> str:
    return _order_text.render(order, lang, lower=lower, game_map=game_map or STANDARD)


def result_line(
    result: Any, outcome: Any = None, lang: str = "en", game_map: GameMap | None = None
) -> str:
    return _notation.result_line(result, outcome, lang, game_map or STANDARD)


def render_message(message: Any, lang: str = "en", game_map: GameMap | None = None) -> str:
    return _messages.render(message, lang, game_map or STANDARD)


def describe(result: Any, lang: str = "en", game_map: GameMap | None = None) -> str:
    return _outcome.describe(result, lang, game_map or STANDARD)
