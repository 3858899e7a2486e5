"""The preset's submission keys, through the table service: each changes what a set does."""

from __future__ import annotations

import pytest

from bot.core.model import Power
from bot.service import LateSubmissionError
from bot.service.engine import CoreEngine
from tests.bot.service.conftest import seven_player_game


async def test_unreadable_line_voided_under_edc_refuses_the_set_elsewhere(opener):
    # edc-2023 E: "an unambiguous order must be applied and an order deemed ambiguous not
    # applied" (unreadable_orders = "void-line").
    svc = await opener()
    gid = await seven_player_game(svc, rules="edc2023")
    reply = await svc.submit(gid, "user-france", "A MAR - SPA\nA PAR jump")
    assert reply.accepted
    assert reply.orders == ["A MAR - SPA"]
    assert reply.warnings[0] == (
        "not read, so void (the other orders are kept): A PAR jump: cannot read this order"
    )
    assert (await svc.my_orders(gid, "user-france")).orders == ["A MAR - SPA"]
    # datc (refuse-set): the same set is refused whole.
    gid2 = await seven_player_game(svc, rules="datc")
    assert not (await svc.submit(gid2, "user-france", "A MAR - SPA\nA PAR jump")).accepted
    # Nothing readable: nothing to keep, the set is refused under edc2023 too.
    assert not (await svc.submit(gid, "user-france", "A PAR jump")).accepted


async def test_house_accepts_orders_after_the_deadline_until_adjudication(opener, clock):
    # house-rules VII(3) Alternative B: late orders are "accepted until the start of
    # adjudication" (late_orders_accepted = true).
    svc = await opener()
    house = await seven_player_game(svc, rules="house")
    datc = await seven_player_game(svc, rules="datc")
    deadlines = [(await svc.status(g)).deadline for g in (house, datc)]
    assert None not in deadlines
    clock.set(max(d for d in deadlines if d is not None))
    assert (await svc.submit(house, "user-france", "A PAR - BUR")).accepted
    with pytest.raises(LateSubmissionError):
        await svc.submit(datc, "user-france", "A PAR - BUR")
    await svc.run_due()  # the adjudication starts, and then no more orders
    res = await svc.results(house)
    assert res is not None
    assert res.orders[Power.FRANCE] == ["A PAR - BUR"]


async def test_order_sets_combine_replace_or_refuse_a_partial_set(opener):
    svc = await opener()
    # DATC 4.D.1 c (datc): the latest set, unless it says otherwise (merge: by unit).
    datc = await seven_player_game(svc, rules="datc")
    await svc.submit(datc, "user-france", "A PAR - BUR\nA MAR H")
    await svc.submit(datc, "user-france", "A MAR - SPA", merge=True)
    assert (await svc.my_orders(datc, "user-france")).orders == ["A PAR - BUR", "A MAR - SPA"]
    # house-rules III(4) Alternative A: "previous order sets are disregarded" (d): a set
    # asking to be added is refused and the standing set stays.
    house = await seven_player_game(svc, rules="house")
    await svc.submit(house, "user-france", "A PAR - BUR\nA MAR H")
    reply = await svc.submit(house, "user-france", "A MAR - SPA", merge=True)
    assert not reply.accepted
    assert "whole order sets only" in reply.errors[0]
    assert (await svc.my_orders(house, "user-france")).orders == ["A PAR - BUR", "A MAR H"]
    # stabbeurfou 4.D.1 'SF a': sets are combined (a new set adds to the standing one).
    sf = await seven_player_game(svc, rules="stabbeurfou")
    await svc.submit(sf, "user-france", "A PAR - BUR")
    await svc.submit(sf, "user-france", "A MAR - SPA")
    assert (await svc.my_orders(sf, "user-france")).orders == ["A PAR - BUR", "A MAR - SPA"]


async def test_irrelevant_coast_refuses_the_set_under_stabbeurfou_only(opener):
    # stabbeurfou 4.B.6: "rejects any coast specification if none is requested".
    svc = await opener(engine=CoreEngine())
    sf = await seven_player_game(svc, rules="stabbeurfou")
    reply = await svc.submit(sf, "user-france", "A PAR - BUR/NC\nA MAR H")
    assert not reply.accepted
    assert reply.errors == [
        "A PAR - BUR/NC: BUR has no coasts: write none (a coast is refused where none is asked)"
    ]
    assert (await svc.my_orders(sf, "user-france")).orders == []
    # datc (4.B.6 b): the coast is ignored, the set saved as before.
    datc = await seven_player_game(svc, rules="datc")
    reply = await svc.submit(datc, "user-france", "A PAR - BUR/NC\nA MAR H")
    assert reply.accepted
    assert reply.orders == ["A PAR - BUR", "A MAR H"]
