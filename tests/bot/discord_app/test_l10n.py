"""What the bot says itself about a bad power name or a service refusal, in the game's language."""

from __future__ import annotations

import pytest

from bot.core.model import Power
from bot.discord_app.interactions import Refusal, describe_refusal, parse_power
from bot.service.errors import NotFoundError, PermissionDeniedError


@pytest.mark.parametrize(
    ("lang", "start"),
    [("en", "Unknown power 'Prusse'"), ("fr", "Puissance inconnue « Prusse »")],
)
def test_an_unknown_power_is_refused_in_the_game_language(lang, start):
    with pytest.raises(Refusal) as info:
        parse_power("Prusse", lang, "standard")
    assert info.value.message.startswith(start)


def test_a_power_is_read_in_either_language():
    assert parse_power("Allemagne", "en", "standard") is Power.GERMANY
    assert parse_power("germany", "fr", "standard") is Power.GERMANY


def test_a_power_is_read_in_the_games_variant():
    with pytest.raises(Refusal):  # Turkey does not play on the six-player board
        parse_power("Turquie", "fr", "sandard")


def test_a_service_refusal_is_shown_in_the_game_language():
    exc = PermissionDeniedError.of("gm_only", "fr", game=3)
    assert describe_refusal(exc) == "seul le MJ de la partie n°3 peut faire cela"
    assert describe_refusal(NotFoundError.of("no_game", game=9)) == "no game #9"
    # no game known: the user's own language
    assert describe_refusal(NotFoundError.of("no_game", game=9), "fr") == "pas de partie n°9"
    assert describe_refusal(PermissionDeniedError.of("gm_only", "en", game=3), "fr") == (
        "only the GM of game #3 can do that"
    )
