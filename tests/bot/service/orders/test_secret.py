"""Orders: readings, warnings, refusals, secrecy, history, concurrency at the deadline."""

from __future__ import annotations

import asyncio

import pytest

from bot.core.model import Power
from bot.service import LateSubmissionError, PermissionDeniedError
from tests.bot.service.conftest import seven_player_game


async def test_unreadable_set_is_not_saved_and_previous_orders_stand(opener):
    svc = await opener()
    gid = await seven_player_game(svc)
    await svc.submit(gid, "user-france", "A PAR - BUR")
    reply = await svc.submit(gid, "user-france", "A MAR - SPA\nA PAR jump")
    assert not reply.accepted
    assert reply.errors == ["A PAR jump: cannot read this order"]
    assert "previous orders still stand" in reply.message
    assert (await svc.my_orders(gid, "user-france")).orders == ["A PAR - BUR"]


async def test_warnings_for_units_without_orders_and_orders_for_empty_places(opener):
    svc = await opener()
    gid = await seven_player_game(svc)
    reply = await svc.submit(gid, "user-france", "A PAR H\nA BUR - RUH")
    assert reply.accepted
    assert reply.warnings == [
        "F BRE: no order (it will hold)",
        "A MAR: no order (it will hold)",
        "A BUR - RUH: you have no unit in BUR",
    ]


async def test_french_game_answers_in_french(opener):
    svc = await opener()
    gid = await seven_player_game(svc, lang="fr")
    reply = await svc.submit(gid, "user-france", "A PAR H")
    assert reply.orders == ["A PAR T"]
    assert reply.message.startswith("Enregistré")
    assert "F BRE : pas d'ordre (elle tiendra)" in reply.warnings


async def test_stabbeurfou_refuses_a_whole_set_with_an_inaccurate_order(opener):
    svc = await opener()
    gid = await seven_player_game(svc, rules="stabbeurfou")
    await svc.submit(gid, "user-france", "A PAR - BUR")
    reply = await svc.submit(gid, "user-france", "A MAR - GAS\nA RUH - HOL")
    assert not reply.accepted
    assert reply.errors == ["A RUH - HOL: no such unit"]
    assert (await svc.my_orders(gid, "user-france")).orders == ["A PAR - BUR"]
    # The DATC rule set takes the same set and lets the adjudicator rule on it.
    gid2 = await seven_player_game(svc, rules="datc")
    assert (await svc.submit(gid2, "user-france", "A MAR - GAS\nA RUH - HOL")).accepted


async def test_merge_replaces_only_the_named_units_and_clear_empties(opener):
    svc = await opener()
    gid = await seven_player_game(svc)
    await svc.submit(gid, "user-france", "A PAR - BUR\nA MAR H")
    await svc.submit(gid, "user-france", "A MAR - SPA", merge=True)
    assert (await svc.my_orders(gid, "user-france")).orders == ["A PAR - BUR", "A MAR - SPA"]
    await svc.clear_orders(gid, "user-france")
    assert (await svc.my_orders(gid, "user-france")).orders == []
    assert Power.FRANCE not in (await svc.status(gid)).submitted


async def test_orders_are_secret_until_adjudicated(opener, clock):
    svc = await opener()
    gid = await seven_player_game(svc)
    await svc.submit(gid, "user-france", "A PAR - BUR")
    assert await svc.phase_orders(gid, "user-germany") == {}
    assert await svc.phase_orders(gid, "gm") == {}
    assert await svc.phase_orders(gid, "user-france") == {Power.FRANCE: ["A PAR - BUR"]}
    assert await svc.history(gid, "user-germany") == []
    assert await svc.history(gid, "gm") == []  # the GM neither, while the phase is open
    with pytest.raises(PermissionDeniedError):
        await svc.history(gid, "stranger")
    # Status says who has orders in, never what they are; the audit log neither.
    assert (await svc.status(gid)).submitted == [Power.FRANCE]
    audit = await svc.audit_log(gid, "gm")
    assert all("BUR" not in repr(a.detail) for a in audit)
    phase_id = (await svc.status(gid)).phase_id
    clock.set((await svc.status(gid)).deadline)
    await svc.run_due()
    assert (await svc.phase_orders(gid, "user-germany", phase_id))[Power.FRANCE] == ["A PAR - BUR"]
    assert [h.text for h in await svc.history(gid, "gm")] == ["A PAR - BUR"]


async def test_not_a_player_cannot_submit(opener):
    svc = await opener()
    gid = await seven_player_game(svc)
    with pytest.raises(PermissionDeniedError):
        await svc.submit(gid, "stranger", "A PAR - BUR")


async def test_late_submission_is_refused_clearly_and_kept_for_the_record(opener, clock):
    svc = await opener()
    gid = await seven_player_game(svc)
    await svc.submit(gid, "user-france", "A PAR - BUR")
    clock.set((await svc.status(gid)).deadline)  # deadline reached, not yet adjudicated
    with pytest.raises(LateSubmissionError, match=r"deadline .* has passed"):
        await svc.submit(gid, "user-france", "A PAR - PIC")
    await svc.run_due()
    res = await svc.results(gid)
    assert res.orders[Power.FRANCE] == ["A PAR - BUR"]
    hist = await svc.history(gid, "user-france")
    assert [(h.text, h.accepted) for h in hist] == [("A PAR - BUR", True), ("A PAR - PIC", False)]


async def test_many_players_submitting_while_the_deadline_fires(opener, clock):
    svc = await opener()
    gid = await seven_player_game(svc)
    deadline = (await svc.status(gid)).deadline
    clock.set(deadline - 0.5)
    units = {
        "user-france": "A PAR",
        "user-germany": "A MUN",
        "user-italy": "A VEN",
        "user-austria": "A VIE",
        "user-russia": "A WAR",
        "user-turkey": "A CON",
        "user-england": "A LVP",
    }
    acked: dict[str, str] = {}
    refused: list[str] = []

    async def player(user: str, unit: str) -> None:
        for i in range(6):
            text = f"{unit} H" if i % 2 else f"{unit} H\n{unit} H"
            try:
                reply = await svc.submit(gid, user, text)
                assert reply.accepted
                acked[user] = text
            except LateSubmissionError:
                refused.append(user)
            await asyncio.sleep(0)

    async def deadline_fires() -> None:
        for _ in range(4):
            await asyncio.sleep(0)
        clock.set(deadline)
        await svc.run_due()

    await asyncio.gather(*(player(u, unit) for u, unit in units.items()), deadline_fires())
    assert refused, "some submissions should have come after the deadline"
    res = await svc.results(gid)
    # Every power's adjudicated orders are exactly its last acknowledged submission.
    for user in units:
        power = await svc.table.player_power(gid, user)
        expected = len(acked[user].splitlines()) if user in acked else 0
        assert len(res.orders.get(power, [])) == expected, user
    hist = [h for u in units for h in await svc.history(gid, u)]
    assert all(h.submitted_at < deadline for h in hist if h.accepted)
    assert all(h.submitted_at >= deadline for h in hist if not h.accepted)
