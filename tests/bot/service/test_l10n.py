"""Every message the service shows a player, in the game's language (English or French)."""

from __future__ import annotations

import string

import pytest

from bot.core.model import Phase, Position, Power, Unit
from bot.service import texts
from bot.service.engine import CoreEngine
from bot.service.errors import InvalidStateError, NotFoundError, PermissionDeniedError
from bot.service.storage.codec import outcome_from_json, outcome_to_json
from tests.bot.service.conftest import seven_player_game
from tests.standard import parse_orders


def _fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


def test_every_service_text_is_in_both_languages_with_the_same_fields():
    for key in texts.keys():  # noqa: SIM118 - a function, not a dict
        forms = texts.forms(key)
        assert set(forms) == {"en", "fr"}, key
        assert _fields(forms["en"]) == _fields(forms["fr"]), key


async def test_errors_are_in_the_game_language(opener):
    svc = await opener(engine=CoreEngine())
    gid = await seven_player_game(svc, lang="fr")
    with pytest.raises(PermissionDeniedError) as info:
        await svc.submit(gid, "a stranger", "A PAR - BOU")
    assert info.value.message == f"vous ne jouez pas dans la partie n°{gid}"
    assert str(info.value) == f"you do not play in game #{gid}"  # logs stay English
    with pytest.raises(PermissionDeniedError) as info:
        await svc.pause(gid, "user-france")
    assert info.value.message == f"seul le MJ de la partie n°{gid} peut faire cela"


async def test_errors_stay_english_in_an_english_game(opener):
    svc = await opener(engine=CoreEngine())
    gid = await seven_player_game(svc, lang="en")
    with pytest.raises(PermissionDeniedError) as info:
        await svc.submit(gid, "a stranger", "A PAR - BUR")
    assert info.value.message == f"you do not play in game #{gid}"
    with pytest.raises(NotFoundError) as nf:
        await svc.status(gid + 100)
    # no game, no game language: English, and the bot may ask for the user's language
    assert nf.value.message == f"no game #{gid + 100}"
    assert nf.value.localized("fr") == f"pas de partie n°{gid + 100}"


async def test_a_power_in_a_french_error_is_named_in_french(opener):
    svc = await opener(engine=CoreEngine())
    status = await svc.create_game("gm", name="t", lang="fr", clock="edc2023")
    await svc.join(status.id, "u1", Power.GERMANY)
    with pytest.raises(InvalidStateError) as info:
        await svc.join(status.id, "u2", Power.GERMANY)
    assert info.value.message == f"Allemagne est déjà prise dans la partie n°{status.id}"
    assert str(info.value) == f"GERMANY is already taken in game #{status.id}"


async def test_results_explain_failures_in_the_game_language(opener):
    svc = await opener(engine=CoreEngine())
    gid = await seven_player_game(svc, lang="fr")
    await svc.submit(gid, "user-france", "A PAR - PIC\nA TOU S A PAR - BOU\nF BRE T")
    await svc.adjudicate_now(gid, "gm")
    res = await svc.results(gid)
    assert res is not None
    line = next(x for x in res.lines if x["order"] == "A TOU S A PAR - BOU")
    assert line["detail"] == "A PAR n'a pas reçu l'ordre d'aller en BOU (A PAR - PIC)"


async def test_results_in_an_english_game_keep_the_english_detail(opener):
    svc = await opener(engine=CoreEngine())
    gid = await seven_player_game(svc, lang="en")
    await svc.submit(gid, "user-france", "A PAR - PIC\nA MAR S A PAR - BUR\nF BRE H")
    await svc.adjudicate_now(gid, "gm")
    res = await svc.results(gid)
    assert res is not None
    line = next(x for x in res.lines if x["order"] == "A MAR S A PAR - BUR")
    assert line["detail"] == "A PAR was not ordered to move to BUR (A PAR - PIC)"


def test_a_result_message_survives_the_stored_outcome():
    from bot.core.outcome import describe  # noqa: PLC0415
    from tests.standard import adjudicate  # noqa: PLC0415

    pos = Position.build(
        Phase.parse("S1901M"),
        [Unit.parse(Power.GERMANY, "A MUN"), Unit.parse(Power.FRANCE, "A BUR")],
        {},
    )
    given = parse_orders("A MUN S A KIE - BER", power=Power.GERMANY, position=pos).orders
    given += parse_orders("A BUR - MUN", power=Power.FRANCE, position=pos).orders
    outcome = adjudicate(pos, given)
    back = outcome_from_json(outcome_to_json(outcome))
    assert back == outcome
    assert [describe(r, "fr") for r in back.results] == [describe(r, "fr") for r in outcome.results]
    assert any(r.message is not None for r in back.results)


@pytest.mark.parametrize(
    ("lang", "text", "expected"),
    [
        ("en", "F STP B", ["St Petersburg has two coasts: write F STP/NC B or F STP/SC B"]),
        ("fr", "F STP B", ["Saint-Pétersbourg a deux côtes : écrivez F STP/CN B ou F STP/CS B"]),
        ("fr", "F ESP B", ["Espagne a deux côtes : écrivez F ESP/CN B ou F ESP/CS B"]),
        ("en", "F STP/NC B", []),
        ("en", "A STP B", []),
    ],
)
async def test_fleet_build_without_coast_is_warned(opener, lang, text, expected):
    svc = await opener(engine=CoreEngine())
    gid = await seven_player_game(svc, lang=lang)
    ctx = await svc.table.load_ctx(gid)
    pos = Position.build(
        Phase.parse("W1901A"),
        [Unit.parse(Power.RUSSIA, "A MOS")],
        {"STP": Power.RUSSIA, "MOS": Power.RUSSIA, "SPA": Power.RUSSIA},
    )
    parsed = parse_orders(text, lang=lang, power=Power.RUSSIA, position=pos)
    assert not parsed.errors
    warnings = svc.orders._warnings(ctx, pos, Power.RUSSIA, list(parsed.orders))
    assert [w for w in warnings if "côtes" in w or "coasts" in w] == expected


async def test_a_vote_refusal_is_in_the_game_language(opener):
    from bot.service.errors import VoteRefusedError  # noqa: PLC0415

    svc = await opener()
    gid = await seven_player_game(svc, rules="edc2023", lang="fr")
    rec = await svc.propose_vote(gid, "user-france", "draw")
    with pytest.raises(VoteRefusedError) as info:
        await svc.cast_ballot(gid, "user-italy", rec["id"], "abstain")
    assert info.value.message == "règles edc2023 : pas d'abstention, votez oui ou non"
    assert str(info.value) == "edc2023 rules: no abstention, vote yes or no"
    with pytest.raises(VoteRefusedError) as info:
        await svc.cast_ballot(gid, "user-italy", rec["id"], "peut-être")
    assert info.value.message.startswith("bulletin inconnu 'peut-être'")


async def test_a_bad_clock_at_creation_is_refused_in_the_new_game_language(opener):
    from bot.service.errors import ConfigError  # noqa: PLC0415

    svc = await opener()
    with pytest.raises(ConfigError) as info:
        await svc.create_game("gm", name="t", lang="fr", clock="lente")
    assert info.value.message.startswith("horloge 'lente' introuvable")
    assert "edc2023" in info.value.message
    assert str(info.value).startswith("clock preset 'lente' not found")
    with pytest.raises(ConfigError) as info:
        await svc.create_game("gm", name="t", lang="en", clock="slow")
    assert info.value.message.startswith("clock preset 'slow' not found")
