"""`parse_order` for bulk runs (`parley adjudicate --jsonl`, issue 18): the fast path's
`Planner`, and the grammar (`parse_order`) for the texts it does not read, so the result is
`parse_order`'s exactly. Above both: the parser itself reads through the planner."""

from __future__ import annotations

from bot.core.language.fastparse import Planner
from bot.core.language.parser import parse_order
from bot.core.model import Position, Power
from bot.core.orders import Order


class BulkReader(Planner):
    """Each distinct text read once and completed with the board every time; texts the fast
    path does not read go to `parse_order` each time."""

    def parse(self, text: str, *, power: Power | None, position: Position | None) -> Order:
        order = self.fast(text, power, position)
        if order is not None:
            return order
        return parse_order(
            text, lang=self.lang, power=power, position=position, game_map=self.game_map
        )
