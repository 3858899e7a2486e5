"""The input every scoring system reads, checked once."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
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
    # Year each eliminated power lost its last centre (from the game record's centres by
    # year); only the systems that pay eliminated powers by years survived read it.
    eliminated: Mapping[Power, int] = field(default_factory=lambda: MappingProxyType({}))
    end_year: int | None = None  # the last game year played (a solo's year)
    first_year: int = 1901

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
        eliminated: Mapping[Power, int] | None = None,
        end_year: int | None = None,
        first_year: int = 1901,
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
        years = _check_years(eliminated or {}, surv, powers, end_year, first_year)
        return cls(
            MappingProxyType(full),
            total_centers,
            tuple(powers),
            surv,
            members,
            threshold,
            MappingProxyType(years),
            end_year,
            first_year,
        )

    @property
    def neutral(self) -> int:
        return self.total_centers - sum(self.centers.values())

    @property
    def soloist(self) -> Power | None:
        for p, n in self.centers.items():
            if n >= self.solo_threshold:
                return p
        return None

    def solo_scores(self, points: float) -> dict[Power, float]:
        """A solo takes `points`, everyone else nothing (every system scores a solo so)."""
        return {p: points if p == self.soloist else 0.0 for p in self.powers}

    def years_survived(self, power: Power) -> int:
        """Whole years an eliminated power played before the year it was eliminated
        (eliminated in 1905 with a 1901 start: 4), as dipvis counts them."""
        year = self.eliminated.get(power)
        if year is None:
            raise ScoringError(
                f"{power} is eliminated: this system needs the year it was eliminated"
                " (from the game record's centres by year)"
            )
        return year - self.first_year

    def last_year(self) -> int:
        if self.end_year is None:
            raise ScoringError("this system needs the last game year played (end_year)")
        return self.end_year


def _check_years(
    eliminated: Mapping[Power, int],
    survivors: frozenset[Power],
    powers: Sequence[Power],
    end_year: int | None,
    first_year: int,
) -> dict[Power, int]:
    out: dict[Power, int] = {}
    for p, year in eliminated.items():
        if p not in powers:
            raise ScoringError(f"eliminated power {p} does not play in this game")
        if p in survivors:
            raise ScoringError(f"{p} survives, so it has no year of elimination")
        if isinstance(year, bool) or not isinstance(year, int) or year < first_year:
            raise ScoringError(f"{p}: year of elimination must be a year >= {first_year}")
        if end_year is not None and year > end_year:
            raise ScoringError(f"{p}: eliminated in {year}, after the game's end ({end_year})")
        out[p] = year
    if end_year is not None and end_year < first_year - 1:
        raise ScoringError(f"end_year {end_year} is before the game's first year {first_year}")
    return out


def elimination_years(
    centers_by_year: Sequence[tuple[int, Mapping[Power, int]]],
) -> dict[Power, int]:
    """Year each power was eliminated, from the game record's centres by year (year 1900 =
    the start, then each game year closed): the year after which it held no centre for good."""
    out: dict[Power, int] = {}
    seen: set[Power] = set()  # powers that held a centre (the record omits zero counts)
    for year, counts in centers_by_year:
        for p in [*counts, *sorted(seen - set(counts))]:
            if counts.get(p, 0) > 0:
                seen.add(p)
                out.pop(p, None)
            elif p in seen and p not in out:
                out[p] = year
    return out


def shared_places(
    keys: Mapping[Power, tuple[float, ...]], points: Sequence[float]
) -> dict[Power, float]:
    """Place points by a key (higher is better), tied powers sharing the points of the places
    they span; places past the end of `points` are worth 0."""
    ranked = sorted(keys, key=lambda p: keys[p], reverse=True)
    out: dict[Power, float] = {}
    place = 0
    while place < len(ranked):
        group = [p for p in ranked if keys[p] == keys[ranked[place]]]
        pot = sum(points[place : place + len(group)])
        for p in group:
            out[p] = pot / len(group)
        place += len(group)
    return out


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


def elimination_key(table: Table, power: Power, group: Collection[Power]) -> tuple[float, float]:
    """Order of elimination, for systems that rank eliminated powers by it: survivors first
    (1, 0); an eliminated power (0, year it was eliminated). The year is only required when
    two or more powers of `group` are eliminated (otherwise there is nothing to order)."""
    if power in table.survivors:
        return (1.0, 0.0)
    dead = [p for p in group if p not in table.survivors]
    if len(dead) < 2:
        return (0.0, 0.0)
    return (0.0, float(table.years_survived(power)))
