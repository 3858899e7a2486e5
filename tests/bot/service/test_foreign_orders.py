"""An order for another power's unit is an error: the set is refused whole and the previous
orders stand (an order for an empty place is only a warning: the adjudicator rules on it)."""

from __future__ import annotations

from bot.core.model import Power
from bot.service.engine import CoreEngine
from tests.bot.service.conftest import seven_player_game

ENGLISH_SET = "F LON - NTH\nF EDI - NWG\nA LVP - YOR"


async def test_an_order_for_a_french_unit_keeps_englands_set(opener):
    svc = await opener(engine=CoreEngine())
    gid = await seven_player_game(svc)
    first = await svc.submit(gid, "user-england", ENGLISH_SET)
    assert first.accepted
    reply = await svc.submit(gid, "user-england", "A Par - Pic")
    assert not reply.accepted
    assert reply.errors == ["A PAR - PIC: A PAR is French; you can only order your own units"]
    assert reply.warnings == []
    assert "previous orders still stand" in reply.message
    assert (await svc.my_orders(gid, "user-england")).orders == [
        "F LON - NTH",
        "F EDI - NWG",
        "A LVP - YOR",
    ]
    assert (await svc.status(gid)).submitted == [Power.ENGLAND]


async def test_one_foreign_order_refuses_the_whole_set(opener):
    svc = await opener(engine=CoreEngine())
    gid = await seven_player_game(svc)
    reply = await svc.submit(gid, "user-england", f"{ENGLISH_SET}\nF BRE - MAO")
    assert not reply.accepted
    assert reply.errors == ["F BRE - MAO: F BRE is French; you can only order your own units"]
    assert (await svc.my_orders(gid, "user-england")).orders == []
    assert (await svc.status(gid)).submitted == []


async def test_a_merge_with_a_foreign_order_changes_nothing(opener):
    svc = await opener(engine=CoreEngine())
    gid = await seven_player_game(svc)
    await svc.submit(gid, "user-england", ENGLISH_SET)
    reply = await svc.submit(gid, "user-england", "A MUN - RUH", merge=True)
    assert not reply.accepted
    assert reply.errors == ["A MUN - RUH: A MUN is German; you can only order your own units"]
    assert len((await svc.my_orders(gid, "user-england")).orders) == 3


async def test_the_owner_is_named_in_french(opener):
    svc = await opener(engine=CoreEngine())
    gid = await seven_player_game(svc, lang="fr")
    reply = await svc.submit(gid, "user-england", "A PAR - PIC\nF ANK - NOI")
    assert not reply.accepted
    assert reply.errors == [
        "A PAR - PIC : A PAR est française ; vous ne pouvez donner d'ordres qu'à vos unités",
        "F ANK - NOI : F ANK est turque ; vous ne pouvez donner d'ordres qu'à vos unités",
    ]


async def test_an_empty_place_is_still_only_a_warning(opener):
    svc = await opener(engine=CoreEngine())
    gid = await seven_player_game(svc)
    reply = await svc.submit(gid, "user-england", "A YOR - LON\nF NTH - HOL")
    assert reply.accepted
    assert "A YOR - LON: you have no unit in YOR" in reply.warnings
    assert "F NTH - HOL: you have no unit in NTH" in reply.warnings


async def test_supporting_a_foreign_unit_is_fine(opener):
    svc = await opener(engine=CoreEngine())
    gid = await seven_player_game(svc)
    reply = await svc.submit(gid, "user-germany", "A MUN S A PAR - BUR\nF KIE C A PAR - BUR")
    assert reply.accepted
    assert reply.errors == []


async def test_the_gm_entering_orders_is_held_to_the_same_rule(opener):
    svc = await opener(engine=CoreEngine())
    gid = await seven_player_game(svc)
    await svc.submit_for(gid, "gm", Power.ENGLAND, ENGLISH_SET)
    reply = await svc.submit_for(gid, "gm", "england", "A VEN - TYR")
    assert not reply.accepted
    assert reply.errors == ["A VEN - TYR: A VEN is Italian; you can only order your own units"]
    assert len((await svc.my_orders(gid, "user-england")).orders) == 3


async def test_the_simple_engine_orders_are_checked_by_the_service(opener):
    # The check is the service's, whatever engine reads the orders.
    svc = await opener()
    gid = await seven_player_game(svc)
    await svc.submit(gid, "user-england", "A LVP H")
    reply = await svc.submit(gid, "user-england", "A PAR - PIC")
    assert not reply.accepted
    assert reply.errors == ["A PAR - PIC: A PAR is French; you can only order your own units"]
    assert (await svc.my_orders(gid, "user-england")).orders == ["A LVP H"]
