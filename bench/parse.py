"""Orders parsed per second: a realistic 34-order set of a mid-game position, English and French.

    python3 bench/parse.py [--rounds N]

The LALR parser and the name table are built once (cached); the figure is the steady rate.
"""

from __future__ import annotations

import argparse
import time

from bot.core.jsonio import position_from_json
from bot.core.map import load_map
from bot.core.parser import parse_order

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


def rate(orders: list[str], lang: str, rounds: int) -> float:
    position = position_from_json(POSITION)
    start = time.perf_counter()
    for _ in range(rounds):
        for text in orders:
            parse_order(text, lang=lang, position=position, game_map=STANDARD)
    return rounds * len(orders) / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--rounds", type=int, default=100)
    args = ap.parse_args()
    t0 = time.perf_counter()
    parse_order("A PAR H", game_map=STANDARD)  # builds the LALR parser and loads the names once
    print(f"first parse (builds parser + names): {(time.perf_counter() - t0) * 1000:.1f} ms")
    en = rate(ORDERS, "en", args.rounds)
    fr = rate(ORDERS_FR, "fr", args.rounds)
    print(f"English: {en:,.0f} orders/s ({len(ORDERS)}-order set x {args.rounds})")
    print(f"French:  {fr:,.0f} orders/s ({len(ORDERS_FR)}-order set x {args.rounds})")
    print(f"a full 34-order set parses in {len(ORDERS) / en * 1000:.2f} ms")


if __name__ == "__main__":
    main()
