"""Orders parsed per second: canonical orders, the golden file's mix, and a realistic 34-order
set of a mid-game position in English and French; each by `parse_order` (the fast path, then
the grammar for what it does not read) and by the grammar alone (`parse_order_grammar`), in the
same run. `parse_order` holds each text's reading per map and language: "parse_order" is the
steady rate (texts sent again, as each edit of an order set re-sends it), "first read" the
rate with every reading dropped before each pass (`fastparse.forget`).

    python3 bench/parse.py [--rounds N]

The LALR parser and the name table are built once (cached); the figures are steady rates,
the best of three runs
in CPU time.
Targets (issue 18): >= 100,000 canonical orders/s, >= 30,000/s on the golden file's mix.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout, and tests.*
from bot.core.language import fastparse
from bot.core.language.parser import OrderSyntaxError, parse_order, parse_order_grammar
from bot.core.map import load_map
from bot.core.model import Position
from bot.core.records.jsonio import position_from_json
from tests.bot.core.language.test_parser import BOARDS, GOLDEN  # the golden file's boards

STANDARD = load_map("standard")

# Fall 1905: 34 units, written the way players write them (full names, abbreviations, coasts).
POSITION = {
    "phase": "F1905M",
    "units": {
        "AUSTRIA": ["A BUD", "A SER", "A GAL", "F GRE", "A BUL"],
        "ENGLAND": ["F NWG", "F NTH", "A NWY", "F ENG", "A BEL"],
        "FRANCE": ["A BUR", "A PIC", "F MAO", "F SPA/SC", "A MAR"],
        "GERMANY": ["A MUN", "A KIE", "F DEN", "A HOL", "A RUH"],
        "ITALY": ["F ION", "F TYS", "A VEN", "A TYR", "F WES"],
        "RUSSIA": ["A WAR", "A UKR", "F STP/NC", "A RUM", "F SEV"],
        "TURKEY": ["F BLA", "A ARM", "F AEG", "A CON"],
    },
}
ORDERS = [
    "A Budapest S A Galicia - Rumania",
    "A SER - bul",
    "A GAL - RUM",
    "F GRE - ION",
    "A BUL H",
    "F NWG - BAR",
    "F North Sea Convoys A Norway - Belgium",
    "A NWY - BEL via convoy",
    "F ENG S F MAO - Irish Sea",
    "A BEL - PIC",
    "A BUR S A Picardy",
    "A PIC H",
    "F Mid-Atlantic Ocean - IRI",
    "F SPA/SC - WES",
    "A MAR S A BUR",
    "A MUN - TYR",
    "A KIE - HOL",
    "F DEN - SKA",
    "A HOL - BEL",
    "A RUH S A HOL - BEL",
    "F ION - AEG",
    "F TYS S F ION",
    "A VEN S A TYR",
    "A TYR H",
    "F WES - SPA(sc)",
    "A WAR - GAL",
    "A UKR S A WAR - GAL",
    "F StP/nc - Barents Sea",
    "A RUM S A UKR",
    "F SEV - BLA",
    "F BLA - BUL east coast",
    "A ARM - SEV",
    "F AEG S F BLA - CON",
    "A CON - BUL",
]
ORDERS_FR = [
    "A BUD S A GAL - ROU",
    "F GRE - ION",
    "F GRO - BAR",
    "F NRD C A NGE - BEL",
    "A NGE - BEL par convoi",
    "F MAN S F ATL - STG",
    "A BOU S A PIC",
    "F ESP/CS - MED",
    "A TOU S A BOU",
    "A MUN - ALP",
    "F DAN - SKA",
    "A RHE S A PAY - BEL",
    "F TYR S F ION",
    "A VEN S A ALP",
    "A VAR - GAL",
    "F STP/CN - Mer de Barents",
    "F ODE - NOI",
    "F NOI - BUL côte est",
    "A CAU - ODE",
    "F EGE S F NOI - CON",
]


Case = tuple[str, str, Position | None]  # text, language, board


def rate(
    parse: Callable[..., object],
    cases: list[Case],
    rounds: int,
    repeat: int = 3,
    before: Callable[[], None] | None = None,
) -> float:
    """Orders per second of this process's CPU time, the best of `repeat` runs (the machine is
    shared: wall time would count the other processes); a refused order counts (the golden
    file has errors). `before` runs before each pass over the cases (counted)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        for _ in range(rounds):
            if before is not None:
                before()
            for text, lang, position in cases:
                with contextlib.suppress(OrderSyntaxError):
                    parse(text, lang=lang, position=position, game_map=STANDARD)
        best = min(best, time.process_time() - start)
    return rounds * len(cases) / best


def golden_cases() -> list[Case]:
    out = []
    for line in GOLDEN.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            lang, board, text, _ = line.split("\t")
            out.append((text, lang, BOARDS[board]))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--rounds", type=int, default=100)
    args = ap.parse_args()
    t0 = time.perf_counter()
    parse_order("A PAR H", game_map=STANDARD)  # builds the LALR parser and loads the names once
    print(f"first parse (builds parser + names): {(time.perf_counter() - t0) * 1000:.1f} ms")
    position = position_from_json(POSITION)
    en = [(t, "en", position) for t in ORDERS]
    canonical = [
        (str(parse_order(t, position=position, game_map=STANDARD)), "en", position) for t in ORDERS
    ]
    sets = [
        (f"canonical ({len(canonical)} orders, e.g. {canonical[0][0]!r})", canonical, 1),
        (f"golden file mix ({len(golden_cases())} rows, errors included)", golden_cases(), 0.1),
        (f"English set ({len(en)} orders)", en, 1),
        (f"French set ({len(ORDERS_FR)} orders)", [(t, "fr", position) for t in ORDERS_FR], 1),
    ]
    print(
        f"{'orders/s':58s} {'parse_order':>12s} {'first read':>11s} {'grammar only':>13s}"
        f" {'ratio':>6s} {'first':>6s}"
    )
    for label, cases, share in sets:
        rounds = max(1, int(args.rounds * share))
        rate(parse_order, cases[:10], 1)  # warm-up
        fast = rate(parse_order, cases, rounds)
        first = rate(parse_order, cases, max(1, rounds // 2), before=fastparse.forget)
        slow = rate(parse_order_grammar, cases, max(1, rounds // 4))
        print(
            f"{label:58s} {fast:12,.0f} {first:11,.0f} {slow:13,.0f}"
            f" {fast / slow:5.1f}x {first / slow:5.1f}x"
        )


if __name__ == "__main__":
    main()
