"""The per (event, destination) delivery record (migration 0004)."""

from __future__ import annotations

from bot.service import EventKind
from tests.bot.service.conftest import seven_player_game


async def test_begin_posted_and_resumed(opener) -> None:
    svc = await opener()
    gid = await seven_player_game(svc)
    row = await svc.storage.store.fetchone(
        "SELECT id FROM outbox WHERE kind = ?", (EventKind.GAME_STARTED.value,)
    )
    event = int(row["id"])
    first = await svc.deliveries.begin(event, gid, "table", "100")
    assert (first.resumed, first.delivered, first.message_ids) == (False, False, ())
    await svc.deliveries.posted(event, "table", 0, "111", last=False)
    again = await svc.deliveries.begin(event, gid, "table", "999")
    assert (again.resumed, again.after, again.message_ids) == (True, "100", ("111",))
    assert not again.delivered
    await svc.deliveries.posted(event, "table", 1, "112", last=True)
    done = await svc.deliveries.get(event, "table")
    assert done is not None
    assert (done.delivered, done.message_ids) == (True, ("111", "112"))
    other = await svc.deliveries.begin(event, gid, "spectators", None)
    assert not other.delivered  # each destination is its own unit
    assert await svc.deliveries.claimed(["111", "113"]) == {"111"}
    assert [d.dest for d in await svc.deliveries.of_event(event)] == ["table", "spectators"]


async def test_the_record_survives_a_restart(opener) -> None:
    svc = await opener()
    gid = await seven_player_game(svc)
    await svc.deliveries.begin(1, gid, "dm:7", None)
    await svc.deliveries.posted(1, "dm:7", 0, "5", last=True)
    await svc.close()
    svc2 = await opener()
    found = await svc2.deliveries.get(1, "dm:7")
    assert found is not None
    assert (found.delivered, found.message_ids) == (True, ("5",))
