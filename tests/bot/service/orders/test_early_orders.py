"""Orders for a later phase: the EDC Fall retreat window that also takes the Winter
adjustments (edc-2023 B), and house II(5) contingent retreat/adjustment orders."""

from __future__ import annotations

import pytest

from bot.core.model import Power
from bot.service import EventKind, InvalidStateError, MemoryNotifier, load_clock
from bot.service.engine import CoreEngine
from tests.bot.service.conftest import run_until, seven_player_game


async def _phase_is(svc, gid, name):
    async def done():
        st = await svc.status(gid)
        return st.phase == name and st.phase_status == "open"

    return done


async def _to_fall_retreats(svc, clock, gid) -> None:
    """Spring and Fall 1901: Germany dislodges France's army from Burgundy; France takes
    Portugal and Spain (two builds to come)."""
    await svc.submit(gid, "user-france", "A PAR - BUR\nF BRE - MAO\nA MAR - SPA")
    await svc.submit(gid, "user-germany", "A MUN - RUH\nA BER - MUN")
    await run_until(svc, clock, gid, await _phase_is(svc, gid, "F1901M"))
    await svc.submit(gid, "user-france", "A BUR H\nF MAO - POR\nA SPA H")
    await svc.submit(gid, "user-germany", "A RUH - BUR\nA MUN S A RUH - BUR")
    await run_until(svc, clock, gid, await _phase_is(svc, gid, "F1901R"))


def test_edc_year_is_thirty_minutes():
    # edc-2023 B: "All rounds and all tables will be played in 7 years, 30 minutes per
    # year" - Spring 8'+1'+4', Summer 1', Fall 8'+1'+6', Winter (retirement & adjustments) 1'.
    edc = load_clock("edc2023")
    assert edc.retreats_with_adjustments
    assert edc.year_seconds() == 30 * 60
    # As two phases with a window each, the year would be 31'.
    assert edc.with_overrides({"retreats_with_adjustments": False}).year_seconds() == 31 * 60
    # house-rules II(5) C: "WINTER (W) = a separate order phase for post-fall retreats
    # combined with adjustments" - the same clock key.
    assert load_clock("house").retreats_with_adjustments
    assert not load_clock("casual").retreats_with_adjustments
    # edc-2023 B/E: press only in the negotiation, closed while orders are written.
    spring = edc.slots["spring_movement"]
    assert (spring.negotiation, spring.writing, spring.press) == (480, 60, ("negotiation",))


async def test_edc_fall_retreats_and_adjustments_in_one_window(opener, clock):
    # edc-2023 B: "Winter (retirement & adjustments): writing 1'".
    notes = MemoryNotifier()
    svc = await opener(engine=CoreEngine(), notifier=notes)
    gid = await seven_player_game(svc)  # the edc2023 clock
    await _to_fall_retreats(svc, clock, gid)
    st = await svc.status(gid)
    assert st.deadline - st.opens_at == 60
    reply = await svc.submit(gid, "user-france", "A BUR - PIC\nA PAR B\nF BRE B")
    assert reply.accepted
    assert reply.orders == ["A BUR R PIC"]
    assert "The adjustment orders are kept for Winter 1901" in reply.message
    opened = st.opens_at
    await run_until(svc, clock, gid, await _phase_is(svc, gid, "S1902M"))
    # The retreats at the end of the window, the adjustments at once after them.
    assert clock.now() == opened + 60
    res = await svc.results(gid)
    assert res is not None
    assert res.phase == "W1901A"
    assert res.orders[Power.FRANCE] == ["A PAR B", "F BRE B"]
    # The Winter has no window of its own to announce.
    opened_w = [e for e in notes.events if e.kind is EventKind.WINDOW_OPENED]
    assert "W1901A" not in [e.phase for e in opened_w]
    assert "F1901R" in [e.phase for e in opened_w]
    read = [e for e in notes.events if e.kind is EventKind.EARLY_ORDERS_READ]
    assert [e.payload["accepted"] for e in read] == [True]
    assert read[0].payload["user"] == "user-france"


