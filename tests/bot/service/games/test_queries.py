"""Reading (bot/service/games/queries.py): positions, phases, results, power_of."""

from __future__ import annotations

import pytest

from bot.core.map import load_map
from bot.core.model import Power
from bot.service import NotFoundError
from tests.bot.service.conftest import seven_player_game


async def test_the_position_of_the_current_phase_and_of_a_past_one(opener, clock) -> None:
    svc = await opener()
    gid = await seven_player_game(svc)
    start = load_map("standard").start
    assert await svc.position(gid) == start
    assert await svc.results(gid) is None  # nothing adjudicated yet
    await svc.submit(gid, "user-france", "A PAR - BUR")
    clock.set((await svc.status(gid)).deadline)
    await svc.run_due()
    spring = (await svc.phases(gid))[0]
    assert (spring.phase, spring.status) == ("S1901M", "done")
    assert await svc.position(gid, spring.id) == start
    now = await svc.position(gid)
    assert str(now.phase) == "F1901M"
    assert now.unit_in("BUR") is not None
    assert now.unit_in("PAR") is None
    assert (await svc.results(gid)).phase_id == spring.id


async def test_a_phase_of_another_game_is_not_found(opener) -> None:
    svc = await opener()
    first = await seven_player_game(svc)
    other = await svc.create_game("gm2")
    with pytest.raises(NotFoundError):
        await svc.position(other.id)  # not started: no phase
    with pytest.raises(NotFoundError):
        await svc.position(other.id, (await svc.status(first)).phase_id)


async def test_power_of_and_games_of(opener) -> None:
    svc = await opener()
    gid = await seven_player_game(svc)
    assert await svc.power_of(gid, "user-italy") is Power.ITALY
    assert await svc.power_of(gid, "stranger") is None
    assert [g.id for g in await svc.games_of("user-italy")] == [gid]
    assert [g.id for g in await svc.games_of("gm")] == [gid]
    assert await svc.games_of("stranger") == []
