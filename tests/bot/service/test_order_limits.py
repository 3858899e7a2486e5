"""An order set is capped (100 orders, 20,000 characters) and read off the event loop."""

from __future__ import annotations

import asyncio
import itertools
import time

import pytest

from bot.core.map import GameMap
from bot.core.model import Position, Power
from bot.service import ServiceError
from bot.service.engine import Parsed
from tests.bot.service.conftest import SimpleEngine, seven_player_game

READ_SECONDS = 0.4


class SlowReadingEngine(SimpleEngine):
    """Reads like SimpleEngine, holding the CPU as a huge set would (time.sleep stands for
    CPU-bound parsing: it blocks whatever thread runs it)."""

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
        time.sleep(READ_SECONDS)
        return super().parse(
            text, lang=lang, power=power, position=position, game_map=game_map, as_set=as_set
        )


@pytest.mark.parametrize(
    ("lang", "start"),
    [
        ("en", "Not saved: at most 100 orders in one message (this one has 101)"),
        ("fr", "Non enregistré : 100 ordres au plus par message (celui-ci en a 101)"),
    ],
)
async def test_more_than_100_orders_are_refused_and_change_nothing(opener, lang, start):
    svc = await opener()
    gid = await seven_player_game(svc, lang=lang)
    await svc.submit(gid, "user-france", "A PAR - BUR")
    with pytest.raises(ServiceError) as caught:
        await svc.submit(gid, "user-france", "\n".join(["A MAR H"] * 101))
    assert caught.value.message.startswith(start)
    assert (await svc.my_orders(gid, "user-france")).orders == ["A PAR - BUR"]
    with pytest.raises(ServiceError):  # the GM's transcription too
        await svc.submit_for(gid, "gm", Power.FRANCE, ";".join(["A MAR H"] * 101))
    assert (await svc.my_orders(gid, "user-france")).orders == ["A PAR - BUR"]


async def test_a_10_mb_message_is_refused_before_reading(opener):
    svc = await opener(engine=SlowReadingEngine())
    gid = await seven_player_game(svc)
    t0 = time.perf_counter()
    with pytest.raises(ServiceError) as caught:
        await svc.submit(gid, "user-france", "A PAR H " * 1_310_720)
    assert time.perf_counter() - t0 < READ_SECONDS  # never handed to the parser
    assert "at most 20000 characters" in caught.value.message
    assert (await svc.my_orders(gid, "user-france")).orders == []


async def _longest_pause_while(work) -> tuple[float, object]:
    """Run `work` with a ticker task on the same loop; the longest gap between its ticks."""
    ticks: list[float] = []
    stop = asyncio.Event()

    async def ticker() -> None:
        while not stop.is_set():
            ticks.append(time.perf_counter())
            await asyncio.sleep(0.005)

    task = asyncio.create_task(ticker())
    await asyncio.sleep(0.02)
    try:
        result = await work
    finally:
        stop.set()
        await task
    return max(b - a for a, b in itertools.pairwise(ticks)), result


async def test_the_event_loop_keeps_running_while_a_set_is_read(opener):
    svc = await opener(engine=SlowReadingEngine())
    gid = await seven_player_game(svc)
    pause, reply = await _longest_pause_while(
        svc.submit(gid, "user-france", "A PAR - BUR\nA MAR H")
    )
    assert reply.accepted  # type: ignore[attr-defined]
    # Read on the loop, the ticker would wait the whole READ_SECONDS.
    assert pause < READ_SECONDS / 2
