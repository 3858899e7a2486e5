"""Stabbeurfou section 3 called at its phase steps by the adjudicator (expedited_removal)."""

from __future__ import annotations

from bot.core.adjudicator import adjudicate
from bot.core.language.parser import parse_order
from bot.core.map import load_map
from bot.core.model import Phase, PhaseKind, Position, Power, Unit
from bot.core.presets import load_rules

STD = load_map("standard")
SF = load_rules("stabbeurfou")
DATC = load_rules("datc")
R, T = Power.RUSSIA, Power.TURKEY


def _run(phase, units, centers, orders, rules):
    pos = Position.build(
        Phase.parse(phase),
        [Unit.parse(p, u) for p, us in units.items() for u in us],
        {c: p for p, cs in centers.items() for c in cs},
    )
    typed = [
        parse_order(o, power=p, position=pos, game_map=STD) for p, os in orders.items() for o in os
    ]
    return adjudicate(pos, typed, rules, STD)


def test_a_dislodged_units_destroyed_at_the_fall_moves():
    # stabbeurfou 3(a): "at autumn move adjudication, are adjudicated as destroyed the
    # dislodged units of a player that: do not occupy any centre, has all his centres
    # occupied, may not retreat on any centre, may not retreat to any region that would
    # collide with the retreat of another player."
    units = {R: ["A SEV", "F BLA", "A ANK", "A SMY"], T: ["A ARM"]}
    centers = {R: ["SEV", "ANK", "SMY", "MOS"]}
    orders = {R: ["A SEV - ARM", "F BLA S A SEV - ARM", "A ANK H", "A SMY H"]}
    kept = _run("F1905M", units, centers, orders, DATC)
    assert kept.position.phase.kind is PhaseKind.RETREAT  # datc: Turkey retreats to SYR
    sf = _run("F1905M", units, centers, orders, SF)
    assert sf.position.phase != kept.position.phase  # no retreat phase to wait for
    assert not sf.position.dislodged
    assert Unit.parse(T, "A ARM") in sf.removed
    assert T not in sf.position.powers()


def test_b_units_of_a_power_without_centre_removed_at_the_fall_retreats():
    # stabbeurfou 3(b): "at autumn retreat adjudication, are removed units of a player that:
    # do not own any centre."
    units = {R: ["A ANK"], T: ["F BLA"]}
    centers = {R: ["ANK"]}
    datc = _run("F1905M", units, centers, {}, DATC)
    assert Unit.parse(T, "F BLA") in datc.position.units.values()
    assert datc.position.phase == Phase.parse("W1905A")  # Turkey must remove in Winter
    sf = _run("F1905M", units, centers, {}, SF)
    assert Unit.parse(T, "F BLA") in sf.removed
    assert sf.position.phase == Phase.parse("S1906M")  # nobody adjusts: Winter skipped
    # Not in the Spring: section 3 speaks of the autumn only.
    spring = _run("S1905M", units, centers, {}, SF)
    assert Unit.parse(T, "F BLA") in spring.position.units.values()
