"""Retreat phase: retreats, clashes, disbands, missing orders, the next phase."""

from __future__ import annotations

from bot.core.model import DislodgedUnit, Phase, Position, Power, Unit
from bot.core.outcome import Reason, Verdict
from bot.core.rules import DATC
from tests.bot.core.adjudicator.helpers import GM, orders, result, units_of
from tests.standard import adjudicate

FR, DE, EN = Power.FRANCE, Power.GERMANY, Power.ENGLAND


def _pos(phase: str, centers: dict[str, Power] | None = None) -> Position:
    units = [Unit.parse(DE, "A MUN"), Unit.parse(EN, "F ENG")]
    waiting = [
        DislodgedUnit(Unit.parse(FR, "A BUR"), "RUH", frozenset({"PAR", "PIC", "GAS"})),
        DislodgedUnit(Unit.parse(FR, "A BEL"), "HOL", frozenset({"PIC"})),
        DislodgedUnit(Unit.parse(FR, "F BRE"), "ENG", frozenset({"MAO", "GAS"})),
    ]
    return Position.build(Phase.parse(phase), units, centers or {}, waiting)


def test_retreats_clash_and_missing_orders() -> None:
    pos = _pos("S1901R")
    out = adjudicate(pos, orders(pos, {FR: ["A BUR R PIC", "A BEL R PIC"]}), DATC, GM)
    assert result(out, "A BUR R PIC").reason is Reason.BOUNCED
    assert result(out, "A BEL R PIC").reason is Reason.BOUNCED
    # F BRE had no order: disbanded, reported as an implied disband
    implied = [r for r in out.results if r.implied]
    assert [str(r.order) for r in implied] == ["F BRE D"]
    assert {str(u) for u in out.removed} == {"A BUR", "A BEL", "F BRE"}
    assert units_of(out.position) == {"GER A MUN", "ENG F ENG"}
    assert str(out.position.phase) == "F1901M"
    assert out.position.dislodged == ()


def test_retreat_to_attacker_origin_is_illegal_and_unit_disbanded() -> None:
    pos = _pos("S1901R")
    out = adjudicate(pos, orders(pos, {FR: ["A BUR R RUH", "A BEL D", "F BRE R MAO"]}), DATC, GM)
    r = result(out, "A BUR R RUH")
    assert (r.verdict, r.reason) == (Verdict.FAILS, Reason.ILLEGAL)
    assert "attacked from there" in r.detail
    assert units_of(out.position) == {"GER A MUN", "ENG F ENG", "FRA F MAO"}


def test_fall_retreat_updates_centres_and_goes_to_adjustments() -> None:
    pos = _pos("F1901R", {"PAR": FR, "BRE": FR, "MUN": DE, "BEL": FR})
    out = adjudicate(pos, orders(pos, {FR: ["A BUR R PAR", "F BRE R GAS"]}), DATC, GM)
    assert str(out.position.phase) == "W1901A"
    # BEL stays French (empty); MUN German; PAR French; BRE is empty and stays French
    assert dict(out.position.centers) == {"PAR": FR, "BRE": FR, "MUN": DE, "BEL": FR}
    # France has 3 centres and 2 units: one build in BRE (free home centre)
    assert units_of(out.position) == {"GER A MUN", "ENG F ENG", "FRA A PAR", "FRA F GAS"}


def test_fall_retreat_with_nothing_to_adjust_skips_to_spring() -> None:
    pos = _pos("F1901R", {"PAR": FR, "MUN": DE, "LON": EN})
    out = adjudicate(pos, orders(pos, {FR: ["A BUR R PAR", "A BEL D", "F BRE D"]}), DATC, GM)
    assert str(out.position.phase) == "S1902M"


def test_fleet_retreat_to_split_coast_needs_a_reachable_coast() -> None:
    units = [Unit.parse(EN, "F BRE")]
    waiting = [DislodgedUnit(Unit.parse(FR, "F MAO"), "BRE", frozenset({"SPA", "POR"}))]
    pos = Position.build(Phase.parse("S1901R"), units, {}, waiting)
    out = adjudicate(pos, orders(pos, {FR: ["F MAO R SPA/SC"]}), DATC, GM)
    assert "FRA F SPA/SC" in units_of(out.position)
