"""The status boards' rows (issue 31, migration 0016) on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from bot.service.storage import Storage
from bot.service.storage.boards import BoardRow
from tests.bot.service.storage.test_repository import _game


@pytest.fixture
async def storage(backend):
    opened = await backend()
    yield opened
    await opened.close()


async def test_a_board_is_kept_replaced_and_dropped(storage: Storage) -> None:
    async with storage.tx() as tx:
        gid = await tx.add_game(_game())
    assert await storage.status_board(gid) is None
    first = BoardRow(gid, "100", "200", "abc", 1.5)
    async with storage.tx() as tx:
        await tx.set_status_board(first)
    assert await storage.status_board(gid) == first
    again = BoardRow(gid, "100", "300", "def", 2.5)  # posted again after a deletion
    async with storage.tx() as tx:
        await tx.set_status_board(again)
    assert await storage.status_board(gid) == again
    async with storage.tx() as tx:
        await tx.drop_status_board(gid)
    assert await storage.status_board(gid) is None
