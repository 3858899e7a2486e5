"""EDC 2023 tournament scoring: every rule of seed section D, quoted."""

from __future__ import annotations

from typing import Any

import pytest

from bot.core.model import Phase
from bot.core.tournament.edc2023 import (
    final_table_due,
    final_table_players,
    first_tercile,
    latecomer_coefficient,
    season_number,
    truncate,
    withdrawal_priority,
)
from bot.core.tournament.model import StandingRow, TournamentError, read_document
from bot.core.tournament.standings import standings


def doc(rounds: dict[int, dict[str, float]], **extra: Any) -> dict[str, Any]:
    """One table per round ("t<round>"), players from the scores (or `players=`)."""
    ids = sorted({p for scores in rounds.values() for p in scores})
    players = extra.pop("players", [{"id": p} for p in ids])
    return {
        "rules": "edc2023",
        "players": players,
        "rounds": [
            {"round": r, "tables": [{"table": f"t{r}", "scores": s}]} for r, s in rounds.items()
        ],
        "final": None,
        **extra,
    }


def totals(d: dict[str, Any]) -> dict[str, float]:
    return {row.player: row.total for row in standings(read_document(d))}


def test_truncated_after_each_round() -> None:
    # "a person with 21.5 points and one with 21.33 points will both score 21 points"
    assert truncate(21.5) == truncate(21.33) == 21
    t = totals(doc({1: {"a": 21.5, "b": 21.33}}))
    assert t["a"] == t["b"] == truncate(21 * 1.10) == 23


def test_weights_on_scores_sorted_highest_first() -> None:
    # "1 round played: 110%" (and no participation bonus below 2 rounds)
    assert totals(doc({1: {"a": 30}}))["a"] == 33
    # "2 rounds played: 110%/100%", + participation 2
    assert totals(doc({1: {"a": 30}, 2: {"a": 40}}))["a"] == 44 + 30 + 2
    # "3 rounds played: 100%/100%/50%", + 3
    assert totals(doc({1: {"a": 20}, 2: {"a": 40}, 3: {"a": 30}}))["a"] == 40 + 30 + 10 + 3
    # "4 rounds played: 100%/90%/50%/40%", + 4
    four = {1: {"a": 20.0}, 2: {"a": 40.0}, 3: {"a": 10.0}, 4: {"a": 30.0}}
    assert totals(doc(four))["a"] == 40 + 27 + 10 + 4 + 4


def test_preregistration_bonus_needs_rounds_1_and_4() -> None:
    # "+1 point for pre-registration and participation in both rounds 1 and 4"
    four = {1: {"a": 20.0, "b": 20.0}, 2: {"a": 40.0, "b": 40.0}, 4: {"a": 30.0, "b": 30.0}}
    players = [{"id": "a", "preregistered": [1, 2, 4]}, {"id": "b", "preregistered": [1]}]
    t = totals(doc(four, players=players))
    assert t["a"] == t["b"] + 1


def test_final_table_fifteen_percent_and_winner_thousand() -> None:
    # "Participation in the final table: +15% of his tournament score", "Final table
    # victory: +1000 points"
    d = doc(
        {1: {"a": 40, "b": 20, "c": 10}, 2: {"a": 30, "b": 50}},
        final={"table": "t2", "winner": "b"},
    )
    t = totals(d)
    a_base = 44 + 30 + 2
    b_base = 55 + 20 + 2
    assert t["a"] == a_base + truncate(0.15 * a_base)
    assert t["b"] == b_base + truncate(0.15 * b_base) + 1000
    assert t["c"] == 11
    rows = standings(read_document(d))
    assert rows[0].player == "b"
    with pytest.raises(TournamentError, match="did not play"):
        standings(read_document({**d, "final": {"table": "t2", "winner": "c"}}))


def test_registered_absence_costs_15_and_the_bonuses() -> None:
    # "-15 points (and all bonuses) if registration and absence during a round"
    rounds = {1: {"a": 20.0, "b": 20.0}, 2: {"a": 20.0, "b": 20.0}, 3: {"c": 5.0}}
    d = doc(
        rounds,
        absences=[
            {"player": "a", "round": 3, "registered": True},
            {"player": "b", "round": 3, "registered": False},
        ],
    )
    t = totals(d)
    assert t["b"] == 22 + 20 + 2
    assert t["a"] == 22 + 20 - 15


def test_penalties_contest_late_refusal_misconduct() -> None:
    rounds = {
        1: {"a": 20.0, "b": 20.0, "c": 20.0, "d": 20.0},
        2: {"a": 20.0, "b": 20.0, "c": 20.0, "d": 20.0},
    }
    base = 22 + 20 + 2
    d = doc(
        rounds,
        penalties=[
            {"player": "a", "reason": "contest"},  # "-5 points in case of contesting"
            {"player": "b", "reason": "late"},  # "-1 point per delay in submitting order sheets"
            {"player": "b", "reason": "late", "points": -1},
            {"player": "c", "reason": "refusal"},  # "-15 points (and all bonuses) ... refusal"
            {"player": "d", "reason": "misconduct"},  # "All positives points"
            {"player": "d", "reason": "late"},
        ],
    )
    t = totals(d)
    assert t == {"a": base - 5, "b": base - 2, "c": base - 2 - 15, "d": -1}
    with pytest.raises(TournamentError, match="-5 points"):
        totals(doc(rounds, penalties=[{"player": "a", "reason": "contest", "points": -3}]))
    with pytest.raises(TournamentError, match="needs negative"):
        totals(doc(rounds, penalties=[{"player": "a", "reason": "noise"}]))


