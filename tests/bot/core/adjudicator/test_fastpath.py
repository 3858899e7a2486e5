"""The fast path (fastpath.py) against the general resolver: the same Outcome, every field.

Three sources of phases: every DATC case and alternative, the corpus sample's movement phases
(read as `parley adjudicate --jsonl` reads them), and random boards with random orders drawn by
hypothesis, under every preset and every rule option that changes movement resolution.
"""

from __future__ import annotations

import gzip
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.cli.adjudicate import make_engine
from bot.core.adjudicator.fastpath import settle
from bot.core.adjudicator.mapindex import map_index
from bot.core.adjudicator.movement_phase import adjudicate_movement, prepare
from bot.core.adjudicator.random_phases import random_orders, random_position
from bot.core.language.interpret import interpret
from bot.core.model import PhaseKind, Position, Power
from bot.core.orders import Order
from bot.core.outcome import Outcome
from bot.core.presets import list_presets, load_rules
from bot.core.rules import DATC, AdjacentConvoy, ConvoyParadox, MultiRoute, RuleSet
from tests.bot.core.adjudicator.datc_harness import (
    GAME_MAP,
    feed,
    load_cases,
    prestate,
    rulesets_for,
)
from tests.bot.core.adjudicator.helpers import board, orders
from tests.shared import CORPUS

IDX = map_index(GAME_MAP)

# Every preset, and DATC with each option of movement resolution changed (4.A.1-4.A.7, 4.B.4,
# 4.D.9).
RULES: list[RuleSet] = [load_rules(name) for name in list_presets()] + [
    DATC.with_options(name="4.A.1a", multi_route=MultiRoute.ANY_ROUTE_DISRUPTED),
    *(
        DATC.with_options(name=f"4.A.2{p.value}", convoy_paradox=p)
        for p in ConvoyParadox
        if p is not DATC.convoy_paradox
    ),
    *(
        DATC.with_options(name=f"4.A.3{a.value}", adjacent_convoy=a)
        for a in AdjacentConvoy
        if a is not DATC.adjacent_convoy
    ),
    DATC.with_options(name="4.A.4b", convoyed_attack_cuts_support_on_itself=True),
    DATC.with_options(name="4.A.5a", retreat_to_convoyed_attacker_origin=False),
    DATC.with_options(name="4.A.7a", dislodged_bounces_convoyed_attacker_origin=False),
    DATC.with_options(name="4.B.4", support_requires_coast=True),
    DATC.with_options(name="4.D.9a", hold_support_for_civil_disorder=False),
]


def both(position: Position, orders: list[Order], rules: RuleSet) -> tuple[Outcome, bool]:
    """The fast outcome (asserted equal to the general one) and whether the fast path took it."""
    fast = adjudicate_movement(position, orders, rules, IDX)
    general = adjudicate_movement(position, orders, rules, IDX, fast=False)
    assert fast == general
    # field by field too, so that a difference names itself
    assert fast.results == general.results
    assert [r.detail for r in fast.results] == [r.detail for r in general.results]
    assert fast.dislodged == general.dislodged
    assert fast.position == general.position
    _, r = prepare(position, orders, rules, IDX)
    return fast, settle(r)


# --- DATC -------------------------------------------------------------------------------------


def _datc_runs() -> list[Any]:
    out = []
    for case in load_cases():
        out.append(pytest.param(case, DATC, id=case["id"]))
        for a, alt in enumerate(case.get("alternatives", [])):
            for label, rules in rulesets_for(alt["options"]):
                out.append(pytest.param(case, rules, id=f"{case['id']}-alt{a}-{label}"))
    return out


@pytest.mark.parametrize(("case", "rules"), _datc_runs())
def test_datc_fast_equals_general(case: dict[str, Any], rules: RuleSet) -> None:
    position = prestate(case)
    for step in case["steps"]:
        orders = [o for o in feed(step, position, rules) if o is not None]
        if position.phase.kind is not PhaseKind.MOVEMENT:
            return  # the steps after a movement phase are retreats
        outcome, _ = both(position, orders, rules)
        position = outcome.position


def test_datc_fast_path_takes_the_convoy_free_cases() -> None:
    """The circular movements, head-to-head battles and cut supports go the fast way."""
    taken = set()
    for case in load_cases():
        position = prestate(case)
        if position.phase.kind is not PhaseKind.MOVEMENT:
            continue
        orders = [o for o in feed(case["steps"][0], position) if o is not None]
        if both(position, orders, DATC)[1]:
            taken.add(case["id"])
    assert {"6.C.1", "6.C.2", "6.C.3", "6.D.17", "6.D.21", "6.E.1", "6.E.5", "6.E.9"} <= taken
    assert "6.F.14" not in taken  # a convoy paradox: the general resolver
    assert len(taken) > 90


# --- the corpus sample ------------------------------------------------------------------------


