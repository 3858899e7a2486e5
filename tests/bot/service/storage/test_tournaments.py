"""The tournament statements (migration 0005) on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from bot.service.storage import Storage
from bot.service.storage.rows import NewGame
from bot.service.storage.tournaments import MarkRow, NewTournament, RoundRow, TableRow


@pytest.fixture
async def storage(backend):
    opened = await backend()
    yield opened
    await opened.close()


def _new(name: str = "EDC") -> NewTournament:
    return NewTournament(
        name, "td", "1", "2", "edc2023", "edc2023", "edc2023", "edc2023", "fr", "[]", "[]", 1.0
    )


async def test_tournaments_entries_rounds_tables_and_marks(storage: Storage) -> None:
    async with storage.tx() as tx:
        tid = await tx.add_tournament(_new())
        other = await tx.add_tournament(_new("other"))
        await tx.mark_entry(tid, 1, "ann", "preregistered_at", 5.0)
        await tx.mark_entry(tid, 1, "ann", "registered_at", 6.0)
        await tx.set_request(tid, 1, "ann", "withdraw")
        await tx.mark_entry(tid, 1, "bob", "checked_in_at", 7.0)
        await tx.put_round(tid, RoundRow(1, 100.0, "seated", '{"x": 1}', None, False))
        await tx.put_round(tid, RoundRow(1, 100.0, "running", '{"x": 1}', 120.0, False))
        gid = await tx.add_game(
            NewGame("t1", "td", "standard", "datc", "casual", "{}", "en", "{}", "{}", 1.0)
        )
        await tx.put_table(tid, TableRow(1, 1, "standard", "[]", gid, "55", None, None, None))
        await tx.put_table(tid, TableRow(1, 2, "sandard", "[]", None, None, None, None, None))
        await tx.add_mark(tid, MarkRow("bob", "penalty", 1, -1.0, "late", 9.0))
    assert other == tid + 1
    t = await storage.tournament(tid)
    assert t is not None
    assert (t.name, t.status, t.lang, t.final_table) == ("EDC", "open", "fr", None)
    [ann, bob] = await storage.entries(tid)
    assert (ann.user_id, ann.preregistered_at, ann.registered_at, ann.request) == (
        "ann",
        5.0,
        6.0,
        "withdraw",
    )
    assert (bob.checked_in_at, bob.preregistered_at) == (7.0, None)
    [r1] = await storage.rounds(tid)
    assert (r1.status, r1.started_at, r1.is_final) == ("running", 120.0, False)
    assert await storage.table_of_game(gid) == (tid, 1, 1)
    async with storage.tx() as tx:
        assert await tx.record_table_result(tid, 1, 1, '{"ann": 20}', '{"ann": 9}', 50.0)
        assert not await tx.record_table_result(tid, 1, 1, '{"ann": 0}', "{}", 51.0)
        await tx.delete_tables(tid, 1)  # only the proposed (gameless) table goes
        await tx.set_final(tid, 3, "ann")
        await tx.set_tournament_status(tid, "over")
    [table] = await storage.tables(tid)
    assert (table.scores_json, table.ended_at, table.thread_id) == ('{"ann": 20}', 50.0, "55")
    assert await storage.marks(tid) == [MarkRow("bob", "penalty", 1, -1.0, "late", 9.0)]
    assert await storage.tournament_ids(include_over=False) == [other]
    t = await storage.tournament(tid)
    assert t is not None
    assert (t.final_table, t.final_winner) == (3, "ann")
