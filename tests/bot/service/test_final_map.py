"""issue 16: the map of the phase that ends a game says so in its title, on the real core
and renderer (the service's half, the flag, is in test_flow.py)."""

from __future__ import annotations

import io

from PIL import Image, ImageChops

from bot.core.map import load_map
from bot.service import EventKind, MemoryNotifier
from bot.service.engine import CoreEngine
from renderer import render
from tests.bot.service.conftest import run_until, seven_player_game


async def test_the_final_map_differs_from_a_plain_one_only_in_its_title(opener, clock):
    notes = MemoryNotifier()
    svc = await opener(engine=CoreEngine(), notifier=notes)
    gid = await seven_player_game(svc, clock_overrides={"years": 1})

    async def over() -> bool:
        return (await svc.status(gid)).status == "over"

    await run_until(svc, clock, gid, over)
    last = await svc.results(gid)
    assert last is not None
    assert last.png is not None
    [final] = [e.png for e in notes.events if e.kind is EventKind.RESULTS_READY][-1:]
    assert final == last.png
    game_map = load_map("standard")
    position = await svc.position(gid, last.phase_id)
    plain = render(game_map, None, position, [], last.outcome.results)
    got = Image.open(io.BytesIO(final)).convert("RGB")
    want = Image.open(io.BytesIO(plain)).convert("RGB")
    box = ImageChops.difference(got, want).getbbox()
    assert box is not None  # the title changed
    # ... and nothing else: a longer title widens the legend box in its corner, no more.
    assert box[2] < got.width * 0.4, box
    assert box[3] < got.height * 0.25, box
