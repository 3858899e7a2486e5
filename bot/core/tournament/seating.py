"""Seating and country allocation for one round (pure, deterministic for a given seed).

Rules (seed edc-2023):
- B: tables of 7; "If the number of people does not allow to play all the tables of a round
  with the same number of people per table, the tournament management may ask some people
  to withdraw, or to play on two tables. If no solution is found, priority will be given to
  people according to their ranking"; the Sandard variant (six players) "in the event of an
  insufficient number of people".
- D: withdrawal and two tables once each per player, mutually exclusive; withdrawal
  priority "first to the person who has played the most rounds, then to the lowest ranked".
- E: "a person does not play the same country twice and ... they play with different
  people"; "the best players of each part of a round will be placed ... on the same table
  in the following round if they have not played together before".

Method (after the director tools, research 3c): a squared pair-repeat penalty (a pair that
has met c times costs 2c+1 more to meet again, so Σ c² grows least), a reward for seating
two of the last round's table-toppers together when they have not met, a doubler's two
seats and the director's keep-apart pairs kept apart; players are moved between tables by
improving swaps from a seeded shuffle. Countries: per table, the assignment minimising
Σ (times the player already had that country)², by improving swaps from a greedy start.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations, permutations

from bot.core.tournament.edc2023 import withdrawal_priority
from bot.core.tournament.model import TournamentError

TABLE = 7
TOP_REWARD = 3.0  # against 1 for a first meeting: toppers who never met are drawn together
APART = 25_000.0  # a doubler's two seats (dipvis: 25 pretend games × 1000)
REPEAT_POWER = 1000.0


@dataclass(frozen=True, slots=True)
class PastTable:
    round: int
    seats: Mapping[str, str]  # player -> power played
    scores: Mapping[str, float]  # player -> table score (to find the table's best)


@dataclass(frozen=True, slots=True)
class SeatedTable:
    number: int
    variant: str  # "standard", or "sandard" for a six-player table
    seats: tuple[tuple[str, str], ...]  # (player, power), in power order


@dataclass(frozen=True, slots=True)
class Seating:
    tables: tuple[SeatedTable, ...]
    withdrawn: tuple[str, ...]  # asked to withdraw (volunteers, seed D priority)
    two_tables: tuple[str, ...]  # play two tables this round
    sitting_out: tuple[str, ...]  # no solution: the lowest ranked sit out (seed B)


@dataclass(frozen=True, slots=True)
class Plan:
    sizes: tuple[int, ...]
    withdrawn: tuple[str, ...]
    two_tables: tuple[str, ...]
    sitting_out: tuple[str, ...]


def plan_tables(
    present: Sequence[str],
    *,
    ranking: Sequence[str] = (),
    rounds_played: Mapping[str, int] | None = None,
    volunteers_withdraw: Sequence[str] = (),
    volunteers_two: Sequence[str] = (),
    small_tables: bool = True,
) -> Plan:
    """How many tables of which size, and who withdraws or doubles. Our order of choices
    (the seed leaves it to the management): doublers if fewer are needed than withdrawals,
    then withdrawals, then six-player tables, then the lowest ranked sit out."""
    n = len(present)
    if n < TABLE - 1:
        raise TournamentError(f"{n} players present: a table needs at least 6")
    rank = {p: i + 1 for i, p in enumerate(ranking)}
    k = n % TABLE
    if k == 0:
        return Plan((TABLE,) * (n // TABLE), (), (), ())
    need_two = TABLE - k
    doublers = [p for p in ranking if p in volunteers_two and p in present]
    doublers += sorted(p for p in volunteers_two if p in present and p not in doublers)
    if need_two <= k and len(doublers) >= need_two:
        # Seed B: "priority ... according to their ranking": the best ranked volunteers.
        return Plan((TABLE,) * ((n + need_two) // TABLE), (), tuple(doublers[:need_two]), ())
    willing = [p for p in volunteers_withdraw if p in present]
    if len(willing) >= k:
        order = withdrawal_priority(willing, rounds_played or {}, rank)
        return Plan((TABLE,) * ((n - k) // TABLE), tuple(order[:k]), (), ())
    if small_tables:
        for sixes in range(1, n // (TABLE - 1) + 1):
            if (n - 6 * sixes) % TABLE == 0 and n - 6 * sixes >= 0:
                sevens = (n - 6 * sixes) // TABLE
                return Plan((TABLE,) * sevens + (TABLE - 1,) * sixes, (), (), ())
    worst = sorted(present, key=lambda p: (rank.get(p, len(rank) + 1), p))
    out = tuple(worst[-k:])
    return Plan((TABLE,) * ((n - k) // TABLE), (), (), out)


def _history(
    past: Sequence[PastTable],
) -> tuple[dict[frozenset[str], int], dict[str, dict[str, int]]]:
    pairs: dict[frozenset[str], int] = defaultdict(int)
    powers: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for t in past:
        for a, b in combinations(sorted(t.seats), 2):
            pairs[frozenset((a, b))] += 1
        for p, power in t.seats.items():
            powers[p][power] += 1
    return pairs, powers


def toppers(past: Sequence[PastTable]) -> set[str]:
    """The best player of each table of the last round played (seed E)."""
    if not past:
        return set()
    last = max(t.round for t in past)
    out: set[str] = set()
    for t in past:
        if t.round == last and t.scores:
            out.add(max(sorted(t.scores), key=lambda p: t.scores[p]))
    return out


def seat_round(
    present: Sequence[str],
    past: Sequence[PastTable] = (),
    *,
    powers: Sequence[str],
    small_powers: Sequence[str] | None = None,
    ranking: Sequence[str] = (),
    volunteers_withdraw: Sequence[str] = (),
    volunteers_two: Sequence[str] = (),
    keep_apart: Sequence[tuple[str, str]] = (),
    seed: int = 0,
) -> Seating:
    """A proposed seating for the round: tables and every player's country. `keep_apart`:
    pairs the director never wants at one table (weighted like a doubler's two seats)."""
    if len(set(present)) != len(present):
        raise TournamentError("a player is listed twice among the present players")
    if len(powers) != TABLE:
        raise TournamentError(f"a table needs {TABLE} powers, not {len(powers)}")
    rounds_played: dict[str, int] = defaultdict(int)
    for t in past:
        for p in t.seats:
            rounds_played[p] += 1
    plan = plan_tables(
        present,
        ranking=ranking,
        rounds_played=rounds_played,
        volunteers_withdraw=volunteers_withdraw,
        volunteers_two=volunteers_two,
        small_tables=small_powers is not None,
    )
    seated = [p for p in present if p not in plan.withdrawn and p not in plan.sitting_out]
    entries = seated + [f"{p}\x00second" for p in plan.two_tables]  # a doubler's second seat
    person = {e: e.split("\x00")[0] for e in entries}
    pairs, had = _history(past)
    top = toppers(past)
    apart = {frozenset(pair) for pair in keep_apart}

    def weight(a: str, b: str) -> float:
        pa, pb = person[a], person[b]
        if pa == pb or frozenset((pa, pb)) in apart:
            return APART
        c = pairs.get(frozenset((pa, pb)), 0)
        w = 2.0 * c + 1.0
        if c == 0 and pa in top and pb in top:
            w -= TOP_REWARD
        return w

    rng = random.Random(seed)
    order = sorted(entries)
    rng.shuffle(order)
    tables: list[list[str]] = []
    i = 0
    for size in plan.sizes:
        tables.append(order[i : i + size])
        i += size
    _improve(tables, weight)
    out: list[SeatedTable] = []
    for number, members in enumerate(tables, start=1):
        small = len(members) < TABLE
        table_powers = list(small_powers) if small and small_powers is not None else list(powers)
        seats = _assign_powers([person[e] for e in members], table_powers, had, rng)
        out.append(SeatedTable(number, "sandard" if small else "standard", seats))
    return Seating(tuple(out), plan.withdrawn, plan.two_tables, plan.sitting_out)


def _improve(tables: list[list[str]], weight: Callable[[str, str], float]) -> None:
    """Swap players between tables while a swap lowers the total pair cost."""
    w = weight
    cache: dict[tuple[str, str], float] = {}

    def cost(p: str, others: Sequence[str], skip: str) -> float:
        total = 0.0
        for q in others:
            if q is skip or q == p:
                continue
            key = (p, q) if p < q else (q, p)
            v = cache.get(key)
            if v is None:
                v = cache[key] = float(w(p, q))
            total += v
        return total

    for _ in range(8):
        improved = False
        for ti, tj in combinations(range(len(tables)), 2):
            a, b = tables[ti], tables[tj]
            for x in range(len(a)):
                for y in range(len(b)):
                    p, q = a[x], b[y]
                    delta = cost(p, b, q) + cost(q, a, p) - cost(p, a, p) - cost(q, b, q)
                    if delta < -1e-9:
                        a[x], b[y] = q, p
                        improved = True
        if not improved:
            return


def _assign_powers(
    players: Sequence[str],
    powers: Sequence[str],
    had: Mapping[str, Mapping[str, int]],
    rng: random.Random,
) -> tuple[tuple[str, str], ...]:
    """Countries for one table: fewest repeats (squared), by improving swaps."""

    def c(p: str, power: str) -> float:
        n = had.get(p, {}).get(power, 0)
        return REPEAT_POWER * n * n

    order = list(powers)
    rng.shuffle(order)
    assign = dict(zip(players, order, strict=True))
    improved = True
    while improved:
        improved = False
        for p, q in combinations(players, 2):
            before = c(p, assign[p]) + c(q, assign[q])
            after = c(p, assign[q]) + c(q, assign[p])
            if after < before:
                assign[p], assign[q] = assign[q], assign[p]
                improved = True
    if any(c(p, assign[p]) for p in players):
        # Swaps stuck on a repeat: try every order (7! = 5040, only for such tables).
        best = sum(c(p, assign[p]) for p in players)
        for perm in permutations(powers):
            total = sum(c(p, power) for p, power in zip(players, perm, strict=True))
            if total < best:
                best, assign = total, dict(zip(players, perm, strict=True))
    rank = {power: i for i, power in enumerate(powers)}
    return tuple(sorted(assign.items(), key=lambda pp: rank[pp[1]]))
