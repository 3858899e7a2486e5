"""The seam between the service and the game core: parse, check, adjudicate, render.

`CoreEngine` calls the real core (`bot.core.language.parser`, `bot.core.language.interpret` + the
adjudicator, `bot.core.presets`, `renderer`); a test or a bench can pass any object with the same
methods.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from bot.core import presets
from bot.core.language import interpret
from bot.core.language.parser import parse_orders, render_order
from bot.core.map import GameMap, MapError, bundled_maps, load_map
from bot.core.messages import render as render_message
from bot.core.model import Position, Power
from bot.core.orders import Order
from bot.core.outcome import Outcome
from bot.core.rules import RuleSet
from bot.core.stab.views import Sight
from bot.service.errors import ConfigError
from renderer import render


@dataclass(frozen=True, slots=True)
class Parsed:
    orders: list[Order] = field(default_factory=list)
    errors: list[tuple[str, str]] = field(default_factory=list)  # (text, reason)


class Engine(Protocol):
    def load_map(self, name: str) -> GameMap: ...

    def load_rules(self, name: str) -> RuleSet: ...

    def parse(
        self,
        text: str,
        *,
        lang: str,
        power: Power,
        position: Position,
        game_map: GameMap,
        as_set: bool = False,
    ) -> Parsed: ...

    def check(
        self,
        position: Position,
        orders: list[Order],
        rules: RuleSet,
        game_map: GameMap,
        lang: str = "en",
    ) -> list[str]: ...

    def render_order(self, order: Order, lang: str, game_map: GameMap) -> str: ...

    def adjudicate(
        self, position: Position, orders: list[Order], rules: RuleSet, game_map: GameMap
    ) -> Outcome: ...

    def render(
        self,
        game_map: GameMap,
        position: Position,
        orders: list[Order],
        outcome: Outcome,
        lang: str,
        *,
        palette: str = "default",
        sight: Sight | None = None,
        game_over: bool = False,
    ) -> bytes | None: ...


def bundled_variants() -> tuple[str, ...]:
    """The variants shipped in `data/maps/`; ConfigError if there are none (a broken install)."""
    try:
        names = bundled_maps()
    except OSError as exc:
        raise ConfigError(f"map folder: {exc}") from None
    if not names:
        raise ConfigError("no map in the map folder")
    return names


class CoreEngine:
    """The real game core and renderer. Stateless: every instance is equal (so caches keyed
    on the engine survive pickling into a worker process)."""

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self)

    def __hash__(self) -> int:
        return hash(type(self).__qualname__)

    def load_map(self, name: str) -> GameMap:
        try:
            return load_map(name)
        except MapError as exc:
            raise ConfigError(f"map {name!r}: {exc}") from None

    def load_rules(self, name: str) -> RuleSet:
        try:
            rules: RuleSet = presets.load_rules(name)
        except (OSError, ValueError, KeyError, LookupError) as exc:
            raise ConfigError(f"rule set {name!r}: {exc}") from None
        return rules

    def parse(
        self,
        text: str,
        *,
        lang: str,
        power: Power,
        position: Position,
        game_map: GameMap,
        as_set: bool = False,
    ) -> Parsed:
        res = parse_orders(
            text, lang=lang, power=power, position=position, game_map=game_map, as_set=as_set
        )
        return Parsed(
            list(res.orders),
            [(str(getattr(e, "text", "")), str(getattr(e, "message", e))) for e in res.errors],
        )

    def check(
        self,
        position: Position,
        orders: list[Order],
        rules: RuleSet,
        game_map: GameMap,
        lang: str = "en",
    ) -> list[str]:
        """The rule set's refusals of this set (Stabbeurfou), in the game's language."""
        problems = interpret.submission_problems(position, orders, rules, game_map)
        return [render_message(p, lang, game_map) for p in problems]

    def render_order(self, order: Order, lang: str, game_map: GameMap) -> str:
        return render_order(order, lang, game_map)

    def adjudicate(
        self, position: Position, orders: list[Order], rules: RuleSet, game_map: GameMap
    ) -> Outcome:
        # The rule set's order-set policies (duplicates, inferred orders, build reading
        # direction) apply before adjudication, as for `parley adjudicate`.
        outcome, _decisions = interpret.adjudicate_interpreted(position, orders, rules, game_map)
        return outcome

    def render(
        self,
        game_map: GameMap,
        position: Position,
        orders: list[Order],
        outcome: Outcome,
        lang: str,
        *,
        palette: str = "default",
        sight: Sight | None = None,
        game_over: bool = False,
    ) -> bytes | None:
        # geometry None: the renderer's shared per-map instance (static layers drawn once).
        # `sight`: all a Stab! viewer may see (bot.core.stab.views; bot.service.hidden.stab).
        return render(
            game_map,
            None,
            position,
            orders,
            outcome.results,
            lang=lang,
            palette=palette,
            sight=sight,
            game_over=game_over,
        )
