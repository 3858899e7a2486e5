"""GM and tournament-director operations: only the game's GM, each one in the audit log."""

from __future__ import annotations

import pytest

from bot.core.model import Power
from bot.service import EventKind, InvalidStateError, MemoryNotifier, PermissionDeniedError
from tests.bot.service.conftest import seven_player_game
from tests.standard import STANDARD

GM_OPS = [
    ("pause", ()),
    ("resume", ()),
    ("extend", (60,)),
    ("adjudicate_now", ()),
    ("rollback", ()),
    ("replace_player", (Power.FRANCE, "someone")),
    ("submit_for", (Power.FRANCE, "A PAR H")),
    ("end_game", ()),
    ("audit_log", ()),
    ("start_game", ()),
    ("assign", ("someone", Power.FRANCE)),
]


@pytest.mark.parametrize(("op", "args"), GM_OPS)
async def test_only_the_gm_may(opener, op, args):
    svc = await opener()
    gid = await seven_player_game(svc)
    with pytest.raises(PermissionDeniedError, match="only the GM"):
        await getattr(svc, op)(gid, "user-france", *args)


async def test_pause_freezes_the_clock_and_resume_gives_back_the_time_left(opener, clock):
    notes = MemoryNotifier()
    svc = await opener(notifier=notes)
    gid = await seven_player_game(svc)
    before = await svc.status(gid)
    clock.advance(100)
    await svc.pause(gid, "gm")
    clock.advance(10_000)
    await svc.run_due()
    assert (await svc.status(gid)).phase == "S1901M"  # nothing fired while paused
    await svc.resume(gid, "gm")
    after = await svc.status(gid)
    assert after.deadline == pytest.approx(before.deadline + 10_000)
    assert {"game_paused", "game_resumed"} <= set(notes.kinds())
    actions = [a.action for a in await svc.audit_log(gid, "gm")]
    assert "pause" in actions
    assert "resume" in actions


async def test_extend_moves_the_deadline(opener, clock):
    svc = await opener()
    gid = await seven_player_game(svc)
    old = (await svc.status(gid)).deadline
    new = await svc.extend(gid, "gm", 120)
    assert new == old + 120
    clock.set(old)
    await svc.run_due()
    assert (await svc.status(gid)).phase_status == "open"


async def test_adjudicate_now_then_roll_back_reopens_the_phase_with_its_orders(opener, clock):
    notes = MemoryNotifier()
    svc = await opener(notifier=notes)
    gid = await seven_player_game(svc)
    await svc.submit(gid, "user-france", "A PAR - BUR")
    await svc.adjudicate_now(gid, "gm")
    assert (await svc.status(gid)).phase == "F1901M"
    assert notes.kinds().count("results_ready") == 1
    assert await svc.rollback(gid, "gm") == "S1901M"
    await svc.run_due()
    st = await svc.status(gid)
    assert (st.phase, st.phase_status) == ("S1901M", "open")
    assert (await svc.my_orders(gid, "user-france")).orders == ["A PAR - BUR"]
    await svc.submit(gid, "user-france", "A PAR - PIC")
    await svc.adjudicate_now(gid, "gm")
    res = await svc.results(gid)
    assert res.orders[Power.FRANCE] == ["A PAR - PIC"]
    assert notes.kinds().count("results_ready") == 2
    assert "phase_rolled_back" in notes.kinds()


async def test_gm_enters_orders_for_a_power_and_replaces_a_player(opener):
    notes = MemoryNotifier()
    svc = await opener(notifier=notes)
    gid = await seven_player_game(svc)
    reply = await svc.submit_for(gid, "gm", "france", "A PAR - BUR")
    assert reply.accepted
    assert (await svc.my_orders(gid, "user-france")).orders == ["A PAR - BUR"]
    await svc.replace_player(gid, "gm", Power.FRANCE, "newcomer")
    assert (await svc.status(gid)).players[Power.FRANCE] == "newcomer"
    assert (await svc.my_orders(gid, "newcomer")).orders == ["A PAR - BUR"]
    with pytest.raises(PermissionDeniedError):
        await svc.my_orders(gid, "user-france")
    replaced = [e for e in notes.events if e.kind is EventKind.PLAYER_REPLACED]
    assert replaced[0].payload["old_user"] == "user-france"


