"""Deadlines at a fixed local time (bot/service/clock/schedule.py), through the phase machine."""

from __future__ import annotations

import tomllib
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from bot.service import ConfigError
from bot.service.clock.presets import ClockPreset, clocks_dir, load_clock
from bot.service.clock.schedule import Schedule, parse_schedule
from tests.bot.service.conftest import seven_player_game

PARIS = ZoneInfo("Europe/Paris")


def local(ts: float) -> datetime:
    return datetime.fromtimestamp(ts, PARIS)


def at(text: str) -> float:
    return datetime.fromisoformat(text).replace(tzinfo=PARIS).timestamp()


def test_the_text_in_english_and_french() -> None:
    s = parse_schedule("at: 21:00 zone: Europe/Paris every: 2 skip: sun, sat retreats: 1")
    assert s == Schedule("Europe/Paris", "21:00", 2, (5, 6), 1.0, True)
    fr = parse_schedule("heure: 9h30 fuseau: Europe/Paris tous: 1j sauf: dim retraites: 12h")
    assert fr == Schedule("Europe/Paris", "09:30", 1, (6,), 12 * 3600.0, False)
    assert Schedule.from_json(fr.to_json()) == fr


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("at: 21:00 zone: Mars/Olympus", "schedule_zone"),
        ("at: 25:00 zone: Europe/Paris", "schedule_time"),
        ("at: 21:00 zone: Europe/Paris skip: mon tue wed thu fri sat sun", "schedule_no_day"),
        ("at: 21:00 zone: Europe/Paris skip: someday", "schedule_day"),
        ("21:00 Paris", "schedule_text"),
        ("at: 21:00 zone: Europe/Paris every: 0", "schedule_every"),
    ],
)
def test_a_bad_schedule_is_refused_in_the_players_language(text: str, key: str) -> None:
    with pytest.raises(ConfigError) as info:
        parse_schedule(text)
    assert info.value.key == key
    assert info.value.localized("fr") != str(info.value)  # a French sentence exists


def test_across_the_october_change_with_sunday_skipped() -> None:
    # Europe/Paris leaves summer time on Sunday 25 October 2026 (03:00 CEST -> 02:00 CET).
    s = parse_schedule("at: 21:00 zone: Europe/Paris every: 1 skip: sun")
    friday = at("2026-10-23T21:00:30")  # adjudicated at Friday's deadline
    saturday = s.deadline(friday, movement=True)
    assert local(saturday).isoformat() == "2026-10-24T21:00:00+02:00"
    monday = s.deadline(saturday + 1, movement=True)  # Sunday skipped, summer time over
    assert local(monday).isoformat() == "2026-10-26T21:00:00+01:00"
    assert monday - saturday == 49 * 3600  # 48 h of days and the hour given back
    early = s.deadline(at("2026-10-24T11:00:00"), movement=True)  # everyone ready early
    assert local(early).isoformat() == "2026-10-26T21:00:00+01:00"  # the rhythm kept


def test_retreats_on_their_own_window() -> None:
    s = parse_schedule("at: 21:00 zone: Europe/Paris every: 2 retreats: 12h")
    opened = at("2026-03-28T21:00:10")  # and across the March change: 21:00 stays 21:00
    assert local(s.deadline(opened, movement=True)).isoformat() == "2026-03-30T21:00:00+02:00"
    assert s.deadline(opened, movement=False) == opened + 12 * 3600


async def test_a_game_on_a_weekly_schedule_across_the_change(opener, clock) -> None:
    clock.set(at("2026-10-22T20:00:00"))  # Thursday evening
    svc = await opener()
    text = "at: 21:00 zone: Europe/Paris every: 1 skip: sun"
    overrides = {"schedule": parse_schedule(text).to_json()}
    gid = await seven_player_game(svc, clock="casual", clock_overrides=overrides)
    deadlines = []
    for _ in range(3):
        st = await svc.status(gid)
        deadlines.append(local(st.deadline).isoformat())
        clock.set(st.deadline)
        await svc.run_due()  # adjudicated; the next phase opens (casual: no reading)
        await svc.run_due()
    assert deadlines == [
        "2026-10-23T21:00:00+02:00",  # Friday (opened Thursday 20:00: over 12 h before)
        "2026-10-24T21:00:00+02:00",  # Saturday
        "2026-10-26T21:00:00+01:00",  # Monday: no deadline on Sunday, winter time
    ]
    settings = await svc.game_settings(gid)
    assert settings.clock == "casual+custom"


def test_a_clock_file_may_carry_a_schedule_with_named_days() -> None:
    doc = {"zone": "Europe/Paris", "at": "20:30", "every": 2, "skip": ["sat", "dim"]}
    clock = load_clock("casual").with_overrides({"schedule": doc})
    assert clock.schedule == Schedule("Europe/Paris", "20:30", 2, (5, 6))
    assert clock.to_json()["schedule"]["skip"] == [5, 6]
    toml = tomllib.loads(
        (clocks_dir() / "casual.toml").read_text(encoding="utf-8")
        + '\n[schedule]\nzone = "Europe/Paris"\nat = "21:00"\nskip = ["sun"]\n'
    )
    assert ClockPreset.from_json(toml).schedule == Schedule("Europe/Paris", "21:00", 1, (6,))
