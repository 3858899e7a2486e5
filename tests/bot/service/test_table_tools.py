"""GM table tools the seeds expect: rollback limits, missed orders, the GM's draw, board edits,
a new deadline. Each test quotes its seed line."""

from __future__ import annotations

import pytest

from bot.service import InvalidStateError
from tests.bot.service.conftest import seven_player_game


async def _open_next(svc, clock, gid):
    clock.set((await svc.status(gid)).opens_at)
    await svc.run_due()
    assert (await svc.status(gid)).phase_status == "open"


async def _adjudicate_pending(svc, gid):
    await svc.adjudicate_now(gid, "gm")  # opens the pending phase now
    await svc.adjudicate_now(gid, "gm")  # and adjudicates it


async def test_rollback_only_before_the_next_phases_first_order(opener, clock):
    # EDC E: "If the next phase is well underway, in particular if the following orders have
    # already been issued, a adjudiction error cannot and must not be corrected"
    svc = await opener()
    gid = await seven_player_game(svc)
    await svc.adjudicate_now(gid, "gm")
    await _open_next(svc, clock, gid)
    await svc.submit(gid, "user-france", "A PAR H")  # the first order of F1901M
    with pytest.raises(InvalidStateError, match="orders were already given"):
        await svc.rollback(gid, "gm")
    st = await svc.status(gid)
    assert (st.phase, st.phase_status) == ("F1901M", "open")  # nothing changed
    assert [p.status for p in await svc.phases(gid)] == ["done", "open"]


async def test_a_cleared_order_also_counts_as_an_order_given(opener, clock):
    svc = await opener()
    gid = await seven_player_game(svc)
    await svc.adjudicate_now(gid, "gm")
    await _open_next(svc, clock, gid)
    await svc.submit(gid, "user-france", "A PAR H")
    await svc.clear_orders(gid, "user-france")
    with pytest.raises(InvalidStateError, match="orders were already given"):
        await svc.rollback(gid, "gm")


async def test_rollback_undoes_only_the_last_adjudication(opener):
    # stabbeurfou 4.E.6: "Only last adjudication result may be fixed."
    svc = await opener()
    gid = await seven_player_game(svc)
    await svc.adjudicate_now(gid, "gm")  # S1901M
    await _adjudicate_pending(svc, gid)  # F1901M
    assert await svc.rollback(gid, "gm") == "F1901M"
    with pytest.raises(InvalidStateError, match="already rolled back"):
        await svc.rollback(gid, "gm")
    st = await svc.status(gid)
    assert (st.phase, st.phase_status) == ("F1901M", "pending")
    # Once adjudicated again, that new adjudication is the last one and may be undone.
    await _adjudicate_pending(svc, gid)
    assert await svc.rollback(gid, "gm") == "F1901M"


async def test_rollback_refusals_in_french(opener, clock):
    svc = await opener()
    gid = await seven_player_game(svc, lang="fr")
    await svc.adjudicate_now(gid, "gm")
    await _open_next(svc, clock, gid)
    await svc.submit(gid, "user-france", "A PAR H")
    with pytest.raises(InvalidStateError) as info:
        await svc.rollback(gid, "gm")
    assert "des ordres ont déjà été donnés" in info.value.message
