"""Seating and country allocation (seed edc-2023 B, D, E)."""

from __future__ import annotations

from itertools import combinations

import pytest

from bot.core.tournament.model import TournamentError
from bot.core.tournament.seating import PastTable, plan_tables, seat_round

POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
SANDARD = POWERS[:6]


def players(n: int) -> list[str]:
    return [f"p{i:03d}" for i in range(n)]


def play(n: int, rounds: int, **kw: object) -> list[PastTable]:
    past: list[PastTable] = []
    for r in range(1, rounds + 1):
        s = seat_round(players(n), past, powers=POWERS, small_powers=SANDARD, seed=r)
        for t in s.tables:
            seats = dict(t.seats)
            past.append(
                PastTable(r, seats, {p: float((int(p[1:]) * 7 + r * 13) % 50) for p in seats})
            )
    return past


def test_deterministic_for_a_seed() -> None:
    a = seat_round(players(49), powers=POWERS, seed=3)
    b = seat_round(players(49), powers=POWERS, seed=3)
    assert a == b
    assert len(a.tables) == 7
    assert all(len(t.seats) == 7 for t in a.tables)


def test_no_country_twice_and_different_opponents_at_70() -> None:
    # E: "a person does not play the same country twice and ... they play with different people"
    past = play(70, 4)
    countries = [(p, power) for t in past for p, power in t.seats.items()]
    assert len(countries) == len(set(countries))
    pairs = [frozenset(x) for t in past for x in combinations(t.seats, 2)]
    assert len(pairs) - len(set(pairs)) <= 10


def test_table_toppers_meet_next_round() -> None:
    # E: "the best players of each part of a round will be placed ... on the same table in
    # the following round if they have not played together before"
    first = seat_round(players(49), powers=POWERS, seed=1)
    past = [
        PastTable(
            1, dict(t.seats), {p: (100.0 if i == 0 else 1.0) for i, (p, _) in enumerate(t.seats)}
        )
        for t in first.tables
    ]
    top = {t.seats[0][0] for t in first.tables}
    second = seat_round(players(49), past, powers=POWERS, seed=2)
    together = max(sum(1 for p, _ in t.seats if p in top) for t in second.tables)
    assert together == 7


def test_numbers_not_a_multiple_of_seven() -> None:
    # B: "the tournament management may ask some people to withdraw, or to play on two tables"
    ps = players(50)
    two = plan_tables(ps[:48], volunteers_two=["p001"], ranking=ps)
    assert two.two_tables == ("p001",)
    assert two.sizes == (7,) * 7
    out = plan_tables(
        ps, volunteers_withdraw=["p003", "p040"], ranking=ps, rounds_played={"p003": 2, "p040": 2}
    )
    assert out.withdrawn == ("p040",)
    assert out.sizes == (7,) * 7
    # Sandard six-player tables when nobody volunteers: 50 = 7·2 + 6·6
    sixes = plan_tables(ps)
    assert sorted(sixes.sizes) == [6] * 6 + [7] * 2
    # No small tables allowed: the lowest ranked sit out.
    assert plan_tables(ps, ranking=ps, small_tables=False).sitting_out == ("p049",)
    with pytest.raises(TournamentError):
        plan_tables(ps[:5])


def test_doubler_never_sits_twice_at_one_table() -> None:
    ps = players(48)
    s = seat_round(ps, powers=POWERS, volunteers_two=["p000"], ranking=ps, seed=5)
    assert s.two_tables == ("p000",)
    hosting = [t for t in s.tables if any(p == "p000" for p, _ in t.seats)]
    assert len(hosting) == 2
    assert all(sum(1 for p, _ in t.seats if p == "p000") == 1 for t in hosting)


def test_keep_apart_pairs_are_never_seated_together() -> None:
    ps = players(49)
    apart = [(ps[2 * i], ps[2 * i + 1]) for i in range(7)]  # 7 director-given pairs
    together = 0
    for seed in range(20):
        plain = seat_round(ps, powers=POWERS, seed=seed)
        s = seat_round(ps, powers=POWERS, keep_apart=apart, seed=seed)
        for t in s.tables:
            here = {p for p, _ in t.seats}
            assert not any(a in here and b in here for a, b in apart), (seed, t.number)
        together += sum(
            1 for t in plain.tables for a, b in apart if {a, b} <= {p for p, _ in t.seats}
        )
    assert together > 0  # without the pairs, some do meet: the rule is what keeps them apart


def test_sandard_tables_use_the_six_powers() -> None:
    s = seat_round(players(36), powers=POWERS, small_powers=SANDARD, seed=1)
    small = [t for t in s.tables if t.variant == "sandard"]
    assert small
    assert all({power for _, power in t.seats} == set(SANDARD) for t in small)


def test_140_players_after_three_rounds_are_all_seated_once() -> None:
    # The time it takes is bench/seating.py's figure (no timed tests).
    past = play(140, 3)
    s = seat_round(players(140), past, powers=POWERS, small_powers=SANDARD, seed=9)
    seated = [p for t in s.tables for p, _ in t.seats]
    assert sorted(seated) == sorted(players(140))
