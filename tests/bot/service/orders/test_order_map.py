"""The map of a player's own orders (bot.service.orders.order_map): drawn on the current board, only
the power's orders, moves it cannot make crossed; and the warning in words."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.core.language.parser import parse_orders
from bot.core.map import load_map
from bot.core.outcome import Reason
from bot.core.presets import load_rules
from bot.core.records.jsonio import position_to_json
from bot.service import ConfigError
from bot.service.engine import CoreEngine
from bot.service.orders import order_map
from bot.service.phases.compute import compute_phase
from tests.bot.service.conftest import SEVEN, seven_player_game

MAP = load_map("standard")


async def test_a_move_the_unit_cannot_make_is_warned_in_words(opener):
    svc = await opener(engine=CoreEngine())
    gid = await seven_player_game(svc)
    reply = await svc.submit(gid, "user-france", "F Bre - Spa; A Par - Bur; A Mar H")
    assert reply.accepted
    assert reply.warnings == [
        "F BRE - SPA: a fleet in BRE cannot reach Spain; the unit will hold unless you change it"
    ]


async def test_the_warning_is_in_french_at_a_french_table(opener):
    svc = await opener(engine=CoreEngine())
    gid = await seven_player_game(svc, lang="fr")
    reply = await svc.submit(gid, "user-france", "F BRE - ESP; A PAR - BOU; A TOU T")
    assert reply.warnings == [
        "F BRE - ESP : une flotte en BRE ne peut pas atteindre Espagne ;"
        " l'unité tiendra si vous ne changez pas l'ordre"
    ]


async def test_the_map_shows_the_players_own_orders_only(opener):
    svc = await opener(engine=CoreEngine())
    gid = await seven_player_game(svc)
    assert await svc.orders_map(gid, "user-germany") is None  # nothing submitted yet
    await svc.submit(gid, "user-germany", "A MUN - BUR")
    before = await svc.orders_map(gid, "user-germany")
    await svc.submit(gid, "user-france", "A PAR - PIC; F BRE - MAO")
    after = await svc.orders_map(gid, "user-germany")
    assert before is not None
    assert before == after
    france = await svc.orders_map(gid, "user-france")
    assert france is not None
    assert france != after
    img = Image.open(io.BytesIO(france))
    assert img.format == "PNG"
    assert img.width == order_map.WIDTH


async def test_a_move_the_unit_cannot_make_is_drawn_differently(opener):
    svc = await opener(engine=CoreEngine())
    gid = await seven_player_game(svc)
    await svc.submit(gid, "user-france", "F BRE - PIC")
    good = await svc.orders_map(gid, "user-france")
    await svc.submit(gid, "user-france", "F BRE - GAS")
    other = await svc.orders_map(gid, "user-france")
    await svc.submit(gid, "user-france", "F BRE - SPA")
    bad = await svc.orders_map(gid, "user-france")
    assert good is not None
    assert other is not None
    assert bad is not None
    red = (200, 30, 30)

    def reds(png: bytes) -> int:
        raw = Image.open(io.BytesIO(png)).convert("RGB").tobytes()
        pixels = zip(raw[0::3], raw[1::3], raw[2::3], strict=True)
        return sum(1 for r, g, b in pixels if abs(r - red[0]) < 60 and g < 90 and b < 90)

    # The crossed-out move adds red the legal moves do not have.
    assert reds(bad) > reds(good) + 20
    assert abs(reds(good) - reds(other)) < 20


def test_only_impossible_orders_get_a_failed_result():
    start = MAP.start
    france = MAP.parse_power("france")
    text = "F BRE - SPA; A PAR - BUR; A MAR S A PAR - BUR"
    orders = list(parse_orders(text, lang="en", power=france, position=start, game_map=MAP).orders)
    results = order_map.warned(start, MAP, load_rules("datc"), orders)
    assert [(r.order, r.reason) for r in results] == [(orders[0], Reason.ILLEGAL)]


async def test_a_colour_blind_game_draws_its_order_maps_in_that_palette(opener):
    svc = await opener(engine=CoreEngine())
    plain = await seven_player_game(svc)
    await svc.submit(plain, "user-france", "A PAR - BUR")
    default = await svc.orders_map(plain, "user-france")
    status = await svc.create_game("gm", name="cb", clock="edc2023", meta={"palette": "colorblind"})
    for user, power in zip(SEVEN, MAP.powers, strict=True):
        await svc.join(status.id, user, power)
    await svc.start_game(status.id, "gm")
    await svc.run_due()
    await svc.submit(status.id, "user-france", "A PAR - BUR")
    colour_blind = await svc.orders_map(status.id, "user-france")
    assert default is not None
    assert colour_blind is not None
    assert colour_blind != default
    assert await svc.orders_map(plain, "user-france", palette="colorblind") == colour_blind
    assert (await svc.game_settings(status.id)).palette == "colorblind"


async def test_an_unknown_palette_creates_no_game(opener):
    svc = await opener()
    with pytest.raises(ConfigError, match="unknown map palette"):
        await svc.create_game("gm", name="t", meta={"palette": "sepia"})


def test_a_phase_map_is_drawn_in_the_games_palette():
    start = position_to_json(MAP.start)
    args = (CoreEngine(), "standard", "datc", start, [], "en", True)
    default = compute_phase(*args)["png"]
    colour_blind = compute_phase(*args, "colorblind")["png"]
    assert default is not None
    assert colour_blind is not None
    assert colour_blind != default


async def test_no_map_in_the_last_seconds_before_the_deadline(opener):
    # bench/round.py: hundreds of maps drawn at a tournament deadline made orders sent in
    # time arrive late; close to the deadline the acknowledgement goes without its map.
    svc = await opener(engine=CoreEngine())
    gid = await seven_player_game(svc)
    await svc.submit(gid, "user-germany", "A MUN - BUR")
    deadline = (await svc.status(gid)).deadline
    assert deadline is not None
    assert await svc.orders_map(gid, "user-germany", quiet=20) is not None
    svc.table.clock.advance(deadline - svc.table.clock.now() - 10)  # 10 s before
    assert await svc.orders_map(gid, "user-germany", quiet=20) is None
    assert await svc.orders_map(gid, "user-germany") is not None  # /orders show still draws
