"""Lateness by the time an order was sent (issue 19): a set sent before the deadline and read
after it is taken within the grace; the phase closes after the grace; the public deadline
does not move."""

from __future__ import annotations

import asyncio

import pytest

from bot.core.model import Power
from bot.service import LateSubmissionError
from bot.service.clock.lateness import GRACE, HOLD, POLL, sent_time
from bot.service.engine import CoreEngine
from tests.bot.service.conftest import seven_player_game
from tests.bot.service.orders.test_early_orders import _to_fall_retreats as to_fall_retreats


def test_a_time_of_sending_from_the_future_is_clamped_to_the_reading():
    assert sent_time(99.0, 100.0) == 99.0
    assert sent_time(150.0, 100.0) == 100.0  # a clock from the future is not trusted
    assert sent_time(None, 100.0) == 100.0  # no time of its own: when it was read


async def test_sent_before_the_deadline_and_read_within_the_grace_is_taken(opener, clock):
    svc = await opener(grace=GRACE)
    gid = await seven_player_game(svc)
    await svc.submit(gid, "user-france", "A PAR H")
    deadline = (await svc.status(gid)).deadline
    clock.set(deadline + GRACE / 2)
    await svc.run_due()  # the deadline passed, the grace not yet: still open
    st = await svc.status(gid)
    assert (st.phase, st.phase_status, st.deadline) == ("S1901M", "open", deadline)
    reply = await svc.submit(gid, "user-france", "A PAR - BUR", sent_at=deadline - 0.3)
    assert reply.accepted
    clock.set(deadline + GRACE)
    await svc.run_due()
    res = await svc.results(gid)
    assert res is not None
    assert res.orders[Power.FRANCE] == ["A PAR - BUR"]


async def test_sent_after_the_deadline_is_refused_even_within_the_grace(opener, clock):
    svc = await opener(grace=GRACE)
    gid = await seven_player_game(svc)
    await svc.submit(gid, "user-france", "A PAR H")
    deadline = (await svc.status(gid)).deadline
    clock.set(deadline + 0.5)
    with pytest.raises(LateSubmissionError, match=r"deadline .* has passed"):
        await svc.submit(gid, "user-france", "A PAR - BUR", sent_at=deadline + 0.1)
    with pytest.raises(LateSubmissionError):  # no time of sending: read after the deadline
        await svc.submit(gid, "user-france", "A PAR - BUR")
    with pytest.raises(LateSubmissionError):  # a time from the future counts as its reading
        await svc.submit(gid, "user-france", "A PAR - BUR", sent_at=deadline + 3600)
    clock.set(deadline + GRACE)
    await svc.run_due()
    res = await svc.results(gid)
    assert res is not None
    assert res.orders[Power.FRANCE] == ["A PAR H"]
    hist = await svc.history(gid, "user-france")
    assert [h.accepted for h in hist] == [True, False, False, False]  # kept for the record


async def test_once_the_grace_is_over_a_set_sent_in_time_gets_the_usual_refusal(opener, clock):
    svc = await opener(grace=GRACE)
    gid = await seven_player_game(svc)
    deadline = (await svc.status(gid)).deadline
    clock.set(deadline + GRACE)  # the phase is still open: its step has not run yet
    assert (await svc.status(gid)).phase_status == "open"
    with pytest.raises(LateSubmissionError, match=r"deadline .* has passed"):
        await svc.submit(gid, "user-france", "A PAR - BUR", sent_at=deadline - 1.0)
    await svc.run_due()
    with pytest.raises(LateSubmissionError):  # adjudicated: nothing more for that phase
        await svc.submit(gid, "user-france", "A PAR - BUR", sent_at=deadline - 1.0)


async def test_the_clock_steps_at_the_deadline_plus_the_grace(opener, clock):
    svc = await opener(grace=GRACE)
    gid = await seven_player_game(svc)
    deadline = (await svc.status(gid)).deadline
    clock.set(deadline - 0.001)
    await svc.run_due()  # (the reminders before it)
    assert await svc.next_due(gid) == deadline + GRACE
    clock.set(deadline)
    assert await svc.run_due() == 0  # nothing due at the deadline itself
    assert (await svc.status(gid)).phase_status == "open"


async def test_a_set_arrived_in_the_grace_and_still_being_read_holds_the_close(opener, clock):
    svc = await opener(grace=GRACE)
    gid = await seven_player_game(svc)
    deadline = (await svc.status(gid)).deadline
    clock.set(deadline + GRACE - 0.5)  # it arrives within the grace, sent before the deadline
    with svc.receiving("user-france", deadline - 0.3) as receipt:
        clock.set(deadline + GRACE + 1.0)  # and its reading outlasts the grace
        await svc.run_due()
        assert (await svc.status(gid)).phase_status == "open"  # the phase waits for it
        assert await svc.next_due(gid) == clock.now() + POLL
        reply = await svc.submit(gid, "user-france", "A PAR - BUR", receipt=receipt)
        assert reply.accepted
    clock.advance(POLL)  # the next look: nothing to wait for
    await svc.run_due()
    res = await svc.results(gid)
    assert res is not None
    assert res.orders[Power.FRANCE] == ["A PAR - BUR"]


