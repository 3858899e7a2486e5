"""Rule options: one choice for every DATC v3.0 section-4 issue and every seed convention.

A `RuleSet` is plain data; presets live in `data/rules/NAME.toml` and are loaded by
`load_rules(NAME)` (see `bot.core.presets`). The defaults here are the DATC v3.0 preferences
(../shared/datc/OPTIONS.md, "What the test data assumes").
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from enum import StrEnum
from typing import Any


class MultiRoute(StrEnum):  # 4.A.1
    ANY_ROUTE_DISRUPTED = "a"  # 1971: one route disrupted disrupts the convoy
    ALL_ROUTES_DISRUPTED = "b"  # 1982 and later


class ConvoyParadox(StrEnum):  # 4.A.2
    RULE_1971 = "a"
    RULE_1982 = "b"
    RULE_2000 = "c"
    ALL_HOLD = "d"
    SZYKMAN = "f"


class AdjacentConvoy(StrEnum):  # 4.A.3
    RULE_1971 = "a"  # convoy used only when the destination unit moves the opposite way
    RULE_1982 = "b"  # intent of the army owner's whole order set
    RULE_2000 = "c"  # "via convoy" or a convoying fleet of the army's own power
    RULE_2000_FALLBACK = "c-fallback"  # as c, but a failed via-convoy move falls back to land
    EXPLICIT_ONLY = "explicit"  # DPTG practice: only with an explicit "via convoy"


class CivilDisorder(StrEnum):  # 4.D.8 and the seeds
    RULE_2023 = "2023"  # DATC 4.D.8: nearest owned centre, any terrain for both unit types
    WORLD_MASTERS = "world-masters"  # gm-order-correction-rules III(4)
    EDC_RENEGADE_2023 = "edc-renegade-2023"  # edc-2023 section E
    HOUSE = "house"  # house-rules: shortest legal route including convoys
    HOME_ANY_TERRAIN = "pre-2023"  # common pre-2023 practice (6.J.11 alternative)
    # DATC 2.x 4.D.8 e (Stabbeurfou's "simplified" distance): to a home centre, armies and
    # fleets both over any terrain.
    HOME_BOTH_ANY_TERRAIN = "home-any-terrain"


class DuplicateOrders(StrEnum):  # 4.D.3 (and EDC)
    FIRST = "a"
    LAST = "b"
    HOLD = "c"  # illegal: the unit holds and can receive hold support
    CIVIL_DISORDER = "civil-disorder"


class Choice(StrEnum):
    """A lettered choice where the issue's alternatives are a/b/c (4.B.*, 4.C.*, 4.D.*, 4.E.*)."""

    A = "a"
    B = "b"
    C = "c"
    D = "d"


