"""Settings from Discord (bot.service.games.settings): the clock text of /game create, the scoring
system, and the settings a new table is told."""

from __future__ import annotations

import pytest

from bot.service import ConfigError
from bot.service.games.settings import check_scoring, parse_times


def test_clock_text_sets_the_movement_windows_and_the_other_phases() -> None:
    got = parse_times("negotiation: 10m writing: 2m reading: 3m retreats: 90s adjustments: 1h")
    move = {"negotiation": 600.0, "writing": 120.0, "reading": 180.0}
    assert got == {
        "spring_movement": move,
        "fall_movement": move,
        "spring_retreat": {"writing": 90.0},
        "fall_retreat": {"writing": 90.0},
        "winter_adjustment": {"writing": 3600.0},
    }


def test_clock_text_in_french_with_commas() -> None:
    got = parse_times("négociation=1h, écriture: 2m")
    assert got["fall_movement"] == {"negotiation": 3600.0, "writing": 120.0}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("negociaton: 3m", "did you mean 'negotiation'?"),
        ("lunch: 3m", "choose negotiation, writing, reading, retreats, adjustments"),
        ("10m", "write e.g. negotiation: 10m"),
        ("writing: soon", "not a duration: 'soon'"),
    ],
)
def test_bad_clock_text_is_refused_with_a_hint(text: str, expected: str) -> None:
    with pytest.raises(ConfigError) as err:
        parse_times(text)
    assert expected in str(err.value)


def test_scoring_system_is_checked() -> None:
    assert check_scoring("carnage") == "carnage"
    with pytest.raises(ConfigError, match="did you mean 'carnage'"):
        check_scoring("carnag")


async def test_a_new_game_reads_back_its_settings(opener) -> None:
    svc = await opener()
    overrides = {**parse_times("negotiation: 10m writing: 2m reading: 3m"), "years": 4}
    game = await svc.create_game(
        "gm", name="t", clock="casual", clock_overrides=overrides, meta={"scoring": "carnage"}
    )
    s = await svc.game_settings(game.id)
    assert (s.negotiation, s.writing, s.reading, s.years) == (600.0, 120.0, 180.0, 4)
    assert (s.scoring, s.rules, s.variant, s.clock) == (
        "carnage",
        "datc",
        "standard",
        "casual+custom",
    )


async def test_an_unknown_scoring_system_creates_no_game(opener) -> None:
    svc = await opener()
    with pytest.raises(ConfigError, match="unknown scoring system"):
        await svc.create_game("gm", name="t", meta={"scoring": "nope"})
    assert await svc.list_games() == []
