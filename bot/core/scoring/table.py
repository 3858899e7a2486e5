"""The input every scoring system reads, checked once."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from bot.core.model import Power


class ScoringError(ValueError):
    """Scoring input that does not describe a finished table (a user can cause it)."""


@dataclass(frozen=True, slots=True)
class Table:
    centers: Mapping[Power, int]  # every power of the game, 0 for the eliminated
    total_centers: int  # centres that exist on the map, neutral ones included
    powers: tuple[Power, ...]
    survivors: frozenset[Power]
    draw: frozenset[Power] | None
    solo_threshold: int

    @classmethod
    def build(
        cls,
        centers: Mapping[Power, int],
        total_centers: int,
        *,
        powers: Sequence[Power],
        survivors: Collection[Power] | None = None,
        draw: Collection[Power] | None = None,
        solo_centers: int | None = None,
    ) -> Table:
        if total_centers <= 0:
            raise ScoringError(f"total_centers must be positive, not {total_centers}")
        for power, n in centers.items():
            if power not in powers:
                raise ScoringError(f"{power} does not play in this game")
            if isinstance(n, bool) or not isinstance(n, int) or n < 0:
                raise ScoringError(f"{power}: centre count must be a whole number >= 0, not {n!r}")
        full = {p: int(centers.get(p, 0)) for p in powers}
        owned = sum(full.values())
        if owned > total_centers:
            raise ScoringError(f"{owned} centres owned but only {total_centers} on the map")
        if survivors is None:
            surv = frozenset(p for p, n in full.items() if n > 0)
        else:
            surv = frozenset(survivors)
            for p in surv:
                if p not in powers:
                    raise ScoringError(f"survivor {p} does not play in this game")
            for p, n in full.items():
                if n > 0 and p not in surv:
                    raise ScoringError(f"{p} holds {n} centres, so it survives")
        members: frozenset[Power] | None = None
        if draw is not None:
            members = frozenset(draw)
            if not members:
                raise ScoringError("a draw needs at least one member")
            for p in members:
                if p not in surv:
                    raise ScoringError(f"draw member {p} is not a survivor")
        # Solo: strictly more than half of the centres that exist (edc-2023 C, stabbeurfou 2(i)).
        threshold = solo_centers if solo_centers is not None else total_centers // 2 + 1
        return cls(MappingProxyType(full), total_centers, tuple(powers), surv, members, threshold)

    @property
    def neutral(self) -> int:
        return self.total_centers - sum(self.centers.values())

    @property
    def soloist(self) -> Power | None:
        for p, n in self.centers.items():
            if n >= self.solo_threshold:
                return p
        return None


def shared_rank_bonus(
    counts: Mapping[Power, int], bonuses: Sequence[float], eligible: Collection[Power]
) -> dict[Power, float]:
    """Rank bonuses by centre count, tied powers sharing the bonuses of the places they span.

    edc-2023 C: "if the top three people are tied at 10 centers, each of them will add
    (9+6+3)/3=6 points. The next person will score points for fourth place."
    """
    ranked = sorted((p for p in counts if p in eligible), key=lambda p: -counts[p])
    out = dict.fromkeys(counts, 0.0)
    place = 0
    while place < len(ranked):
        n = counts[ranked[place]]
        group = [p for p in ranked if counts[p] == n]
        pot = sum(bonuses[place : place + len(group)])
        for p in group:
            out[p] = pot / len(group)
        place += len(group)
    return out
