"""The service on the real game core: parser (both nomenclatures), the rule set's
refusals at submission, the adjudicator and the renderer."""

from __future__ import annotations

from bot.core.model import Power
from bot.service import EventKind, MemoryNotifier
from bot.service.engine import CoreEngine
from tests.bot.service.conftest import seven_player_game


async def test_a_spring_on_the_real_core_in_french(opener, clock):
    notes = MemoryNotifier()
    svc = await opener(engine=CoreEngine(), notifier=notes)
    gid = await seven_player_game(svc, lang="fr", rules="edc2023")
    reply = await svc.submit(gid, "user-france", "A PAR - BOU\nA TOU - PIE\nF BRE - MAN")
    assert reply.accepted
    assert reply.orders == ["A PAR - BOU", "A TOU - PIE", "F BRE - MAN"]
    assert reply.warnings == []
    await svc.submit(gid, "user-germany", "A MUN - BOU\nA BER T\nF KIE - HOL")
    bad = await svc.submit(gid, "user-italy", "A VEN - XYZ")
    assert not bad.accepted
    assert bad.errors[0].startswith("A VEN - XYZ: ")
    clock.set((await svc.status(gid)).deadline)
    await svc.run_due()
    [results] = [e for e in notes.events if e.kind is EventKind.RESULTS_READY]
    assert results.png.startswith(b"\x89PNG")
    by_order = {(r["power"], r["order"]): r for r in results.payload["lines"]}
    # PAR and MUN bounce in Burgundy; the others move.
    assert not by_order[("FRANCE", "A PAR - BOU")]["succeeded"]
    assert not by_order[("GERMANY", "A MUN - BOU")]["succeeded"]
    assert by_order[("FRANCE", "F BRE - MAN")]["succeeded"]
    assert by_order[("ITALY", "A VEN T")]["implied"]
    res = await svc.results(gid)
    assert res.outcome.position.unit_in("ENG").power is Power.FRANCE
    assert res.orders[Power.GERMANY] == ["A MUN - BOU", "A BER T", "F KIE - PAY"]


async def test_stabbeurfou_refusal_comes_from_the_rule_set(opener):
    svc = await opener(engine=CoreEngine())
    gid = await seven_player_game(svc, rules="stabbeurfou")
    reply = await svc.submit(gid, "user-france", "A PAR - BUR\nA MUN - RUH")
    assert not reply.accepted
    assert any("MUN" in e for e in reply.errors)
    ok = await svc.submit(gid, "user-france", "A PAR - BUR\nA MAR - SPA\nF BRE - MAO")
    assert ok.accepted
