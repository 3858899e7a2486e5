"""End-of-game figures: scoring throughput, a vote round, the centre chart.

Run: python3 bench/endgame.py
"""

from __future__ import annotations

import random
import time

from bot.core.ending.endgame import check_end, end_rules_for
from bot.core.ending.votes import Ballot, Moment, VoteBook, VoteKind, policy_for_rules
from bot.core.map import load_map
from bot.core.model import Phase, Position, Power
from bot.core.presets import load_rules
from bot.core.scoring import SYSTEMS, score
from renderer.chart import centre_chart

_SEVEN = load_map("standard").powers


STD_MAP = load_map("standard")


def random_centres(rng: random.Random) -> dict[Power, int]:
    counts = dict.fromkeys(_SEVEN, 0)
    for _ in range(rng.randint(22, 34)):
        counts[rng.choice(list(_SEVEN))] += 1
    while max(counts.values()) >= 18:
        top = max(counts, key=lambda p: counts[p])
        counts[top] -= 1
    return counts


def main() -> None:
    rng = random.Random(7)
    tables = [random_centres(rng) for _ in range(2000)]
    for name in sorted(SYSTEMS):
        t = time.perf_counter()
        for c in tables:
            # Systems that rank eliminated powers by year get one (1905) and the end (1910).
            gone = {p: 1905 for p, n in c.items() if n == 0}
            score(name, c, game_map=STD_MAP, eliminated=gone, end_year=1910)
        dt = time.perf_counter() - t
        print(f"score {name:15s} {len(tables) / dt:10.0f} tables/s")

    t = time.perf_counter()
    for _ in range(1000):
        m = Moment(Phase.parse("S1903M"))
        book, vote = VoteBook(policy_for_rules(load_rules("edc2023")), last_year=1907).propose(
            Power.FRANCE, VoteKind.DRAW, moment=m, survivors=list(_SEVEN)
        )
        for p in _SEVEN:
            book, vote = book.cast(vote.id, p, Ballot.YES, moment=m)
    print(f"edc2023 vote, 7 ballots  {(time.perf_counter() - t) * 1000 / 1000:8.3f} ms each")

    std = load_map("standard")
    centres = sorted(std.supply_centers)
    history = []
    for year in range(1901, 1911):
        owners = {c: rng.choice(list(_SEVEN)) for c in centres[: 22 + year - 1901]}
        history.append(Position.build(Phase.parse(f"W{year}A"), (), owners))
    t = time.perf_counter()
    for _ in range(200):
        check_end(history, end_rules_for(load_rules("stabbeurfou")), std)
    print(f"check_end, 10 years      {(time.perf_counter() - t) * 1000 / 200:8.3f} ms each")
    t = time.perf_counter()
    for _ in range(10):
        png = centre_chart(history, game_map=std)
    dt = (time.perf_counter() - t) / 10
    print(f"centre_chart, 10 years   {dt * 1000:8.1f} ms each, {len(png)} bytes")


if __name__ == "__main__":
    main()
