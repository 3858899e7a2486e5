"""The lobby (bot/service/games/lobby.py): creating games, seats, the start, meta data."""

from __future__ import annotations

import pytest

from bot.core.map import load_map
from bot.core.model import Power
from bot.service import InvalidStateError, PermissionDeniedError, ServiceError
from bot.service.games.access import BOT


async def test_an_unknown_language_creates_nothing(opener) -> None:
    svc = await opener()
    with pytest.raises(ServiceError):
        await svc.create_game("gm", lang="xx")
    assert await svc.list_games(include_over=True) == []


async def test_seats_before_the_start_and_none_after(opener) -> None:
    svc = await opener()
    game = await svc.create_game("gm")
    assert game.name == f"game-{game.id}"  # a game without a name is named after its id
    chosen = await svc.join(game.id, "u1", "random")
    assert chosen in load_map("standard").powers
    with pytest.raises(InvalidStateError):
        await svc.join(game.id, "u1", Power.ENGLAND if chosen is not Power.ENGLAND else "france")
    with pytest.raises(InvalidStateError):
        await svc.join(game.id, "u2", chosen)  # taken
    assert await svc.assign(game.id, "gm", "u1", Power.TURKEY) is Power.TURKEY  # moved
    assert (await svc.status(game.id)).players == {Power.TURKEY: "u1"}
    started = await svc.start_game(game.id, "gm")
    assert (started.status, started.phase) == ("active", "S1901M")
    with pytest.raises(InvalidStateError):
        await svc.join(game.id, "u3")
    with pytest.raises(InvalidStateError):
        await svc.start_game(game.id, "gm")


async def test_meta_by_who_may_set_it(opener) -> None:
    svc = await opener()
    game = await svc.create_game("gm", meta={"channel": 1})
    await svc.join(game.id, "u1", Power.FRANCE)
    await svc.set_meta(game.id, "spectators", [5], by="u1")
    await svc.set_meta(game.id, "press_lock", {"x": 1}, by=BOT)
    with pytest.raises(PermissionDeniedError):
        await svc.set_meta(game.id, "channel", 2, by="u1")
    with pytest.raises(PermissionDeniedError):
        await svc.set_meta(game.id, "spectators", [], by="stranger")
    meta = (await svc.status(game.id)).meta
    assert meta == {"channel": 1, "spectators": [5], "press_lock": {"x": 1}}
    actions = [e.action for e in await svc.audit_log(game.id, "gm")]
    assert actions == ["create", "join", "meta"]  # the bot's own bookkeeping is not audited
