"""sum-of-squares, draw-size and c-diplo, with hand-computed values."""

from __future__ import annotations

import pytest

from bot.core.model import Phase, Position, Power
from bot.core.scoring import SYSTEMS, ScoringError, centers_from_position, describe, standings
from tests.standard import score, standings_lines

A, E, F, G, I, R, T = (
    Power.AUSTRIA,
    Power.ENGLAND,
    Power.FRANCE,
    Power.GERMANY,
    Power.ITALY,
    Power.RUSSIA,
    Power.TURKEY,
)


def test_registry_names_and_docstrings() -> None:
    assert set(SYSTEMS) == {
        "edc2023",
        "sum-of-squares",
        "draw-size",
        "c-diplo",
        "c-diplo-namur",
        "carnage",
        "carnage-2023",
        "dixie",
        "bangkok",
        "manorcon",
        "tribute",
        "open-tribute",
        "world-classic",
        "whipping",
    }
    assert "strictly fewer" in describe("edc2023")
    assert "100 × (its centres)²" in describe("sum-of-squares")


def test_sum_of_squares() -> None:
    # squares: 100 + 64 + 36 + 16 + 9 + 4 + 1 = 230
    scores = score("sum-of-squares", {A: 10, E: 8, F: 6, G: 4, I: 3, R: 2, T: 1})
    assert scores[A] == pytest.approx(10000 / 230)
    assert scores[T] == pytest.approx(100 / 230)
    assert sum(scores.values()) == pytest.approx(100.0)


def test_sum_of_squares_solo_and_eliminated() -> None:
    assert score("sum-of-squares", {A: 18, E: 16})[A] == 100.0
    assert score("sum-of-squares", {A: 18, E: 16})[E] == 0.0
    scores = score("sum-of-squares", {A: 3, E: 4})  # 9 + 16 = 25
    assert scores == {A: 36.0, E: 64.0, F: 0.0, G: 0.0, I: 0.0, R: 0.0, T: 0.0}


def test_draw_size_shares_among_draw_members() -> None:
    centers = {A: 12, E: 11, F: 11}
    assert score("draw-size", centers, draw=[A, E])[A] == 50.0
    assert score("draw-size", centers, draw=[A, E])[F] == 0.0
    # No vote: a draw of all survivors.
    assert score("draw-size", centers)[F] == pytest.approx(100 / 3)
    assert score("draw-size", {A: 18, E: 16})[A] == 100.0
    with pytest.raises(ScoringError, match="not a survivor"):
        score("draw-size", centers, draw=[T])


def test_c_diplo_wdd_examples() -> None:
    # World Diplomacy Database, "C-Diplo 100", its two worked tables.
    first = score("c-diplo", {A: 4, E: 0, F: 9, G: 7, I: 7, R: 3, T: 4})
    assert first == {A: 5.0, E: 1.0, F: 48.0, G: 18.5, I: 18.5, R: 4.0, T: 5.0}
    second = score("c-diplo", {A: 5, E: 9, F: 4, G: 5, I: 3, R: 1, T: 7})
    assert second == {A: 9.5, E: 48.0, F: 5.0, G: 9.5, I: 4.0, R: 2.0, T: 22.0}
    assert sum(second.values()) == 100.0


def test_c_diplo_solo() -> None:
    scores = score("c-diplo", {R: 18, T: 16})
    assert scores[R] == 100.0
    assert scores[T] == 0.0


def test_survivor_with_units_only_can_be_named() -> None:
    # Stabbeurfou 2(b): a player with a unit but no centre is still in the game.
    base = score("edc2023", {A: 16, E: 10, F: 8})[A]
    assert score("edc2023", {A: 16, E: 10, F: 8}, survivors=[A, E, F, G])[A] == base + 1
    with pytest.raises(ScoringError, match="so it survives"):
        score("edc2023", {A: 16, E: 10}, survivors=[A])


def test_solo_threshold_override() -> None:
    assert score("draw-size", {A: 15, E: 5}, solo_centers=15)[A] == 100.0


def test_standings_best_first_with_shared_places() -> None:
    # edc-2023 C: two tied at 6 score 42.5 each (see test_edc2023), then the 5s.
    centers = {A: 6, E: 6, F: 5, G: 5, I: 4, R: 4, T: 4}
    table = standings(score("edc2023", centers), centers)
    assert [(s.place, s.power, s.centers) for s in table[:3]] == [(1, A, 6), (1, E, 6), (3, F, 5)]
    assert table[0].score == 42.5


def test_centers_from_position() -> None:
    pos = Position.build(Phase.parse("W1901A"), (), {"PAR": F, "BRE": F, "MUN": G})
    assert centers_from_position(pos) == {F: 2, G: 1}


def test_standings_lines_en_fr() -> None:
    # edc-2023 C: two tied at 6 with 7 survivors score 42.5.
    centers = {A: 6, E: 6, F: 5, G: 5, I: 4, R: 4, T: 4}
    rows = standings(score("edc2023", centers), centers)
    lines = standings_lines(rows, "edc2023")
    assert lines[0] == "Final standings (edc2023):"
    assert lines[1] == "1. Austria - 6 centres - 42.5 pts"
    assert standings_lines(rows, "edc2023", "fr")[1] == "1. Autriche - 6 centres - 42,5 pts"