def test_two_tables_the_chosen_one_counts_when_all_rounds_played() -> None:
    # "a person who has played two tables simultaneously in the same round and has played
    # all the rounds will have to choose which of their two games ... must be taken into account"
    d: dict[str, Any] = {
        "rules": "edc2023",
        "players": [{"id": "a"}, {"id": "b"}],
        "rounds": [
            {
                "round": 1,
                "tables": [
                    {"table": "x", "scores": {"a": 10, "b": 10}},
                    {"table": "y", "scores": {"a": 50}},
                ],
            },
            {"round": 2, "tables": [{"table": "z", "scores": {"a": 20, "b": 20}}]},
            {"round": 3, "tables": [{"table": "z", "scores": {"a": 30, "b": 30}}]},
            {"round": 4, "tables": [{"table": "z", "scores": {"a": 40, "b": 40}}]},
        ],
        "final": None,
        "two_tables": [{"player": "a", "round": 1, "counts": "x"}],
    }
    # counted 40/30/20/10 -> 40 + 27 + 10 + 4; rounds played 4.
    assert totals(d)["a"] == 81 + 4
    d["two_tables"] = [{"player": "a", "round": 1, "counts": "y"}]
    assert totals(d)["a"] == 50 + 36 + 15 + 8 + 4
    # Three rounds played: the two tables make 4 scores, no more than the rounds: both count.
    d["rounds"] = d["rounds"][:3]
    d["two_tables"] = [{"player": "a", "round": 1, "counts": "x"}]
    assert totals(d)["a"] == 50 + 27 + 10 + 4 + 3
    del d["two_tables"]
    with pytest.raises(TournamentError, match="two tables in round 1"):
        totals(d)


def test_latecomer_coefficient() -> None:
    # "(14-n)/14 ... where n is the number of the current season (P01->1, A01->2, P02->3…)"
    assert latecomer_coefficient(3) == 11 / 14
    d = doc({1: {"a": 28}})
    d["rounds"][0]["tables"][0]["coefficients"] = {"a": latecomer_coefficient(3)}
    assert totals(d)["a"] == truncate(22 * 1.10)
    with pytest.raises(TournamentError):
        latecomer_coefficient(14)


def test_season_number_counts_spring_and_fall_and_the_winter_with_its_fall() -> None:
    # D: "P01->1, A01->2, P02->3…"; retreats and the Winter go with the moves they follow.
    seasons = ["S1901M", "S1901R", "F1901M", "F1901R", "W1901A", "S1902M", "F1907M", "W1907A"]
    got = [season_number(Phase.parse(p), 1901) for p in seasons]
    assert got == [1, 1, 2, 2, 2, 3, 14, 14]
    assert season_number(Phase.parse("F1642M"), 1642) == 2  # another variant's first year


def test_withdrawal_bonus_first_tercile_and_priority() -> None:
    # "People withdrawing will score a bonus equal to the first tercile of scores for the round"
    assert first_tercile([60, 10, 50, 20, 40, 30]) == 20
    scores = {"p1": 10.0, "p2": 20.0, "p3": 30.0, "p4": 40.0, "p5": 50.0, "p6": 60.0}
    d = doc(
        {1: scores},
        players=[{"id": p} for p in [*scores, "w"]],
        withdrawals=[{"player": "w", "round": 1}],
    )
    assert totals(d)["w"] == truncate(20 * 1.10)
    # "priority for withdrawal will be given first to the person who has played the most
    # rounds, then to the lowest ranked person"
    order = withdrawal_priority(["a", "b", "c"], {"a": 2, "b": 3, "c": 2}, {"a": 1, "b": 5, "c": 9})
    assert order == ["b", "c", "a"]


def test_withdrawal_and_two_tables_are_exclusive_and_once_only() -> None:
    # "Withdrawal and play on several tables are mutually exclusive in the tournament"
    d: dict[str, Any] = {
        "rules": "edc2023",
        "players": [{"id": "a"}, {"id": "b"}],
        "rounds": [
            {
                "round": 1,
                "tables": [
                    {"table": "x", "scores": {"a": 10, "b": 10}},
                    {"table": "y", "scores": {"a": 5}},
                ],
            },
            {"round": 2, "tables": [{"table": "x", "scores": {"b": 10}}]},
        ],
        "final": None,
        "two_tables": [{"player": "a", "round": 1, "counts": "x"}],
        "withdrawals": [{"player": "a", "round": 2}],
    }
    with pytest.raises(TournamentError, match="mutually exclusive"):
        totals(d)
    # "Request for withdrawal: authorized only once per player"
    d.pop("two_tables")
    d["rounds"][0]["tables"].pop()
    d["withdrawals"] = [{"player": "a", "round": 2}, {"player": "a", "round": 2}]
    with pytest.raises(TournamentError, match="only once"):
        totals(d)


def test_final_table_due_from_28_positive() -> None:
    # "If there are 28 people (or more) ranked with a strictly positive result after the
    # third round"
    rows = [StandingRow(i + 1, f"p{i}", 30.0 - i, {}) for i in range(30)]
    assert final_table_due(rows)  # 30 - 0 ... 30 - 29 = 1: 30 positive
    assert not final_table_due([*rows[:27], StandingRow(28, "z", 0.0, {})])
    assert final_table_players(rows) == [f"p{i}" for i in range(7)]


def test_bad_documents() -> None:
    with pytest.raises(TournamentError, match="not in players"):
        read_document(doc({1: {"a": 1}}, players=[]))
    with pytest.raises(TournamentError, match="never negative"):
        read_document(doc({1: {"a": -1}}))
    with pytest.raises(TournamentError, match="unknown rules"):
        standings(read_document({**doc({1: {"a": 1}}), "rules": "pastis"}))
