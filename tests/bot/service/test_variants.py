"""Variants through the table service: the test-only three-power variant and Sandard, created,
joined, started, ordered and adjudicated with the real core."""

from __future__ import annotations

import pytest

from bot.core.model import Power
from bot.service import EventKind, InvalidStateError, MemoryNotifier, ServiceError
from bot.service.engine import CoreEngine
from tests.variants import TRI_PATH

NORTH, EAST, WEST = Power("NORTH"), Power("EAST"), Power("WEST")


async def test_the_test_variant_is_played_through_the_service(opener) -> None:
    notes = MemoryNotifier()
    svc = await opener(engine=CoreEngine(), notifier=notes)
    game = await svc.create_game("gm", variant=str(TRI_PATH), clock="casual")
    assert await svc.join(game.id, "u-north", "Nord") is NORTH
    assert await svc.join(game.id, "u-east", "east") is EAST
    with pytest.raises(ServiceError):
        await svc.join(game.id, "u-x", "France")  # not a power of this variant
    assert await svc.join(game.id, "u-west") is WEST  # the last free one
    await svc.start_game(game.id, "gm")
    await svc.run_due()
    st = await svc.status(game.id)
    assert st.phase == "S1901M"
    assert set(st.to_order) == {NORTH, EAST, WEST}

    reply = await svc.submit(game.id, "u-west", "A Willow - Waste\nF WES - CLD")
    assert reply.accepted
    assert (await svc.submit(game.id, "u-east", "F EAS - CLD")).accepted
    assert (await svc.submit(game.id, "u-north", "F NOR - CSE")).accepted
    await svc.adjudicate_now(game.id, "gm")
    results = [e for e in notes.events if e.kind is EventKind.RESULTS_READY]
    assert len(results) == 1
    assert results[0].png is not None  # drawn with the variant's geometry
    st = await svc.status(game.id)
    assert st.phase == "F1901M"
    assert st.centers == {NORTH: 2, EAST: 2, WEST: 2}
    assert st.units == {NORTH: 2, EAST: 2, WEST: 2}


async def test_a_french_order_names_the_owner_with_the_variants_adjective(opener) -> None:
    svc = await opener(engine=CoreEngine())
    game = await svc.create_game("gm", variant=str(TRI_PATH), lang="fr", rules="edc2023")
    for user in ("u-n", "u-e", "u-w"):
        await svc.join(game.id, user)
    await svc.start_game(game.id, "gm")
    await svc.run_due()
    players = (await svc.status(game.id)).players
    west = players[WEST]
    reply = await svc.submit(game.id, west, "F EAS - CLD")
    assert any("orientale" in line for line in [*reply.errors, *reply.warnings]), reply


async def test_sandard_seats_six_and_refuses_turkey(opener) -> None:
    svc = await opener(engine=CoreEngine())
    game = await svc.create_game("gm", variant="sandard")
    with pytest.raises(InvalidStateError):
        await svc.join(game.id, "u-t", Power.TURKEY)
    for i in range(6):
        await svc.join(game.id, f"u{i}")
    with pytest.raises(InvalidStateError):
        await svc.join(game.id, "u6")  # all six taken
    await svc.start_game(game.id, "gm")
    await svc.run_due()
    st = await svc.status(game.id)
    assert Power.TURKEY not in st.to_order
    assert len(st.to_order) == 6
    assert sum(st.centers.values()) == 19


async def test_an_unknown_variant_is_refused_and_creates_nothing(opener) -> None:
    svc = await opener(engine=CoreEngine())
    with pytest.raises(ServiceError):
        await svc.create_game("gm", variant="atlantis")
    assert await svc.storage.store.fetchall("SELECT id FROM games") == []
