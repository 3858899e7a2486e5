"""The adjudicator's fast OrderResult constructor builds the same object as the dataclass."""

import pytest

from bot.core.messages import msg
from bot.core.model import Location, Power, UnitType
from bot.core.orders import Hold, UnitRef
from bot.core.outcome import OrderResult, Reason, Verdict, order_result

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
