"""edc-2023 section C: every worked example of the table scoring system.

The expected numbers are the seed's own; the centre distributions are the ones its sentences
describe (the centres not named are spread among the other powers below the named ones).
"""

from __future__ import annotations

import pytest

from bot.core.model import Power
from bot.core.scoring import ScoringError
from tests.standard import score

A, E, F, G, I, R, T = (
    Power.AUSTRIA,
    Power.ENGLAND,
    Power.FRANCE,
    Power.GERMANY,
    Power.ITALY,
    Power.RUSSIA,
    Power.TURKEY,
)


def edc(centers: dict[Power, int], variant: str = "standard") -> dict[Power, float]:
    return score("edc2023", centers, variant=variant)


def test_lone_leader_with_seven_survivors_scores_50() -> None:
    # C Notes: "A victory without a tie with 7 surviving countries will ... be worth 50 points"
    assert edc({A: 10, E: 5, F: 5, G: 4, I: 4, R: 3, T: 3})[A] == 50.0
    assert edc({A: 7, E: 6, F: 5, G: 4, I: 4, R: 3, T: 2})[A] == 50.0  # 3 neutral centres


def test_solo_scores_100_and_the_others_0() -> None:
    # C: "doubles that score (i.e. 100 points for 7 players if all centers are occupied)"
    scores = edc({T: 18, A: 4, E: 4, F: 3, G: 3, I: 1, R: 1})
    assert scores[T] == 100.0
    assert all(scores[p] == 0.0 for p in (A, E, F, G, I, R))


def test_solo_counts_as_if_everyone_had_survived() -> None:
    # C: "scores their points as if everyone had survived" - eliminations change nothing.
    assert edc({T: 20, A: 14})[T] == 100.0


def test_solo_is_strictly_more_than_half() -> None:
    # C: "strictly more than half of the centers"; 17 of 34 is not a solo.
    scores = edc({T: 17, A: 17})
    assert scores[T] == scores[A] == 26.5


def test_sandard_victory_46_and_solo_92() -> None:
    # C Notes: "In the case of Sandard, the victory with 6 survivors ... 46 points, and the
    # solo 92 points."
    assert edc({A: 9, E: 5, F: 5, G: 4, I: 4, R: 4}, variant="sandard")[A] == 46.0
    assert edc({A: 16, E: 5, F: 4, G: 2, I: 2, R: 2}, variant="sandard")[A] == 92.0


def test_lone_leader_with_three_survivors_scores_46() -> None:
    # C Notes: "the victory of a single country in the lead earning the fewest points is the
    # one where there would be only three survivors, ie 46 points."
    assert edc({F: 16, G: 10, I: 8})[F] == 46.0


def test_best_second_place_40() -> None:
    # C Notes: 6 centres behind a leader at 7, 7 survivors: 6 + 21 + 7 + 6 = 40.
    assert edc({A: 7, E: 6, F: 5, G: 5, I: 4, R: 4, T: 3})[E] == 40.0


def test_worst_second_place_26() -> None:
    # C Notes: 16 centres behind a leader at 17, 3 survivors: 16 + 1 + 3 + 6 = 26.
    assert edc({A: 17, E: 16, F: 1})[E] == 26.0


def test_best_third_place_31() -> None:
    # C Notes: 5 centres, leader at 7, second at 6, 7 survivors: 5 + 16 + 7 + 3 = 31.
    assert edc({A: 7, E: 6, F: 5, G: 4, I: 4, R: 4, T: 4})[F] == 31.0


def test_best_fourth_place_24() -> None:
    # C Notes: "5 centers behind three tied at 6 centers, with 7 survivors ... 24 points"
    assert edc({A: 6, E: 6, F: 6, G: 5, I: 4, R: 4, T: 3})[G] == 24.0


def test_two_tied_at_6_score_42_5() -> None:
    # C Notes: "two people tied in the lead with 6 centers and 7 survivors ... 42.5 points"
    scores = edc({A: 6, E: 6, F: 5, G: 5, I: 4, R: 4, T: 4})
    assert scores[A] == scores[E] == 42.5
    # "Losing a centre to the other tie ... earns 7.5 points": the lone leader scores 50.
    assert edc({A: 7, E: 5, F: 5, G: 5, I: 4, R: 4, T: 4})[A] - scores[A] == 7.5


def test_two_tied_at_10_score_38_5() -> None:
    # C Notes: "two people tied for the lead with 10 centers and 7 survivors will score 38.5"
    scores = edc({A: 10, E: 10, F: 3, G: 3, I: 3, R: 3, T: 2})
    assert scores[A] == scores[E] == 38.5


def test_two_lone_survivors_at_17_score_26_5() -> None:
    # C Notes: "two lonely survivors at 17 centers will only score 26.5 points"
    scores = edc({A: 17, E: 17})
    assert scores[A] == scores[E] == 26.5


def test_three_tied_at_6_score_35() -> None:
    # C Notes: "three people tied for the lead with 6 centers and 7 survivors ... 35 points"
    scores = edc({A: 6, E: 6, F: 6, G: 4, I: 4, R: 4, T: 4})
    assert scores[A] == scores[E] == scores[F] == 35.0


def test_three_tied_at_11_with_four_survivors_score_22() -> None:
    # C Notes: "three people tied for the lead with 11 centers and 4 survivors ... 22 points"
    scores = edc({A: 11, E: 11, F: 11, G: 1})
    assert scores[A] == scores[E] == scores[F] == 22.0


def test_shared_bonus_and_next_place() -> None:
    # C NB: three tied at 10 take (9+6+3)/3 = 6 each; "The next person will score points for
    # fourth place." Top: 10 + 4 (the 4 below) + 4 survivors + 0 neutral + 6 = 24.
    scores = edc({A: 10, E: 10, F: 10, G: 4})
    assert scores[A] == 24.0
    assert scores[G] == 4 + 0 + 4 + 0 + 1


def test_eliminated_powers_score_survivors_and_neutral_points() -> None:
    # C Notes: "The eliminated people still score the points corresponding to the number of
    # survivors." 3 survivors, 2 neutral centres: 0 + 0 + 3 + 2 and no rank bonus.
    scores = edc({A: 16, E: 10, F: 6})
    assert scores[T] == 5.0
    # "Losing his last centers still means losing two points": the centre and the survival
    # (G is 5th, out of the rank bonuses, before and after; 1 neutral centre).
    before = edc({A: 14, E: 10, F: 5, R: 3, G: 1})[G]
    after = edc({A: 14, E: 10, F: 5, R: 4})[G]
    assert before - after == 2


def test_bad_input_is_a_scoring_error() -> None:
    with pytest.raises(ScoringError, match="only 34"):
        edc({A: 30, E: 10})
    with pytest.raises(ScoringError, match="whole number"):
        edc({A: -1})
    with pytest.raises(ScoringError, match="does not play"):
        edc({T: 3}, variant="sandard")
    with pytest.raises(ScoringError, match="unknown scoring system"):
        score("nope", {A: 3})