async def test_house_contingent_orders_kept_and_applied_refused_elsewhere(opener, clock):
    # house-rules II(5): "You can submit retreat/adjustment orders early; at the deadline,
    # I use the last submitted orders" (contingent_orders = true).
    notes = MemoryNotifier()
    svc = await opener(engine=CoreEngine(), notifier=notes)
    gid = await seven_player_game(svc, rules="house")
    reply = await svc.submit(gid, "user-france", "SED 01WF\nA BUR R PIC\nA PAR B\nF BRE B")
    assert reply.accepted
    assert reply.message.startswith("Kept for Winter 1901")
    # A set that cannot be read when its phase opens is not used; the player is told.
    assert (await svc.submit(gid, "user-austria", "SED 01WA\nA VIE jump")).accepted
    # Spring's own orders are still to be written, and are not replaced by the early set.
    await _to_fall_retreats(svc, clock, gid)
    assert (await svc.my_orders(gid, "user-france")).orders == ["A BUR R PIC"]
    await run_until(svc, clock, gid, await _phase_is(svc, gid, "S1902M"))
    res = await svc.results(gid)
    assert res is not None
    assert res.orders[Power.FRANCE] == ["A PAR B", "F BRE B"]
    assert Power.AUSTRIA not in res.orders
    read = [
        (e.payload["power"], e.phase, e.payload["accepted"], e.payload["errors"])
        for e in notes.events
        if e.kind is EventKind.EARLY_ORDERS_READ
    ]
    assert sorted(read) == [
        ("AUSTRIA", "F1901R", False, ["A VIE jump: unexpected word 'jump' after 'VIE'"]),
        ("FRANCE", "F1901R", True, []),  # the retreat
        ("FRANCE", "W1901A", True, []),  # the builds
    ]
    # datc: no contingent orders, a set for another phase is refused (house II(2) reading).
    other = await seven_player_game(svc, rules="datc")
    refused = await svc.submit(other, "user-france", "SED 01WF\nA PAR B")
    assert not refused.accepted


async def test_the_settings_say_whether_the_clock_shares_the_winter_window(opener):
    # edc-2023 B: the EDC clock writes Fall retreats and adjustments in one 1' window.
    svc = await opener()
    edc = await svc.create_game("gm", clock="edc2023")
    casual = await svc.create_game("gm", clock="casual")
    assert (await svc.game_settings(edc.id)).winter_combined
    assert not (await svc.game_settings(casual.id)).winter_combined


async def test_a_rollback_is_not_blocked_by_early_sets_and_reads_them_again(opener, clock):
    # EDC E: no correction "if the following orders have already been issued"; a set written
    # before the adjudication (house II(5)) and read when the retreats opened was not issued
    # after it. Rolled back, the set waits again and is read when the retreats open again.
    notes = MemoryNotifier()
    svc = await opener(engine=CoreEngine(), notifier=notes)
    gid = await seven_player_game(svc, rules="house")
    assert (
        await svc.submit(gid, "user-france", "SED 01WF\nA BUR R PIC\nA PAR B\nF BRE B")
    ).accepted
    await _to_fall_retreats(svc, clock, gid)
    assert (await svc.my_orders(gid, "user-france")).orders == ["A BUR R PIC"]
    assert await svc.rollback(gid, "gm") == "F1901M"
    await run_until(svc, clock, gid, await _phase_is(svc, gid, "F1901R"))
    assert (await svc.my_orders(gid, "user-france")).orders == ["A BUR R PIC"]
    await run_until(svc, clock, gid, await _phase_is(svc, gid, "S1902M"))
    res = await svc.results(gid)
    assert res is not None
    assert res.orders[Power.FRANCE] == ["A PAR B", "F BRE B"]  # the Winter part, once
    read = [
        (e.phase, e.payload["accepted"])
        for e in notes.events
        if e.kind is EventKind.EARLY_ORDERS_READ and e.payload["power"] == "FRANCE"
    ]
    assert read == [("F1901R", True), ("F1901R", True), ("W1901A", True)]


async def test_an_order_sent_after_the_results_still_blocks_the_rollback(opener, clock):
    # EDC E / house VIII(1): once a player has written for the next phase, the error stands.
    svc = await opener(engine=CoreEngine())
    gid = await seven_player_game(svc, rules="house")
    assert (await svc.submit(gid, "user-france", "SED 01WF\nA BUR R PIC")).accepted
    await _to_fall_retreats(svc, clock, gid)
    assert (await svc.submit(gid, "user-france", "A BUR R GAS")).accepted
    with pytest.raises(InvalidStateError):
        await svc.rollback(gid, "gm")
