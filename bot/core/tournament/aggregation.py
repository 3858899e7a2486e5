"""Round aggregations: a player's tournament points from their round scores.

Sources: edc-2023 section D 1 (weights on the scores sorted highest first); research
(shared/research/tournaments.md, "Aggregating rounds"): WDC 2019 / EDC 2016 "best
×100 % + second ×80 % + third ×40 %" (diplomed.free.fr), WDC 2025 "best 2 of rounds 1–3
plus round 4; the top 21 after three rounds get 50 % extra on round 4" (dipvis
`TScoringWDC2025`), dipvis' best-N rounds, and the plain sum.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence

from bot.core.tournament.model import TournamentError

# edc-2023 D 1: "1 round played: 110% / 2: 110%/100% / 3: 100%/100%/50% / 4: 100%/90%/50%/40%"
EDC2023_WEIGHTS: Mapping[int, tuple[float, ...]] = {
    1: (1.10,),
    2: (1.10, 1.00),
    3: (1.00, 1.00, 0.50),
    4: (1.00, 0.90, 0.50, 0.40),
}
WDC2019_WEIGHTS = (1.00, 0.80, 0.40)
WDC2025_TOP = 21
WDC2025_BONUS = 1.5


def weighted(scores: Sequence[float], weights: Sequence[float]) -> float:
    """Scores sorted highest first, each times its weight; scores past the weights count 0."""
    best = sorted(scores, reverse=True)
    return sum(s * w for s, w in zip(best, weights, strict=False))


def edc2023(scores: Sequence[float]) -> float:
    if not scores:
        return 0.0
    weights = EDC2023_WEIGHTS.get(len(scores))
    if weights is None:
        raise TournamentError(f"EDC 2023 weights {len(scores)} rounds at most 4 (seed B: 4 rounds)")
    return weighted(scores, weights)


def wdc2019(scores: Sequence[float]) -> float:
    return weighted(scores, WDC2019_WEIGHTS)


def best_n(scores: Sequence[float], n: int) -> float:
    return sum(sorted(scores, reverse=True)[:n])


def wdc2025(by_round: Mapping[str, Mapping[int, float]]) -> dict[str, float]:
    """Best 2 of rounds 1-3, plus round 4 (×1.5 for the top 21 after three rounds; players
    tied with the 21st are in: the research is silent on ties)."""
    after3 = {p: best_n([s for r, s in rs.items() if r <= 3], 2) for p, rs in by_round.items()}
    order = sorted(after3.values(), reverse=True)
    cut = order[WDC2025_TOP - 1] if len(order) >= WDC2025_TOP else float("-inf")
    out: dict[str, float] = {}
    for p, rs in by_round.items():
        r4 = rs.get(4, 0.0)
        out[p] = after3[p] + r4 * (WDC2025_BONUS if after3[p] >= cut else 1.0)
    return out


def _per_player(fn: Callable[[Sequence[float]], float]) -> Callable[..., dict[str, float]]:
    def run(by_round: Mapping[str, Mapping[int, float]]) -> dict[str, float]:
        return {p: fn(list(rs.values())) for p, rs in by_round.items()}

    return run


_BEST = re.compile(r"best-([1-9][0-9]?)$")
NAMES = ("edc2023-weights", "wdc2019", "wdc2025", "sum", "best-N")


def aggregator(name: str) -> Callable[[Mapping[str, Mapping[int, float]]], dict[str, float]]:
    """The aggregation called `name`: players' round scores -> their tournament points."""
    if name == "wdc2025":
        return wdc2025
    if name == "wdc2019":
        return _per_player(wdc2019)
    if name == "edc2023-weights":
        return _per_player(edc2023)
    if name == "sum":
        return _per_player(sum)
    m = _BEST.match(name)
    if m:
        n = int(m.group(1))
        return _per_player(lambda scores: best_n(scores, n))
    raise TournamentError(f"unknown rules {name!r} (known: edc2023, {', '.join(NAMES)})")