def test_corpus_sample_fast_equals_general() -> None:
    engine = make_engine()
    n = taken = 0
    with gzip.open(CORPUS, "rt", encoding="utf-8") as fh:
        for line in fh:
            position, orders, _ = engine.read(json.loads(line))
            if position.phase.kind is not PhaseKind.MOVEMENT:
                continue
            it = interpret(position, orders, engine.rules, engine.game_map)
            taken += both(position, list(it.orders), engine.rules)[1]
            n += 1
    assert n > 2000
    assert taken > n // 2  # most real phases have no convoy


# --- random boards ------------------------------------------------------------------------------


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    n_units=st.integers(4, 34),
    move_rate=st.floats(0.1, 0.95),
    convoys=st.booleans(),
    wild=st.sampled_from([0.0, 0.2, 0.6]),
    idle=st.integers(0, 2),
    rules=st.sampled_from(RULES),
)
def test_random_boards_fast_equals_general(
    seed: int,
    n_units: int,
    move_rate: float,
    convoys: bool,
    wild: float,
    idle: int,
    rules: RuleSet,
) -> None:
    rng = random.Random(seed)
    position = random_position(rng, GAME_MAP, n_units)
    orders = random_orders(rng, position, IDX, move_rate=move_rate, convoys=convoys, wild=wild)
    # `idle` powers give no order at all (civil disorder, 4.D.9)
    silent = set(rng.sample(sorted(GAME_MAP.powers), idle))
    orders = [o for o in orders if o.power not in silent]
    _, taken = both(position, orders, rules)
    if not convoys:
        assert taken  # no convoy: the fast path must settle every such phase


def test_dense_boards_with_circles_and_threatened_supports() -> None:
    """Seeded dense boards, most units moving: chains, circles of moves and supports attacked
    from where they support into, in numbers (each a case the fast path settles itself)."""
    rng = random.Random(18)
    for _ in range(300):
        position = random_position(rng, GAME_MAP, 34)
        orders = random_orders(rng, position, IDX, move_rate=0.8, convoys=False, wild=0.3)
        for rules in (DATC, RULES[-1]):
            assert both(position, orders, rules)[1]


def test_dense_boards_with_convoys_nobody_attacks() -> None:
    """Seeded dense boards with convoys, under the rules that change what a convoyed move does:
    the phases whose convoying fleets nobody attacks go the fast way (routes fixed, no
    paradox), swaps by convoy and moves whose route is broken included."""
    rng = random.Random(1806)
    rules = [DATC, *(r for r in RULES if r.name in ("4.A.3a", "4.A.3b", "4.A.4b", "4.A.7a"))]
    assert len(rules) == 5
    taken = 0
    for _ in range(400):
        position = random_position(rng, GAME_MAP, 34)
        orders = random_orders(rng, position, IDX, move_rate=0.7, convoys=True, wild=0.2)
        for r in rules:
            taken += both(position, orders, r)[1]
    assert taken > 400


EN, FR, DE = Power.ENGLAND, Power.FRANCE, Power.GERMANY


@pytest.mark.parametrize(
    "rules", [DATC, *(r for r in RULES if r.name == "4.A.7a")], ids=lambda r: r.name
)
def test_swap_by_convoy_where_the_land_move_fails_even_vacated(rules: RuleSet) -> None:
    """A HOL - BEL by convoy and A BEL - HOL over land are no head-to-head battle: BEL's move
    bounces with RUH's even into a vacated HOL, so A BEL stays with strength 1 (its defend
    strength, 2, does not count) and is dislodged; under 4.A.7 a its move prevents nothing."""
    pos = board(
        "S1901M",
        {EN: ["A HOL", "F NTH", "F ENG"], FR: ["A BEL", "F HEL"], DE: ["A RUH", "A KIE"]},
    )
    os = orders(
        pos,
        {
            EN: ["A HOL - BEL via convoy", "F NTH C A HOL - BEL", "F ENG S A HOL - BEL"],
            FR: ["A BEL - HOL", "F HEL S A BEL - HOL"],
            DE: ["A RUH - HOL", "A KIE S A RUH - HOL"],
        },
    )
    outcome, taken = both(pos, os, rules)
    assert taken
    assert [d.unit.province for d in outcome.dislodged] == ["BEL"]


def test_threatened_support_with_an_own_move_that_has_no_route() -> None:
    """A BEL S A PAR - PIC, attacked from PIC: A PIC dislodges it, as A HOL - BEL by a convoy
    that F NTH does not give prevents nothing (though supported)."""
    pos = board(
        "S1901M",
        {FR: ["A BEL", "A PAR", "A HOL", "A RUH", "F NTH"], EN: ["A PIC", "F ENG"]},
    )
    os = orders(
        pos,
        {
            FR: [
                "A BEL S A PAR - PIC",
                "A PAR - PIC",
                "A HOL - BEL via convoy",
                "A RUH S A HOL - BEL",
                "F NTH H",
            ],
            EN: ["A PIC - BEL", "F ENG S A PIC - BEL"],
        },
    )
    outcome, taken = both(pos, os, DATC)
    assert taken
    assert [d.unit.province for d in outcome.dislodged] == ["BEL"]