async def test_end_game(opener):
    notes = MemoryNotifier()
    svc = await opener(notifier=notes)
    gid = await seven_player_game(svc)
    await svc.end_game(gid, "gm", "draw agreed at the table")
    st = await svc.status(gid)
    assert (st.status, st.end_reason) == ("over", "draw agreed at the table")
    assert notes.kinds().count("game_over") == 1
    with pytest.raises(InvalidStateError):
        await svc.submit(gid, "user-france", "A PAR H")


async def test_early_adjudication_when_every_player_is_ready(opener, clock):
    notes = MemoryNotifier()
    svc = await opener(notifier=notes)
    gid = await seven_player_game(svc, clock="casual")
    st = await svc.status(gid)
    assert st.early_adjudication
    users = list(st.players.values())
    for user in users[:-1]:
        assert not await svc.set_ready(gid, user)
    assert await svc.set_ready(gid, users[-1])
    assert notes.kinds().count("results_ready") == 1
    assert (await svc.status(gid)).phase == "F1901M"


async def test_join_choices_and_leave(opener):
    svc = await opener()
    g = await svc.create_game("gm", clock="casual")
    assert await svc.join(g.id, "a", "Allemagne") is Power.GERMANY
    with pytest.raises(InvalidStateError, match="already taken"):
        await svc.join(g.id, "b", Power.GERMANY)
    with pytest.raises(InvalidStateError, match="already play"):
        await svc.join(g.id, "a")
    random_power = await svc.join(g.id, "b")
    assert random_power is not Power.GERMANY
    free = next(p for p in STANDARD.powers if p not in {Power.GERMANY, random_power})
    assert await svc.assign(g.id, "gm", "c", free) is free
    assert await svc.leave(g.id, "a") is Power.GERMANY
    players = (await svc.status(g.id)).players
    assert set(players.values()) == {"b", "c"}
    # A player may play in several games at once.
    g2 = await svc.create_game("gm2", clock="edc2023")
    await svc.join(g2.id, "b", Power.ITALY)
    assert [s.id for s in await svc.games_of("b")] == [g.id, g2.id]


async def test_a_rolled_back_phase_reopens_with_the_same_orders_once(opener):
    svc = await opener()
    gid = await seven_player_game(svc)
    await svc.submit(gid, "user-france", "A PAR H")
    await svc.adjudicate_now(gid, "gm")
    await svc.rollback(gid, "gm")
    assert [(p.phase, p.status) for p in await svc.phases(gid)] == [
        ("S1901M", "rolled_back"),
        ("F1901M", "rolled_back"),
        ("S1901M", "pending"),
    ]
    assert await svc.power_of(gid, "user-france") is Power.FRANCE
    assert await svc.power_of(gid, "gm") is None


async def test_every_gm_operation_is_in_the_audit_log_with_the_gm_as_actor(opener):
    svc = await opener()
    gid = await seven_player_game(svc)
    await svc.pause(gid, "gm")
    await svc.resume(gid, "gm")
    await svc.extend(gid, "gm", 30)
    await svc.submit_for(gid, "gm", Power.ITALY, "A VEN H")
    await svc.replace_player(gid, "gm", Power.ITALY, "sub")
    await svc.adjudicate_now(gid, "gm")
    await svc.rollback(gid, "gm")
    await svc.end_game(gid, "gm", "time")
    by_gm = {a.action for a in await svc.audit_log(gid, "gm") if a.actor == "gm"}
    assert by_gm >= {
        "create",
        "start",
        "pause",
        "resume",
        "extend",
        "orders.gm",
        "replace_player",
        "adjudicate_now",
        "rollback",
        "game_over",
    }


async def test_reminders_come_again_before_an_extended_deadline(opener, clock):
    notes = MemoryNotifier()
    svc = await opener(notifier=notes)
    gid = await seven_player_game(svc, clock_overrides={"reminders": ["30s"]})
    deadline = (await svc.status(gid)).deadline
    clock.set(deadline - 30)
    await svc.run_due()
    await svc.extend(gid, "gm", 120)
    clock.set(deadline + 90)
    await svc.run_due()
    assert notes.kinds().count("reminder_due") == 2
    assert (await svc.status(gid)).phase == "S1901M"
