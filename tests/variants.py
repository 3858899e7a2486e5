"""The test-only variant `tests/data/variants/tri.json`: three powers (North, East, West) on ten
provinces, seven centres, with a hand-written geometry beside it."""

from __future__ import annotations

from bot.core.map import GameMap, load_map
from tests.shared import DATA

TRI_PATH = DATA / "variants" / "tri.json"


def tri() -> GameMap:
    return load_map(str(TRI_PATH))
