"""Seating figures: simulated tournaments (4 rounds, random results) seated by
`bot.core.tournament.seating` against a random seating baseline.

Run: python3 bench/seating.py
Prints per field size: repeated countries (a player given a country already played), repeated
opponent pairs (pairs meeting a second time or more) and Σ c² over pair counts, top-player
meetings (pairs of last round's table-toppers who had never met, now at one table), keep-apart
pairs seated together (n/7 director-given pairs per field), and the slowest round's time to
seat.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from itertools import combinations

from bot.core.tournament.seating import PastTable, SeatedTable, Seating, seat_round, toppers

POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
SANDARD = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA")
ROUNDS = 4


def random_seating(
    players: Sequence[str],
    past: Sequence[PastTable],
    seed: int,
    _apart: Sequence[tuple[str, str]] = (),
) -> Seating:
    """The baseline: the same table sizes, players and countries shuffled."""
    planned = seat_round(players, past, powers=POWERS, small_powers=SANDARD, seed=seed)
    rng = random.Random(seed)
    seated = [p for t in planned.tables for p, _ in t.seats]
    rng.shuffle(seated)
    tables: list[SeatedTable] = []
    i = 0
    for t in planned.tables:
        members = seated[i : i + len(t.seats)]
        i += len(t.seats)
        countries = list(SANDARD if len(members) < 7 else POWERS)
        rng.shuffle(countries)
        tables.append(SeatedTable(t.number, t.variant, tuple(zip(members, countries, strict=True))))
    return Seating(tuple(tables), planned.withdrawn, planned.two_tables, planned.sitting_out)


Seater = Callable[[Sequence[str], Sequence[PastTable], int, Sequence[tuple[str, str]]], Seating]


def simulate(n: int, seater: Seater, seed: int) -> dict[str, float]:
    rng = random.Random(seed)
    players = [f"p{i:03d}" for i in range(n)]
    past: list[PastTable] = []
    shuffled = rng.sample(players, len(players))
    apart = [(shuffled[2 * i], shuffled[2 * i + 1]) for i in range(n // 7)]
    apart_met = 0
    top_meetings = 0
    slowest = 0.0
    for rnd in range(1, ROUNDS + 1):
        start = time.perf_counter()
        seating = seater(players, past, seed * 100 + rnd, apart)
        slowest = max(slowest, time.perf_counter() - start)
        met = {frozenset(pair) for t in past for pair in combinations(t.seats, 2)}
        top = toppers(past)
        for t in seating.tables:
            here = [p for p, _ in t.seats if p in top]
            at_table = {p for p, _ in t.seats}
            apart_met += sum(1 for a, b in apart if a in at_table and b in at_table)
            top_meetings += sum(1 for pair in combinations(here, 2) if frozenset(pair) not in met)
            seats = dict(t.seats)
            past.append(PastTable(rnd, seats, {p: rng.random() * 50 for p in seats}))
    countries = Counter((p, power) for t in past for p, power in t.seats.items())
    pairs = Counter(frozenset(pair) for t in past for pair in combinations(sorted(t.seats), 2))
    return {
        "repeated countries": sum(c - 1 for c in countries.values() if c > 1),
        "repeated pairs": sum(1 for c in pairs.values() if c > 1),
        "sum c^2": sum(c * c for c in pairs.values()),
        "top meetings": top_meetings,
        "apart met": apart_met,
        "max seconds": slowest,
    }


def main() -> None:
    def ours(
        players: Sequence[str],
        past: Sequence[PastTable],
        seed: int,
        apart: Sequence[tuple[str, str]],
    ) -> Seating:
        return seat_round(
            players, past, powers=POWERS, small_powers=SANDARD, keep_apart=apart, seed=seed
        )

    print(
        f"{'players':>7} {'seating':>8} {'rep.countries':>13} {'rep.pairs':>9} {'sum c^2':>8}"
        f" {'top meet':>8} {'apart':>5} {'max s':>7}"
    )
    for n in (35, 49, 70, 140):
        for name, seater in (("random", random_seating), ("parley", ours)):
            runs = [simulate(n, seater, seed) for seed in range(5)]
            avg = {k: sum(r[k] for r in runs) / len(runs) for k in runs[0]}
            print(
                f"{n:>7} {name:>8} {avg['repeated countries']:>13.1f} {avg['repeated pairs']:>9.1f}"
                f" {avg['sum c^2']:>8.1f} {avg['top meetings']:>8.1f} {avg['apart met']:>5.1f}"
                f" {max(r['max seconds'] for r in runs):>7.3f}"
            )


if __name__ == "__main__":
    main()
