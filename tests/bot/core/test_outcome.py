"""The adjudicator's fast OrderResult and Outcome constructors build the same objects as the
dataclasses."""

import pytest

from bot.core.messages import msg
from bot.core.model import Location, Power, Unit, UnitType
from bot.core.orders import Hold, UnitRef
from bot.core.outcome import (
    OrderResult,
    Outcome,
    Reason,
    Verdict,
    order_result,
    outcome,
)
from tests.bot.core.adjudicator.helpers import board

HOLD = Hold(Power.FRANCE, UnitRef(UnitType.ARMY, Location("PAR"), Power.FRANCE))


def test_order_result_equals_the_dataclass() -> None:
    fast = order_result(Power.FRANCE, HOLD, Verdict.FAILS, Reason.DISLODGED, "by A BUR", True)
    slow = OrderResult(Power.FRANCE, HOLD, Verdict.FAILS, Reason.DISLODGED, "by A BUR", True)
    assert type(fast) is OrderResult
    assert fast == slow
    assert hash(fast) == hash(slow)
    assert repr(fast) == repr(slow)
    assert order_result(None, HOLD, Verdict.SUCCEEDS) == OrderResult(None, HOLD, Verdict.SUCCEEDS)


def test_order_result_stays_frozen() -> None:
    r = order_result(Power.FRANCE, HOLD, Verdict.SUCCEEDS)
    with pytest.raises(AttributeError):
        r.note = "changed"  # type: ignore[misc]


def test_detail_is_the_note_or_the_message_in_english() -> None:
    plain = OrderResult(Power.FRANCE, HOLD, Verdict.FAILS, Reason.ILLEGAL, "written by hand")
    assert plain.detail == "written by hand"
    coded = order_result(
        Power.FRANCE, HOLD, Verdict.FAILS, Reason.ILLEGAL, "", False, msg("result.not_used")
    )
    assert coded.detail == "not used"
    assert OrderResult(Power.FRANCE, HOLD, Verdict.SUCCEEDS).detail == ""


def test_every_field_lands_in_its_own_slot() -> None:
    why = msg("result.not_used")
    fast = order_result(Power.ITALY, HOLD, Verdict.FAILS, Reason.CUT, "a note", True, why)
    assert (fast.power, fast.order, fast.verdict, fast.reason) == (
        Power.ITALY,
        HOLD,
        Verdict.FAILS,
        Reason.CUT,
    )
    assert (fast.note, fast.implied, fast.message) == ("a note", True, why)


def test_outcome_equals_the_dataclass() -> None:
    pos = board("F1901M", {Power.FRANCE: ["A PAR"]})
    res = (order_result(Power.FRANCE, HOLD, Verdict.SUCCEEDS),)
    gone = (Unit.parse(Power.FRANCE, "A PAR"),)
    fast = outcome(pos.phase, res, (), gone, pos)
    slow = Outcome(pos.phase, res, (), gone, pos)
    assert type(fast) is Outcome
    assert fast == slow
    assert (fast.phase, fast.results, fast.dislodged, fast.removed, fast.position) == (
        pos.phase,
        res,
        (),
        gone,
        pos,
    )
    with pytest.raises(AttributeError):
        fast.removed = ()  # type: ignore[misc]
