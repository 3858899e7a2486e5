"""End-game votes through the service: secret ballots kept across restarts, the rules of
edc-2023 E and house-rules IX, and the game ending on a passed vote."""

from __future__ import annotations

import pytest

from bot.core.model import Power
from bot.service import EventKind, MemoryNotifier, PermissionDeniedError
from bot.service.errors import VoteRefusedError
from tests.bot.service.conftest import SEVEN, seven_player_game
from tests.bot.service.faults import crash
from tests.standard import STANDARD

OTHERS = [u for u in SEVEN if u != "user-france"]


def _events(notes, kind):
    return [e for e in notes.events if e.kind is kind]


async def test_edc_draw_passes_at_the_last_yes_and_ends_the_game(opener):
    notes = MemoryNotifier()
    svc = await opener(notifier=notes)
    gid = await seven_player_game(svc, rules="edc2023")
    rec = await svc.propose_vote(gid, "user-france", "draw")
    assert rec["status"] == "open"
    assert "author" not in rec
    assert sorted(rec["powers"]) == sorted(p.value for p in STANDARD.powers)
    await svc.cast_ballot(gid, "user-france", rec["id"], "yes")
    for user in OTHERS[:-1]:
        assert (await svc.cast_ballot(gid, user, rec["id"], "yes"))["status"] == "open"
    final = await svc.cast_ballot(gid, OTHERS[-1], rec["id"], "yes")
    assert final["status"] == "passed"
    st = await svc.status(gid)
    assert (st.status, st.end_reason) == ("over", "draw")
    [over] = _events(notes, EventKind.GAME_OVER)
    assert "draw" in over.payload["explanation"]
    # Nobody learns who proposed or who voted what.
    for e in _events(notes, EventKind.VOTE_OPENED) + _events(notes, EventKind.VOTE_CLOSED):
        assert "user-" not in repr(e.payload)
        assert "author" not in e.payload["record"]


async def test_edc_one_no_ends_the_vote_at_once_and_one_request_per_player(opener):
    notes = MemoryNotifier()
    svc = await opener(notifier=notes)
    gid = await seven_player_game(svc, rules="edc2023")
    rec = await svc.propose_vote(gid, "user-france", "draw")
    with pytest.raises(VoteRefusedError, match="abstention"):
        await svc.cast_ballot(gid, "user-italy", rec["id"], "abstain")
    closed = await svc.cast_ballot(gid, "user-turkey", rec["id"], "no")
    assert closed["status"] == "failed"
    assert (await svc.status(gid)).status == "active"
    with pytest.raises(VoteRefusedError, match="already"):
        await svc.propose_vote(gid, "user-england", "draw")  # one vote per season


async def test_house_uncast_ballots_count_against_at_the_deadline_counts_published(opener, clock):
    notes = MemoryNotifier()
    svc = await opener(notifier=notes)
    gid = await seven_player_game(svc, rules="house")
    rec = await svc.propose_vote(gid, "user-england", "concede", [Power.FRANCE])
    await svc.cast_ballot(gid, "user-germany", rec["id"], "yes")
    await svc.cast_ballot(gid, "user-italy", rec["id"], "abstain")
    await svc.cast_ballot(gid, "user-italy", rec["id"], "yes")  # revised (IX(4))
    clock.set((await svc.status(gid)).deadline)
    await svc.run_due()
    [closed] = _events(notes, EventKind.VOTE_CLOSED)
    record = closed.payload["record"]
    assert record["status"] == "failed"
    # France is held to vote yes (IX(1)); England, Germany, Italy did not all...
    assert record["counts"]["yes"] == 3
    assert record["counts"]["no"] == 4
    assert len(_events(notes, EventKind.RESULTS_READY)) == 1  # the game goes on
    assert (await svc.status(gid)).phase == "F1901M"


async def test_house_vote_passed_at_the_deadline_replaces_the_adjudication(opener, clock):
    notes = MemoryNotifier()
    svc = await opener(notifier=notes)
    gid = await seven_player_game(svc, rules="house")
    rec = await svc.propose_vote(gid, "user-england", "draw", [Power.ENGLAND, Power.FRANCE])
    for user in SEVEN:
        if user != "user-russia":
            await svc.cast_ballot(gid, user, rec["id"], "yes")
    await svc.cast_ballot(gid, "user-russia", rec["id"], "abstain")
    assert (await svc.status(gid)).status == "active"  # due with the orders, not before
    clock.set((await svc.status(gid)).deadline)
    await svc.run_due()
    st = await svc.status(gid)
    assert (st.status, st.end_reason) == ("over", "draw")
    assert _events(notes, EventKind.RESULTS_READY) == []


async def test_ballots_survive_a_restart(opener):
    svc = await opener()
    gid = await seven_player_game(svc, rules="edc2023")
    rec = await svc.propose_vote(gid, "user-france", "draw")
    await svc.cast_ballot(gid, "user-italy", rec["id"], "yes")
    crash(svc)
    svc2 = await opener()
    assert (await svc2.votes(gid))[0]["status"] == "open"
    with pytest.raises(VoteRefusedError, match="already voted"):
        await svc2.cast_ballot(gid, "user-italy", rec["id"], "no")


async def test_only_players_vote_and_only_the_gm_refuses(opener):
    svc = await opener()
    gid = await seven_player_game(svc, rules="house")
    with pytest.raises(PermissionDeniedError):
        await svc.propose_vote(gid, "stranger", "draw")
    rec = await svc.propose_vote(gid, "user-france", "draw")
    with pytest.raises(PermissionDeniedError):
        await svc.refuse_vote(gid, "user-italy", rec["id"], "again?")
    await svc.refuse_vote(gid, "gm", rec["id"], "repetitive")
    assert (await svc.votes(gid))[0]["status"] == "refused"
