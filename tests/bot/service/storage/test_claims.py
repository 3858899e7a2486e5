"""Claims with leases and the shared rate slots (migration 0007), on both backends: the
same statements; SQLite's single process claims trivially but by the same rules."""

from __future__ import annotations

from typing import Any

import pytest

from bot.service.storage import Storage
from bot.service.storage.claims import CLOCK, FULL, LANE, OUTRANKED, TAKEN
from tests.bot.service.storage.test_repository import _started


@pytest.fixture
async def storage(backend):
    opened = await backend()
    yield opened
    await opened.close()


async def test_a_claim_is_one_owners_until_its_lease_ends(storage: Storage) -> None:
    gid, phase_id = await _started(storage)
    async with storage.tx() as tx:
        assert await tx.claim(gid, CLOCK, "a", now=100.0, until=130.0) is None
        assert await tx.claim(gid, CLOCK, "b", now=101.0, until=131.0) == 130.0
        assert await tx.claim(gid, CLOCK, "a", now=102.0, until=132.0) is None  # its own
        assert await tx.claim(gid, LANE, "b", now=102.0, until=132.0) is None  # another kind
    claim = await storage.claim_of(gid, CLOCK)
    assert claim is not None
    assert (claim.claimed_by, claim.lease_until, claim.phase_id) == ("a", 132.0, phase_id)
    async with storage.tx() as tx:
        assert await tx.renew_claims("a", 200.0) == 1
        assert await tx.claim(gid, CLOCK, "b", now=150.0, until=180.0) == 200.0
        assert await tx.claim(gid, CLOCK, "b", now=200.5, until=230.0) is None  # a died
        await tx.release_claim(gid, CLOCK, "a")  # (not a's any more: nothing happens)
    claim = await storage.claim_of(gid, CLOCK)
    assert claim is not None
    assert claim.claimed_by == "b"
    async with storage.tx() as tx:
        await tx.release_claim(gid, CLOCK, "b")
        assert await tx.claim(gid, CLOCK, "c", now=201.0, until=231.0) is None


async def test_rate_slots_count_requests_per_slot(storage: Storage) -> None:
    async with storage.tx() as tx:
        taken = [await tx.take_rate_slot(7, 3) for _ in range(5)]
        assert taken == [True, True, True, False, False]
        assert await tx.take_rate_slot(8, 3)
        await tx.drop_rate_slots(8)
        assert await tx.take_rate_slot(7, 3)  # slot 7 forgotten: counted anew


async def test_a_rate_turn_goes_to_the_most_urgent_live_demand(storage: Storage) -> None:
    def turn(owner: str, level: int, now: float) -> dict[str, Any]:
        return {"owner": owner, "level": level, "now": now, "until": now + 0.3}

    async with storage.tx() as tx:
        assert await tx.take_rate_turn(1, 10, **turn("a", 3, 100.0)) == TAKEN  # DMs, alone
        assert await tx.take_rate_turn(1, 10, **turn("b", 0, 100.1)) == TAKEN  # results
        assert await tx.take_rate_turn(1, 10, **turn("a", 3, 100.2)) == OUTRANKED
        assert await tx.take_rate_turn(1, 10, **turn("a", 0, 100.2)) == TAKEN  # as urgent
        assert await tx.take_rate_turn(1, 10, **turn("a", 3, 100.3)) == OUTRANKED
        assert await tx.take_rate_turn(1, 10, **turn("a", 3, 100.41)) == TAKEN  # b's lapsed
        assert await tx.take_rate_turn(1, 10, **turn("b", 2, 100.5)) == TAKEN  # a's is less
        assert await tx.take_rate_turn(1, 5, **turn("b", 2, 100.5)) == FULL  # five in slot 1
