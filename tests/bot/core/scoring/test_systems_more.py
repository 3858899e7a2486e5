"""The table systems beside edc2023/c-diplo: each rule, quoted from its module's source, on
hand-computed tables (research: shared/research/tournaments.md 3a)."""

from __future__ import annotations

import pytest

from bot.core.model import Power
from bot.core.scoring import SYSTEMS, ScoringError, describe, elimination_years
from tests.standard import score

A, E, F, G, I, R, T = (
    Power(x) for x in ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
)
BOARD = {A: 10, E: 8, F: 6, G: 4, I: 3, R: 2, T: 1}  # 34 centres, all survive
TIED = {A: 9, E: 9, F: 8, G: 4, I: 2, R: 1, T: 1}


def test_every_system_has_a_sourced_docstring() -> None:
    for name in SYSTEMS:
        assert "ource" in describe(name) or name in {
            "edc2023",
            "sum-of-squares",
            "draw-size",
            "c-diplo",
        }


# Carnage: "ranks 7000…1000 (ties split) + 1/SC; solo takes all 28,034".
def test_carnage_ranks_and_centres() -> None:
    s = score("carnage", BOARD)
    assert s == {A: 7010, E: 6008, F: 5006, G: 4004, I: 3003, R: 2002, T: 1001}


def test_carnage_ties_split_and_solo() -> None:
    s = score("carnage", {A: 9, E: 9, F: 6, G: 4, I: 3, R: 2, T: 1})
    assert s[A] == s[E] == 6500 + 9
    solo = score("carnage", {A: 18, E: 16})
    assert solo[A] == 28034
    assert solo[E] == 0


def test_carnage_eliminated_by_year_from_the_record() -> None:
    centers = {A: 12, E: 10, F: 8, G: 4}
    s = score("carnage", centers, eliminated={I: 1905, R: 1907, T: 1905}, end_year=1907)
    assert (s[A], s[E], s[F], s[G]) == (7012, 6010, 5008, 4004)
    assert s[R] == 3000  # eliminated last: fifth place
    assert s[I] == s[T] == (2000 + 1000) / 2  # same year: a tie
    with pytest.raises(ScoringError, match="year it was eliminated"):
        score("carnage", centers)


def test_carnage_2023_adds_300_per_centre_of_lead() -> None:
    assert score("carnage-2023", BOARD)[A] == 7010 + 2 * 300
    assert score("carnage-2023", {A: 9, E: 9, F: 6, G: 4, I: 3, R: 2, T: 1})[A] == 6509


# Dixie: "Win 270 / 70 / 50 / 34 / 20 / 10 / 0 + 4/SC; draws split the place points
# (2-way 170, 3-way 130, 4-way 106)".
def test_dixie_published_draw_shares() -> None:
    centers = {A: 9, E: 9, F: 8, G: 8}
    dead = {I: 1905, R: 1906, T: 1907}
    assert score("dixie", centers, draw=[A, E], eliminated=dead)[A] == 170 + 4 * 9
    assert score("dixie", centers, draw=[A, E, F], eliminated=dead)[F] == 130 + 4 * 8
    assert score("dixie", centers, draw=[A, E, F, G], eliminated=dead)[G] == 106 + 4 * 8


def test_dixie_outside_the_draw_by_centres_then_elimination() -> None:
    centers = {A: 12, E: 10, F: 8, G: 4}
    s = score(
        "dixie", centers, draw=[A, E, F], eliminated={I: 1905, R: 1907, T: 1905}, end_year=1907
    )
    assert (s[A], s[E], s[F]) == (130 + 48, 130 + 40, 130 + 32)
    assert s[G] == 34 + 16
    assert s[R] == 20
    assert s[I] == s[T] == 5.0
    # No vote: a draw of all survivors (our reading).
    assert score("dixie", centers, eliminated={I: 1905, R: 1907, T: 1905})[A] == 106 + 48


def test_dixie_solo() -> None:
    s = score("dixie", {A: 18, E: 10, F: 6}, eliminated={G: 1903, I: 1904, R: 1905, T: 1906})
    assert (s[A], s[E], s[F], s[T], s[G]) == (270 + 72, 70 + 40, 50 + 24, 34, 0)


# Bangkok: "1/SC + a 12-point domination pool shared 3:2:1 between the top, top−1 and top−2
# SC counts + 3 for surviving (0.3 per year if eliminated); solo 41".
def test_bangkok_pool_and_survival() -> None:
    centers = {A: 10, E: 9, F: 8, G: 4, I: 3}
    s = score("bangkok", centers, eliminated={R: 1904, T: 1906}, end_year=1907)
    assert s[A] == pytest.approx(10 + 3 + 6)
    assert s[E] == pytest.approx(9 + 3 + 4)
    assert s[F] == pytest.approx(8 + 3 + 2)
    assert s[G] == 7
    assert s[R] == pytest.approx(0.9)
    assert s[T] == pytest.approx(1.5)
    tied = score("bangkok", TIED)
    assert tied[A] == pytest.approx(9 + 3 + 12 * 3 / 8)


def test_bangkok_solo() -> None:
    s = score("bangkok", {A: 18, E: 10, F: 6})
    assert (s[A], s[E], s[F], s[G]) == (41, 5, 3, 0)


