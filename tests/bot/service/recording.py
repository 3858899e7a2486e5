"""A real core engine whose `render` records what it is asked to draw (the units, the centres'
owners, the orders): the Stab! tests check that nothing hidden is GIVEN to the renderer. With
`draw=True` it also draws (real PNG bytes) for the tests that post the pictures."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.core.map import GameMap
from bot.core.model import Position
from bot.core.orders import Order, UnitOrder
from bot.core.outcome import Outcome
from bot.core.stab.views import Sight
from bot.service.engine import CoreEngine

PNG = b"\x89PNG\r\n\x1a\nrecorded"


@dataclass
class Drawn:
    units: dict[str, str]  # province -> power
    centres: dict[str, str]
    orders: list[str]
    sight: frozenset[str] | None = None  # the units of the Sight the renderer was given


@dataclass
class RecordingEngine(CoreEngine):
    """The real core; `render` records what it is asked to draw instead of drawing it."""

    drawn: list[Drawn] = field(default_factory=list)
    draw: bool = False

    def __eq__(self, other: object) -> bool:
        return other is self

    def __hash__(self) -> int:
        return id(self)

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
    ) -> bytes | None:
        self.drawn.append(
            Drawn(
                {p: u.power.value for p, u in position.units.items()},
                # The centres' owners drawn: the sight's when there is one (the renderer
                # colours those), else the board's.
                {c: o.value for c, o in (sight.centres if sight else position.centers).items()},
                [o.canonical() for o in orders]
                + [r.order.canonical() for r in outcome.results if isinstance(r.order, UnitOrder)],
                None if sight is None else sight.units,
            )
        )
        if self.draw:
            return super().render(
                game_map, position, orders, outcome, lang, palette=palette, sight=sight
            )
        return PNG
