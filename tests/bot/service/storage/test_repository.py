"""The repository against the `Storage` interface, on SQLite and PostgreSQL: rows in, rows
out, transactions."""

from __future__ import annotations

import pytest

from bot.service.storage import Storage
from bot.service.storage.rows import NewGame, NewResult


def _game(name: str = "") -> NewGame:
    return NewGame(name, "gm", "standard", "datc", "casual", "{}", "en", "{}", "{}", 1.0)


@pytest.fixture
async def storage(backend):
    """The repository on both backends (the `backend` fixture of the service tests)."""
    opened = await backend()
    yield opened
    await opened.close()


async def _started(storage: Storage) -> tuple[int, int]:
    async with storage.tx() as tx:
        gid = await tx.add_game(_game())
        pid = await tx.add_phase(gid, "S1901M", "{}", "pending", "reading", 5.0, 1.0)
        await tx.start_game(gid, 2.0, pid)
    return gid, pid


async def test_a_game_without_a_name_is_named_after_its_id(storage: Storage) -> None:
    async with storage.tx() as tx:
        gid = await tx.add_game(_game())
        named = await tx.add_game(_game("Vienna"))
    first, second = await storage.game(gid), await storage.game(named)
    assert (first.name, first.status, first.press_open) == (f"game-{gid}", "forming", True)
    assert second.name == "Vienna"
    assert await storage.game(999) is None


async def test_writes_happen_in_a_transaction_only_and_a_failure_rolls_back(storage) -> None:
    with pytest.raises(TypeError):
        await storage.add_game(_game())

    async def crash() -> None:
        async with storage.tx() as tx:
            await tx.add_game(_game("lost"))
            raise RuntimeError("crash")

    with pytest.raises(RuntimeError):
        await crash()
    assert await storage.game_ids() == []


async def test_players_and_the_current_phase(storage: Storage) -> None:
    gid, pid = await _started(storage)
    async with storage.tx() as tx:
        await tx.add_player(gid, "FRANCE", "u1", 1.0)
        await tx.add_player(gid, "ENGLAND", "u2", 1.0)
        await tx.remove_power(gid, "ENGLAND")
    assert await storage.players(gid) == {"FRANCE": "u1"}
    assert await storage.power_of(gid, "u1") == "FRANCE"
    assert await storage.user_of(gid, "FRANCE") == "u1"
    assert await storage.game_ids_of("u1", include_over=False) == [gid]
    current = await storage.current_phase(gid)
    assert (current.id, current.phase, current.status, current.opens_at) == (
        pid,
        "S1901M",
        "pending",
        5.0,
    )
    async with storage.tx() as tx:
        assert await tx.open_phase(pid, "writing", 5.0, 5.0, 65.0)
        assert not await tx.open_phase(pid, "writing", 6.0, 6.0, 66.0)  # not pending now
    assert (await storage.phase(pid)).deadline == 65.0


async def test_what_stands_is_the_latest_accepted_set_of_each_power(storage: Storage) -> None:
    gid, pid = await _started(storage)
    async with storage.tx() as tx:
        await tx.add_submission(pid, "FRANCE", "u1", "submit", "a", True, "[1]", "{}", 1.0)
        await tx.add_submission(pid, "FRANCE", "u1", "submit", "b", True, "[2]", "{}", 2.0)
        await tx.add_submission(pid, "FRANCE", "u1", "submit", "c", False, "[]", "{}", 3.0)
        await tx.add_submission(pid, "ITALY", "u3", "submit", "d", True, "[3]", "{}", 4.0)
    standing = {s.power: s.text for s in await storage.standing(pid)}
    assert standing == {"FRANCE": "b", "ITALY": "d"}
    history = await storage.submissions_of_game(gid)
    assert [(h.submission.text, h.phase, h.adjudicated) for h in history] == [
        ("a", "S1901M", False),
        ("b", "S1901M", False),
        ("c", "S1901M", False),
        ("d", "S1901M", False),
    ]


