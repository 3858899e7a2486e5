"""Rule options: one choice for every DATC v3.0 section-4 issue and every seed convention.

A `RuleSet` is plain data; presets live in `data/rules/NAME.toml` and are loaded by
`load_rules(NAME)` (see `bot.core.presets`). The defaults here are the DATC v3.0 preferences
(../shared/datc/OPTIONS.md, "What the test data assumes").
"""

from __future__ import annotations

from dataclasses import dataclass, fields, is_dataclass, replace
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


class UnreadableOrders(StrEnum):  # the table service, when a line of a set cannot be read
    REFUSE_SET = "refuse-set"  # the whole set is refused; the standing orders stay
    VOID_LINE = "void-line"  # edc-2023 E: the readable orders are kept, the line is void


class Choice(StrEnum):
    """A lettered choice where the issue's alternatives are a/b/c (4.B.*, 4.C.*, 4.D.*, 4.E.*)."""

    A = "a"
    B = "b"
    C = "c"
    D = "d"


@dataclass(frozen=True, slots=True)
class VoteRules:
    """The preset's `[votes]` table: the end-game vote procedure (bot.core.ending.votes)."""

    draws: bool = True  # a draw may be proposed
    concessions: bool = True  # a win may be conceded to one player
    once_per_player: bool = False  # edc-2023 E: "only once per game"
    one_per_season: bool = False  # edc-2023 E: "only one vote requested per season"
    closed_in_fall_adjudication: bool = False  # edc-2023 E: Fall orders read to adjustments
    closed_in_last_year: bool = False  # edc-2023 E: "There cannot be a vote the last year."
    opposition_ends_at_once: bool = False  # edc-2023 E: one "no" and the game resumes
    abstentions: bool = False  # house IX(1), IX(2)
    revisable: bool = True  # house IX(4): "players may submit revised votes"
    publish_counts: bool = False  # house IX(4) Alternative B
    concede_target_votes_yes: bool = False  # house IX(1): held to have voted for it
    gm_may_refuse: bool = True  # house IX(5)


@dataclass(frozen=True, slots=True)
class EndConditions:
    """The preset's `[end]` table (bot.core.ending.endgame)."""

    years: int = 0  # game length when the clock preset sets none (0: no limit)
    stalemate_years: int = 0  # years with no centre changing owner that stop the game (0: never)
    draw_offer_years: int = 0  # such years after which the GM may declare a draw (0: never)


@dataclass(frozen=True, slots=True)
class ScoringRules:
    """The preset's `[scoring]` table: the system of the final standings (bot.core.scoring)."""

    system: str = "sum-of-squares"


# The preset tables: RuleSet field -> its dataclass.
TABLES: dict[str, type] = {"votes": VoteRules, "end": EndConditions, "scoring": ScoringRules}


@dataclass(frozen=True, slots=True)
class RuleSet:
    name: str = "datc"
    # 4.A convoys
    multi_route: MultiRoute = MultiRoute.ALL_ROUTES_DISRUPTED  # 4.A.1 b
    convoy_paradox: ConvoyParadox = ConvoyParadox.SZYKMAN  # 4.A.2 f
    adjacent_convoy: AdjacentConvoy = AdjacentConvoy.RULE_2000  # 4.A.3 c, no fallback
    convoyed_attack_cuts_support_on_itself: bool = False  # 4.A.4 a
    retreat_to_convoyed_attacker_origin: bool = True  # 4.A.5 b
    # 4.A.6 (convoy paths) is no key: a path is not in Parley's order syntax, so an order
    # giving one is unreadable (every seed chooses a); see docs/rules.md "Readings".
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
    # 4.D.2 (sets in an unknown order) is no key: the table service always knows the order.
    # 4.E miscellaneous
    # 4.E.1: an illegal move is ignored and the unit can receive hold support (house III(5) A
    # says no: a unit ordered to move never receives hold support).
    illegal_move_receives_hold_support: bool = True
    poorly_written_orders: Choice = Choice.A  # 4.E.2 a: judge each order by itself
    implicit_orders: bool = False  # 4.E.3 b (EDC: inferred orders allowed)
    # 4.E.4 (perpetual orders) is no key: every seed erases orders after each adjudication.
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
    # "A PAR XXX" read as a hold (edc-2023 "Defend: H, T or xxx"); false: the set is refused
    # at entry (Stabbeurfou 2(h): 'The sequence "XXX" is refused by the system').
    xxx_hold_accepted: bool = True
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
    # house II(5): "You can submit retreat/adjustment orders early": a set labelled for a
    # later retreat or adjustment phase is kept and applied when that phase opens.
    contingent_orders: bool = False
    unreadable_orders: UnreadableOrders = UnreadableOrders.REFUSE_SET
    expedited_removal: bool = False  # Stabbeurfou 3: remove powers with no centre in the fall
    # Stab!: free placement, public/private reports instead of results (stab rules 1-6).
    hidden_movement: bool = False
    non_dias_draws: bool = False  # house / stabbeurfou votes
    solo_centers: int | None = None  # None: more than half of the map's centres
    votes: VoteRules = VoteRules()
    end: EndConditions = EndConditions()
    scoring: ScoringRules = ScoringRules()

    def with_options(self, **changes: Any) -> RuleSet:
        """A copy with `changes`; a table's key is written `table__key` (`end__years=7`)."""
        tables: dict[str, dict[str, Any]] = {}
        flat: dict[str, Any] = {}
        for key, value in changes.items():
            table, sep, sub = key.partition("__")
            if sep:
                tables.setdefault(table, {})[sub] = value
            else:
                flat[key] = value
        for table, subs in tables.items():
            flat[table] = replace(getattr(self, table), **subs)
        return replace(self, **flat)

    def option(self, name: str) -> Any:
        """The value of an option by its name in `option_names()` (`votes.draws` for a table's)."""
        table, sep, sub = name.partition(".")
        return getattr(getattr(self, table), sub) if sep else getattr(self, name)

    @classmethod
    def option_names(cls) -> list[str]:
        """Every option a preset sets: the flat keys, then `table.key` for each table's keys."""
        out = [f.name for f in fields(cls) if f.name != "name" and f.name not in TABLES]
        for table, kind in TABLES.items():
            assert is_dataclass(kind)
            out += [f"{table}.{f.name}" for f in fields(kind)]
        return out


DATC = RuleSet()
