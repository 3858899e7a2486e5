"""The legality step and the batch path's reused order objects: an order object met again is
judged again with the board it meets (the step keeps no memo by order: issue 18, it cost more
than it saved)."""

from __future__ import annotations

from bot.core.adjudicator.legality import MovementCheck
from bot.core.adjudicator.mapindex import map_index
from bot.core.model import Location, Power, Unit, UnitType
from bot.core.orders import Move, SupportMove, UnitRef
from bot.core.outcome import Reason, Verdict
from bot.core.rules import DATC
from tests.bot.core.adjudicator.helpers import GM, board
from tests.standard import adjudicate

FR = Power.FRANCE
IDX = map_index(GM)


def test_the_same_order_object_twice_in_a_phase_is_a_duplicate_each_time() -> None:
    pos = board("S1901M", {FR: ["A PAR"]})
    move = Move(FR, UnitRef(UnitType.ARMY, Location("PAR"), FR), Location("BUR"))
    for _ in range(3):  # the same objects in every run
        out = adjudicate(pos, [move, move])
        assert [(r.verdict, r.reason) for r in out.results] == [
            (Verdict.SUCCEEDS, Reason.NONE),
            (Verdict.FAILS, Reason.ILLEGAL),
        ]


def test_a_reused_support_is_judged_again_when_the_mover_changes() -> None:
    support = SupportMove(
        FR,
        UnitRef(UnitType.ARMY, Location("BUR"), FR),
        UnitRef(None, Location("MAR"), FR),
        Location("GAS"),
    )
    army = board("S1901M", {FR: ["A BUR", "A MAR"]})
    fleet = board("S1901M", {FR: ["A BUR", "F MAR"]})
    for _ in range(2):
        assert MovementCheck(army, IDX, DATC).run([support]).entries[0][2] is None
        why = MovementCheck(fleet, IDX, DATC).run([support]).entries[0][2]
        assert why is not None  # a fleet cannot go from MAR to GAS (6.D.22-6.D.24)


def test_a_reused_move_is_judged_again_for_another_unit() -> None:
    move = Move(FR, UnitRef(None, Location("BRE"), FR), Location("PAR"))
    army = board("S1901M", {FR: ["A BRE"]})
    fleet = board("S1901M", {FR: ["F BRE"]})
    for _ in range(2):
        assert MovementCheck(army, IDX, DATC).run([move]).entries[0][2] is None
        assert MovementCheck(fleet, IDX, DATC).run([move]).entries[0][2] is not None


def test_a_reused_order_keeps_the_board_unit_of_its_phase() -> None:
    move = Move(FR, UnitRef(UnitType.ARMY, Location("PAR"), FR), Location("BUR"))
    first = board("S1901M", {FR: ["A PAR"]})
    MovementCheck(first, IDX, DATC).run([move])
    second = board("F1901M", {FR: ["A PAR"]})  # an equal unit, another object
    check = MovementCheck(second, IDX, DATC).run([move])
    assert check.effective["PAR"][1] is second.units["PAR"]
    assert check.entries[0][1] == Unit(FR, UnitType.ARMY, Location("PAR"))