async def test_results_the_latest_done_phase_and_the_game_as_played(storage: Storage) -> None:
    gid, pid = await _started(storage)
    async with storage.tx() as tx:
        await tx.add_result(NewResult(pid, '{"o": 1}', "[]", b"png", 9.0, 0.5))
        await tx.mark_phase_done(pid)
        nxt = await tx.add_phase(gid, "F1901M", "{}", "pending", "reading", 10.0, 9.0)
        await tx.set_current_phase(gid, nxt)
    latest = await storage.result(gid, None)
    assert (latest.phase_id, latest.phase, latest.png) == (pid, "S1901M", b"png")
    assert await storage.result(gid + 1, pid) is None  # another game's phase
    async with storage.tx() as tx:
        await tx.roll_back_from(gid, nxt)
    played = await storage.played_phases(gid, adjudicated_only=False)
    assert [(p.phase, p.result is not None) for p in played] == [("S1901M", True)]
    assert [s.status for s in await storage.phase_summaries(gid)] == ["done", "rolled_back"]


async def test_an_event_is_written_once_per_key_and_delivered_once(storage: Storage) -> None:
    gid, pid = await _started(storage)
    async with storage.tx() as tx:
        await tx.add_event("k1", gid, "game_started", "{}", pid, 1.0)
        await tx.add_event("k1", gid, "game_started", '{"again": 1}', pid, 2.0)
        await tx.add_event("k2", gid, "reminder_due", "{}", pid, 2.0, 2.0)  # handled already
    pending = await storage.pending_events()
    assert [(e.key, e.payload_json, e.attempts) for e in pending] == [("k1", "{}", 0)]
    assert await storage.event_keys(gid, pid, "reminder_due") == {"k2"}
    async with storage.tx(durable=False) as tx:
        await tx.count_attempt(pending[0].id)
        await tx.mark_delivered(pending[0].id, 3.0)
    assert not await storage.has_pending_events()
    assert await storage.event_payload("k1") == "{}"


async def test_votebook_audit_and_deliveries(storage: Storage) -> None:
    gid, pid = await _started(storage)
    async with storage.tx() as tx:
        await tx.add_event("k", gid, "game_started", "{}", pid, 1.0)
    event = (await storage.pending_events())[0].id
    async with storage.tx() as tx:
        await tx.save_votebook(gid, '{"votes": []}', 1.0)
        await tx.save_votebook(gid, '{"votes": [1]}', 2.0)
        aid = await tx.add_audit(gid, 1.0, "gm", "pause", "{}")
        assert await tx.begin_delivery(event, "table", gid, None, 1.0)
        assert not await tx.begin_delivery(event, "table", gid, "x", 2.0)
        await tx.record_post(event, "table", 0, "m1", 3.0, last=True)
    assert await storage.votebook(gid) == '{"votes": [1]}'
    assert [(a.id, a.actor, a.action) for a in await storage.audit(gid)] == [(aid, "gm", "pause")]
    done = await storage.delivery(event, "table")
    assert (done.after, done.message_ids, done.delivered) == (None, ("m1",), True)
    assert await storage.claimed_messages(["m1", "m2"]) == {"m1"}


async def test_a_builder_draft_is_kept_replaced_and_dropped(storage: Storage) -> None:
    _, pid = await _started(storage)
    assert await storage.draft(pid, "FRANCE") is None
    async with storage.tx() as tx:
        await tx.set_draft(pid, "FRANCE", '["first"]', 1.0)
        await tx.set_draft(pid, "FRANCE", '["second"]', 2.0)  # an upsert: one draft a power
        await tx.set_draft(pid, "ENGLAND", "[]", 2.0)
    assert await storage.draft(pid, "FRANCE") == '["second"]'
    assert await storage.draft(pid, "ENGLAND") == "[]"
    async with storage.tx() as tx:
        await tx.set_draft(pid, "FRANCE", None, 3.0)
    assert await storage.draft(pid, "FRANCE") is None
    assert await storage.draft(pid, "ENGLAND") == "[]"
