"""The game record (/export) and the plain-text report, on the real core
(bot/service/games/record.py)."""

from __future__ import annotations

import json

from bot.core.model import Power
from bot.service.engine import CoreEngine
from bot.service.games.record import final_standings, game_record, report_text, year_end_positions
from bot.service.games.settings import scoring_system
from tests.bot.service.conftest import SEVEN, seven_player_game


async def _play_spring(svc, clock, gid) -> None:
    await svc.submit(gid, "user-france", "A PAR - BUR\nF BRE - MAO")
    await svc.submit(gid, "user-germany", "A MUN - BUR")
    clock.set((await svc.status(gid)).deadline)
    await svc.run_due()


async def test_the_record_holds_every_phase_but_never_open_orders(opener, clock):
    svc = await opener(engine=CoreEngine())
    gid = await seven_player_game(svc, rules="edc2023")
    await _play_spring(svc, clock, gid)
    clock.set((await svc.status(gid)).opens_at)  # the reading ends, the Fall opens
    await svc.run_due()
    await svc.submit(gid, "user-italy", "A VEN - TYR")  # the Fall is still open: secret
    record = await game_record(svc, gid)
    json.dumps(record)  # JSON all the way down
    assert record["format"] == "parley-game-record"
    assert record["game"]["rules"] == "edc2023"
    assert record["players"]["FRANCE"] == "user-france"
    spring, fall = record["phases"]
    assert (spring["phase"], spring["status"]) == ("S1901M", "done")
    assert spring["position"]["units"]["FRANCE"] == ["A MAR", "A PAR", "F BRE"]
    assert spring["orders"]["FRANCE"] == ["A PAR - BUR", "F BRE - MAO"]
    moves = {r["order"]: r for r in spring["results"]}
    assert moves["A PAR - BUR"]["outcome"] == "fails"
    assert moves["A PAR - BUR"]["reason"] == "bounced"
    assert moves["F BRE - MAO"]["outcome"] == "succeeds"
    assert "A PAR - BUR; (failed)" in spring["notation"]
    assert fall["phase"] == "F1901M"
    assert "orders" not in fall
    assert "A VEN - TYR" not in json.dumps(record)
    assert record["votes"] == []
    assert "end" not in record
    assert record["centers_by_year"][0]["year"] == 1900
    assert record["centers_by_year"][0]["centers"]["RUSSIA"] == 4


async def test_a_draw_vote_ends_the_record_with_standings(opener, clock):
    svc = await opener(engine=CoreEngine())
    gid = await seven_player_game(svc, rules="edc2023")
    vote = await svc.propose_vote(gid, "user-france", "draw")
    for user in SEVEN:
        await svc.cast_ballot(gid, user, vote["id"], "yes")
    record = await game_record(svc, gid)
    assert record["votes"][0]["status"] == "passed"
    assert record["end"]["reason"] == "draw"
    assert record["end"]["scoring"] == "edc2023"
    system, rows = final_standings(record)
    assert system == "edc2023"
    russia = next(r for r in rows if r.power is Power.RUSSIA)
    assert russia.place == 1
    assert russia.centers == 4
    # The scores themselves are bot.core.scoring's (tested there): the leader scores most.
    assert russia.score == max(r.score for r in rows)
    report = report_text(record, "en")
    assert "Game #" in report
    assert "draw (Austria, England, France, Germany, Italy, Russia, Turkey)" in report
    assert "Final standings (edc2023):" in report
    assert "1. Russia - 4 centres" in report
    assert "user-" in report  # the players
    french = report_text(record, "fr")
    assert "Classement (edc2023) :" in french
    assert "Joueurs:" in french


async def test_report_has_results_in_the_notation_of_the_games_language(opener, clock):
    svc = await opener(engine=CoreEngine())
    gid = await seven_player_game(svc, rules="datc", lang="fr")
    await svc.submit(gid, "user-france", "A PAR - BOU\nF BRE - MAN")
    await svc.submit(gid, "user-germany", "A MUN - BOU")
    clock.set((await svc.status(gid)).deadline)
    await svc.run_due()
    record = await game_record(svc, gid)
    report = report_text(record, "fr")
    assert "== Printemps 1901" in report
    assert "A PAR - BOU; (échec)" in report
    assert "F BRE - MAN" in report


def test_scoring_system_by_rule_set():
    assert scoring_system("edc2023") == "edc2023"
    assert scoring_system("datc") == "sum-of-squares"
    assert scoring_system("house", {"scoring": "draw-size"}) == "draw-size"


async def test_year_end_positions_start_with_the_opening(opener):
    svc = await opener(engine=CoreEngine())
    gid = await seven_player_game(svc)
    record = await game_record(svc, gid)
    [start] = year_end_positions(record)
    assert str(start.phase) == "S1901M"