# ManorCon: "P = S²+4S+16, score = 100·P/ΣP; eliminated 0.1 per year; solo 75".
def test_manorcon() -> None:
    s = score("manorcon", BOARD)
    assert s[A] == pytest.approx(100 * 156 / 478)
    assert sum(s.values()) == pytest.approx(100)
    s = score("manorcon", {A: 10, E: 8, F: 6, G: 4, I: 3, R: 3}, eliminated={T: 1906})
    assert s[A] == pytest.approx(100 * 156 / 482)
    assert s[T] == pytest.approx(0.5)


def test_manorcon_solo() -> None:
    s = score(
        "manorcon",
        {A: 18, E: 10, F: 6},
        eliminated={G: 1903, I: 1903, R: 1903, T: 1903},
        end_year=1908,
    )
    assert s[A] == 75
    assert s[E] == pytest.approx(0.7)
    assert s[G] == pytest.approx(0.2)


# Tribute: "1/SC + 66 shared by survivors − tribute to the leader (dots over 6); solo 100".
def test_tribute() -> None:
    s = score("tribute", BOARD)
    assert s[A] == pytest.approx(10 + 66 / 7 + 4 * 6)
    assert s[E] == pytest.approx(8 + 66 / 7 - 4)
    assert sum(s.values()) == pytest.approx(100)
    three = score("tribute", {A: 17, E: 10, F: 7})
    assert three == {A: 61, E: 21, F: 18, G: 0, I: 0, R: 0, T: 0}
    capped = score("tribute", {A: 17, E: 9, F: 2, G: 2, I: 2, R: 1, T: 1})
    assert capped[R] == pytest.approx(1.0)  # tribute never exceeds the survival share
    assert score("tribute", {A: 18})[A] == 100


# OpenTribute: "34 + 3/SC − tribute per dot behind the leader; solo 340".
def test_open_tribute() -> None:
    s = score("open-tribute", BOARD)
    assert s == {A: 100, E: 56, F: 48, G: 40, I: 36, R: 32, T: 28}
    tied = score("open-tribute", {A: 9, E: 9, F: 8, G: 4, I: 3, R: 1})
    assert tied[A] == 34 + 27 + 29 // 4
    assert tied[T] == 0
    assert score("open-tribute", {A: 18})[A] == 340


# World Classic: "10/SC + 30 for surviving + a 48-point top pool; solo 420".
def test_world_classic() -> None:
    s = score("world-classic", {A: 10, E: 8, F: 6, G: 4, I: 3, R: 3}, eliminated={T: 1904})
    assert (s[A], s[E], s[T]) == (178, 110, 3)
    assert score("world-classic", TIED)[A] == 144
    solo = score(
        "world-classic",
        {A: 18, E: 10, F: 6},
        eliminated={G: 1903, I: 1905, R: 1905, T: 1905},
        end_year=1907,
    )
    assert (solo[A], solo[E], solo[G]) == (420, 6, 2)


# Whipping: "10/SC + 60 shared by survivors + board-top bonus of 2×SC (none if the top is
# shared); eliminated 1 per year; solo 468".
def test_whipping() -> None:
    s = score("whipping", {A: 10, E: 8, F: 6, G: 4, I: 3, R: 3}, eliminated={T: 1904})
    assert (s[A], s[E], s[T]) == (130, 90, 4)
    assert score("whipping", TIED)[A] == pytest.approx(90 + 60 / 7)  # shared top: no bonus
    solo = score(
        "whipping",
        {A: 18, E: 10, F: 6},
        eliminated={G: 1903, I: 1905, R: 1905, T: 1905},
        end_year=1907,
    )
    assert (solo[A], solo[E], solo[G]) == (468, 7, 3)


# C-Diplo Namur: "SC-curve survival (1→5 … 6→18, then +1 per SC) + 38/14/7; solo 85".
def test_c_diplo_namur() -> None:
    s = score("c-diplo-namur", BOARD)
    assert s == {A: 61, E: 35, F: 26, G: 15, I: 13, R: 10, T: 6}
    assert score("c-diplo-namur", {A: 9, E: 9, F: 8})[A] == 1 + 21 + 26
    assert score("c-diplo-namur", {A: 18, E: 10}) == {A: 85, E: 0, F: 0, G: 0, I: 0, R: 0, T: 0}


def test_elimination_years_from_centres_by_year() -> None:
    by_year = [
        (1900, {A: 3, I: 3, T: 3}),
        (1901, {A: 4, I: 1, T: 2}),
        (1902, {A: 5, T: 1}),  # Italy out...
        (1903, {A: 5, I: 1}),  # ...back in 1903, Turkey out
        (1904, {A: 6}),
    ]
    assert elimination_years(by_year) == {I: 1904, T: 1903}


def test_bad_years_are_refused() -> None:
    with pytest.raises(ScoringError, match="survives"):
        score("bangkok", BOARD, eliminated={A: 1903})
    with pytest.raises(ScoringError, match="after the game's end"):
        score("bangkok", {A: 10}, eliminated={E: 1909}, end_year=1907)
    with pytest.raises(ScoringError, match="last game year"):
        score("whipping", {A: 18, E: 10, F: 6}, eliminated={G: 1903, I: 1905, R: 1905, T: 1905})
