"""Map palettes chosen from Discord (issue 16), on both backends: a user's and a server's are
kept and forgotten; public maps take the game's, else the server's, else the default; a
player's own order map takes the player's, else the game's public one."""

from __future__ import annotations

from typing import Any

import pytest

from bot.service import ConfigError
from bot.service.engine import CoreEngine
from tests.bot.service.conftest import SEVEN, SimpleEngine
from tests.standard import STANDARD


class PaletteSpy(SimpleEngine):
    """The test engine, noting the palette of each phase map it is asked to draw."""

    def __init__(self) -> None:
        self.palettes: list[str] = []

    def render(self, *args: Any, palette: str = "default", **kw: Any) -> bytes | None:
        self.palettes.append(palette)
        return super().render(*args, palette=palette, **kw)


async def _game_in(svc, server: str | None, name: str, **meta: Any) -> int:
    status = await svc.create_game(
        "gm", name=name, clock="edc2023", meta={**({"guild": server} if server else {}), **meta}
    )
    for user, power in zip(SEVEN, STANDARD.powers, strict=True):
        await svc.join(status.id, user, power)
    await svc.start_game(status.id, "gm")
    await svc.run_due()
    return status.id


async def test_choices_are_kept_changed_and_forgotten(opener):
    svc = await opener()
    assert await svc.user_palette("u1") is None
    await svc.set_user_palette("u1", "colorblind")
    await svc.set_server_palette("42", "colorblind")
    assert (await svc.user_palette("u1"), await svc.server_palette("42")) == (
        "colorblind",
        "colorblind",
    )
    assert await svc.user_palette("u2") is None  # one user's choice is theirs alone
    assert await svc.server_palette("43") is None
    await svc.set_user_palette("u1", "default")  # a user may want the default colours
    assert await svc.user_palette("u1") == "default"
    with pytest.raises(ConfigError, match="unknown map palette"):
        await svc.set_user_palette("u1", "sepia")
    assert await svc.user_palette("u1") == "default"  # a refusal changes nothing
    await svc.set_user_palette("u1", None)  # back to each game's
    await svc.set_server_palette("42", "default")  # the default is no choice at all
    assert (await svc.user_palette("u1"), await svc.server_palette("42")) == (None, None)


async def test_public_maps_take_the_game_then_the_server_then_the_default(opener, clock):
    spy = PaletteSpy()
    svc = await opener(engine=spy)
    await svc.set_server_palette("42", "colorblind")
    games = [
        await _game_in(svc, "42", "server's"),
        await _game_in(svc, "42", "game's own", palette="default"),
        await _game_in(svc, "7", "other server"),
        await _game_in(svc, None, "no server"),
    ]
    await svc.set_user_palette("user-france", "colorblind")  # never for public maps
    clock.set(max([(await svc.status(g)).deadline or 0.0 for g in games]))
    await svc.run_due()
    assert [(await svc.status(g)).phase for g in games] == ["F1901M"] * 4
    assert sorted(spy.palettes) == ["colorblind", "default", "default", "default"]
    spy.palettes.clear()
    await svc.set_server_palette("42", None)
    first = await _game_in(svc, "42", "after the change")
    clock.set((await svc.status(first)).deadline or 0.0)
    await svc.run_due()
    assert spy.palettes == ["default"]


async def test_a_players_own_map_takes_their_palette_then_the_games(opener):
    svc = await opener(engine=CoreEngine())
    plain = await _game_in(svc, "42", "plain")
    await svc.submit(plain, "user-france", "A PAR - BUR")
    await svc.submit(plain, "user-germany", "A MUN - BUR")
    default_fr = await svc.orders_map(plain, "user-france")
    colour_blind_fr = await svc.orders_map(plain, "user-france", palette="colorblind")
    default_de = await svc.orders_map(plain, "user-germany")
    assert default_fr is not None
    assert default_fr != colour_blind_fr
    await svc.set_user_palette("user-france", "colorblind")
    assert await svc.orders_map(plain, "user-france") == colour_blind_fr
    assert await svc.orders_map(plain, "user-germany") == default_de  # theirs only
    # The server's choice reaches the players who chose nothing; France's own still wins.
    await svc.set_server_palette("42", "colorblind")
    assert await svc.orders_map(plain, "user-germany") != default_de
    await svc.set_user_palette("user-france", "default")
    await svc.set_server_palette("42", "colorblind")
    assert await svc.orders_map(plain, "user-france") == default_fr
