"""Round aggregations, with the research's rules quoted."""

from __future__ import annotations

from bot.core.tournament.aggregation import aggregator, best_n, edc2023, wdc2019, wdc2025


def test_wdc2019_best_100_80_40() -> None:
    # "top-board qualification = best ×100 % + second ×80 % + third ×40 %"
    assert wdc2019([10, 50, 30, 20]) == 50 + 0.8 * 30 + 0.4 * 20


def test_edc_weights_and_best_n_and_sum() -> None:
    assert edc2023([10, 20]) == 1.1 * 20 + 10
    assert best_n([5, 1, 9, 3], 2) == 14
    assert aggregator("best-2")({"a": {1: 5, 2: 1, 3: 9}}) == {"a": 14}
    assert aggregator("sum")({"a": {1: 5, 2: 1, 3: 9}}) == {"a": 15}


def test_wdc2025_top_21_get_half_again_on_round_4() -> None:
    # "best 2 of rounds 1–3 plus round 4; the top 21 after three rounds get 50 % extra on round 4"
    players = {f"p{i}": {1: 100.0 - i, 2: 50.0, 3: 0.0, 4: 10.0} for i in range(25)}
    out = wdc2025(players)
    assert out["p0"] == 100 + 50 + 15
    assert out["p20"] == 80 + 50 + 15
    assert out["p21"] == 79 + 50 + 10