@dataclass(frozen=True, slots=True)
class RuleSet:
    name: str = "datc"
    # 4.A convoys
    multi_route: MultiRoute = MultiRoute.ALL_ROUTES_DISRUPTED  # 4.A.1 b
    convoy_paradox: ConvoyParadox = ConvoyParadox.SZYKMAN  # 4.A.2 f
    adjacent_convoy: AdjacentConvoy = AdjacentConvoy.RULE_2000  # 4.A.3 c, no fallback
    convoyed_attack_cuts_support_on_itself: bool = False  # 4.A.4 a
    retreat_to_convoyed_attacker_origin: bool = True  # 4.A.5 b
    convoy_path_allowed: Choice = Choice.A  # 4.A.6 a: paths ignored
    dislodged_bounces_convoyed_attacker_origin: bool = True  # 4.A.7 b
    # 4.B coasts
    default_single_coast: bool = True  # 4.B.2 a
    unreachable_coast_illegal: bool = True  # 4.B.3 b
    support_requires_coast: bool = False  # 4.B.4: accepted without coast
    wrong_unit_coast_ignored: bool = True  # 4.B.5 b
    irrelevant_coast_ignored: bool = True  # 4.B.6 b
    # 4.C unit designation
    missing_unit_type: Choice = Choice.B  # 4.C.1 b
    wrong_unit_type: Choice = Choice.B  # 4.C.2 b
    missing_build_type: Choice = Choice.C  # 4.C.3 c
    fleet_build_inland_makes_army: bool = False  # 4.C.4 a
    missing_nationality: Choice = Choice.B  # 4.C.5 b
    wrong_nationality: Choice = Choice.B  # 4.C.6 b
    # 4.D too many and too few orders
    duplicate_orders: DuplicateOrders = DuplicateOrders.HOLD  # 4.D.3 c
    too_many_builds: Choice = Choice.B  # 4.D.4 b: first legal builds
    two_builds_same_province: Choice = Choice.B  # 4.D.5 b: first
    too_many_disbands: Choice = Choice.B  # 4.D.6 b: first legal disbands
    waive_allowed: bool = True  # 4.D.7 a
    civil_disorder: CivilDisorder = CivilDisorder.RULE_2023  # 4.D.8
    hold_support_for_civil_disorder: bool = True  # 4.D.9 b
    # Procedural 4.D issues, applied by the table service when it collects order sets.
    order_sets: Choice = Choice.C  # 4.D.1 c: only the latest set, unless it says otherwise
    order_sets_unknown_order: Choice = Choice.B  # 4.D.2 b: combine all sets
    # 4.E miscellaneous
    # 4.E.1: an illegal move is ignored and the unit can receive hold support (house III(5) A
    # says no: a unit ordered to move never receives hold support).
    illegal_move_receives_hold_support: bool = True
    poorly_written_orders: Choice = Choice.A  # 4.E.2 a: judge each order by itself
    implicit_orders: bool = False  # 4.E.3 b (EDC: inferred orders allowed)
    perpetual_orders: bool = False  # 4.E.4 b
    # 4.E.5 c: not allowed; the table service then refuses a set ordering another power's unit
    # at submission (a, b: such an order is saved with a warning, the adjudicator rules on it).
    proxy_orders: Choice = Choice.C
    # Seed conventions
    reject_inaccurate_order_sets: bool = False  # Stabbeurfou: refuse a whole set at submission
    # Stabbeurfou 4.C.1: the ordered unit's type (A/F) is mandatory in a move/hold/support/
    # convoy order (not in retreats, removals, or the supported or convoyed unit).
    unit_type_required: bool = False
    # 4.B.4 (6.B.9): a support naming a coast other than the move's is invalid. World Masters
    # II(3)c and house IV(7) C accept it.
    support_coast_mismatch_ignored: bool = False
    # World Masters III(5): "A STP/NC B" (an army build naming a coast) builds nothing.
    army_build_with_coast_fails: bool = False
    # gm-order-correction-rules III(2)-(3), house V(2)-(3): adjustment orders are read from
    # bottom to top; the "first"/"last" of 4.D.4-4.D.6 then follow that reading order.
    builds_read_bottom_to_top: bool = False
    # EDC E: "A unit receiving several different orders will be considered civil disorder,
    # even if some of the orders were invalid": illegal orders count as duplicates.
    duplicates_count_illegal_orders: bool = False
    first_year_imposed_builds: int = 0  # EDC E: the referee imposes up to two first-year builds
    late_orders_accepted: bool = False  # house VII(3) B: orders accepted until adjudication
    expedited_removal: bool = False  # Stabbeurfou 3: remove powers with no centre in the fall
    stalemate_years: int = 0  # Stabbeurfou 2(a): stop after 3 years of unchanged centres
    non_dias_draws: bool = False  # house / stabbeurfou votes
    solo_centers: int | None = None  # None: more than half of the map's centres

    def with_options(self, **changes: Any) -> RuleSet:
        return replace(self, **changes)

    @classmethod
    def option_names(cls) -> list[str]:
        return [f.name for f in fields(cls) if f.name != "name"]


DATC = RuleSet()
