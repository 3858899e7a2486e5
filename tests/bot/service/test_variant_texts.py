"""The service names places and powers from the game's own variant: a French game of the
test-only `tri` variant (French abbreviations and names, powers Nord/Est/Ouest)."""

from __future__ import annotations

import pytest

from bot.core.map import load_map
from bot.core.model import Power
from bot.service import EventKind, InvalidStateError, MemoryNotifier
from bot.service.engine import CoreEngine
from bot.service.texts import named, t
from tests.variants import TRI_PATH, tri

NORTH = Power("NORTH")


async def test_a_french_tri_game_reads_and_explains_in_tri_names(opener) -> None:
    notes = MemoryNotifier()
    svc = await opener(engine=CoreEngine(), notifier=notes)
    game = await svc.create_game("gm", variant=str(TRI_PATH), lang="fr", clock="casual")
    await svc.join(game.id, "u-n", "Nord")
    with pytest.raises(InvalidStateError) as taken:
        await svc.join(game.id, "u-x", "north")
    assert taken.value.message == "Nord est déjà prise dans la partie n°1"
    assert str(taken.value) == "NORTH is already taken in game #1"  # English keeps the id
    await svc.join(game.id, "u-e", "EAST")
    await svc.join(game.id, "u-w", "WEST")
    await svc.start_game(game.id, "gm")
    await svc.run_due()
    reply = await svc.submit(game.id, "u-w", "F PLO - MFR\nA SAU S A MES")
    assert reply.orders == ["F PLO - MFR", "A SAU S A MES"]  # read back in tri's French
    await svc.submit(game.id, "u-e", "F EAS - CLD")
    await svc.adjudicate_now(game.id, "gm")
    (results,) = [e for e in notes.events if e.kind is EventKind.RESULTS_READY]
    lines = {line["order"]: line for line in results.payload["lines"]}
    assert lines["F MES - MFR"]["reason"] == "bounced"
    assert lines["A SAU S F MES"]["detail"] == (
        "A SAU ne peut pas soutenir Marche de l'Est : elle ne pourrait pas y aller"
    )
    assert lines["F NDL T"]["implied"]


def test_a_power_parameter_is_named_by_its_variant() -> None:
    assert t("power_taken", "fr", power=named(tri(), NORTH), game=3).startswith("Nord ")
    assert t("power_taken", "en", power=named(tri(), NORTH), game=3).startswith("NORTH ")
    std = load_map("standard")
    assert t("power_taken", "fr", power=named(std, Power.GERMANY), game=3).startswith("Allemagne ")
    assert t("power_taken", "en", power=named(std, Power.GERMANY), game=3).startswith("GERMANY ")