async def test_a_reading_that_never_ends_holds_the_phase_only_so_long(opener, clock):
    svc = await opener(grace=GRACE)
    gid = await seven_player_game(svc)
    deadline = (await svc.status(gid)).deadline
    clock.set(deadline + 0.5)
    with svc.receiving("user-france", deadline - 0.3):
        clock.set(deadline + GRACE + HOLD)
        await svc.run_due()
        assert (await svc.status(gid)).phase == "F1901M"


async def test_only_a_players_set_sent_and_arrived_in_time_holds_the_phase(opener, clock):
    svc = await opener(grace=GRACE)
    gid = await seven_player_game(svc)
    deadline = (await svc.status(gid)).deadline
    clock.set(deadline + 0.5)
    with (
        svc.receiving("stranger", deadline - 0.3),  # not in this game
        svc.receiving("user-italy", deadline + 0.1),  # sent after the deadline
    ):
        clock.set(deadline + GRACE)
        with svc.receiving("user-france", deadline - 0.3) as receipt:  # arrived too late
            await svc.run_due()
            assert (await svc.status(gid)).phase == "F1901M"
            with pytest.raises(LateSubmissionError):
                await svc.submit(gid, "user-france", "A PAR - BUR", receipt=receipt)


async def test_with_a_gateway_a_set_read_before_the_bot_caught_up_is_taken(opener, clock):
    svc = await opener(grace=GRACE)
    gid = await seven_player_game(svc)
    deadline = (await svc.status(gid)).deadline
    answer = asyncio.Event()
    svc.follow_gateway(answer.wait)  # the bot's heartbeat, answered once its socket is read
    clock.set(deadline + GRACE + 1.0)  # the grace is over, the bot busy reading its gateway
    await svc.run_due()
    assert (await svc.status(gid)).phase_status == "open"  # until it has caught up
    with svc.receiving("user-france", deadline - 0.3) as receipt:  # read late, sent in time
        answer.set()
        await asyncio.sleep(0.01)  # caught up: what came before the answer is in time
        await svc.run_due()
        assert (await svc.status(gid)).phase_status == "open"  # (still being read)
        reply = await svc.submit(gid, "user-france", "A PAR - BUR", receipt=receipt)
        assert reply.accepted
    # Discord delivered this one after the bot caught up: after the grace, refused.
    with svc.receiving("user-italy", deadline - 0.3) as late, pytest.raises(LateSubmissionError):
        await svc.submit(gid, "user-italy", "A ROM - APU", receipt=late)
    clock.advance(POLL)
    await svc.run_due()
    res = await svc.results(gid)
    assert res is not None
    assert res.orders[Power.FRANCE] == ["A PAR - BUR"]


async def test_a_gateway_that_never_answers_holds_the_phase_only_so_long(opener, clock):
    svc = await opener(grace=GRACE)
    gid = await seven_player_game(svc)
    deadline = (await svc.status(gid)).deadline
    svc.follow_gateway(asyncio.Event().wait)  # never answers
    clock.set(deadline + GRACE)
    await svc.run_due()
    assert (await svc.status(gid)).phase_status == "open"
    clock.set(deadline + GRACE + HOLD)
    await svc.run_due()
    assert (await svc.status(gid)).phase == "F1901M"


async def test_without_a_grace_the_gateway_is_not_waited_for(opener, clock):
    svc = await opener(grace=0.0)
    gid = await seven_player_game(svc)
    deadline = (await svc.status(gid)).deadline
    svc.follow_gateway(asyncio.Event().wait)
    clock.set(deadline)
    await svc.run_due()
    assert (await svc.status(gid)).phase == "F1901M"


async def test_a_set_for_a_later_phase_sent_in_time_is_kept_within_the_grace(opener, clock):
    # edc-2023 B: the Winter's orders, labelled, written in the Fall retreat window; judged on
    # time like any other set (sent before the deadline).
    svc = await opener(grace=GRACE, engine=CoreEngine())
    gid = await seven_player_game(svc)
    await to_fall_retreats(svc, clock, gid)
    deadline = (await svc.status(gid)).deadline
    clock.set(deadline + GRACE / 2)
    kept = await svc.submit(gid, "user-france", "W1901A\nA PAR B", sent_at=deadline - 0.3)
    assert kept.message.startswith("Kept for Winter 1901"), kept.message
    with pytest.raises(LateSubmissionError):
        await svc.submit(gid, "user-france", "W1901A\nF BRE B", sent_at=deadline + 0.1)


async def test_a_gateway_that_cannot_be_followed_leaves_the_grace_fixed(opener, clock):
    svc = await opener(grace=GRACE)
    gid = await seven_player_game(svc)
    deadline = (await svc.status(gid)).deadline

    async def unsupported() -> None:
        raise NotImplementedError("no heartbeats here")

    svc.follow_gateway(unsupported)
    clock.set(deadline + GRACE)
    await svc.run_due()
    await asyncio.sleep(0.01)  # (the catch-up gives up at once)
    await svc.run_due()
    assert (await svc.status(gid)).phase == "F1901M"  # no HOLD to wait
