"""Fixed positions with orders and results for the renderer's tests, golden images and bench.

Results are written by hand (not by the adjudicator) so the pictures depend only on the renderer.
"""

from __future__ import annotations

from bot.core.map import load_map
from bot.core.model import DislodgedUnit, Phase, Position, Power, Unit
from bot.core.orders import Order
from bot.core.outcome import OrderResult, Reason, Verdict
from tests.standard import parse_order

GM = load_map("standard")


def _position(
    phase: str, units: dict[str, list[str]], dislodged: tuple[DislodgedUnit, ...] = ()
) -> Position:
    us = [Unit.parse(Power(p), t) for p, ts in units.items() for t in ts]
    return Position.build(Phase.parse(phase), us, dict(GM.start.centers), dislodged)


def _orders(position: Position, texts: dict[str, list[str]]) -> list[Order]:
    return [
        parse_order(t, power=Power(p), position=position, game_map=GM)
        for p, ts in texts.items()
        for t in ts
    ]


def _results(orders: list[Order], failed: dict[str, Reason]) -> list[OrderResult]:
    out = []
    for o in orders:
        reason = failed.get(o.canonical())
        verdict = Verdict.FAILS if reason is not None else Verdict.SUCCEEDS
        out.append(OrderResult(o.power, o, verdict, reason or Reason.NONE))
    return out


def movement() -> tuple[Position, list[Order], list[OrderResult]]:
    """Every kind of movement order: moves, supports (of a move, of a hold), a convoy, holds."""
    pos = _position(
        "F1902M",
        {
            "FRANCE": ["A PAR", "A MAR", "F BRE"],
            "GERMANY": ["A MUN", "A BER", "F KIE"],
            "ENGLAND": ["A LON", "F NTH", "F EDI", "F ENG"],
            "ITALY": ["A VEN", "A ROM", "F NAP"],
            "AUSTRIA": ["A VIE", "F TRI", "A BUD"],
            "RUSSIA": ["A WAR", "A MOS", "F SEV", "F STP/SC", "A PRU", "A SIL"],
            "TURKEY": ["F ANK", "A CON", "A SMY", "F AEG"],
        },
    )
    orders = _orders(
        pos,
        {
            "FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR", "F BRE - MAO"],
            "GERMANY": ["A MUN - BUR", "A BER H", "F KIE - HOL"],
            "ENGLAND": [
                "A LON - BEL VIA",
                "F NTH C A LON - BEL",
                "F EDI - NWG",
                "F ENG S A LON - BEL",
            ],
            "ITALY": ["A VEN - TRI", "A ROM - APU", "F NAP - ION"],
            "AUSTRIA": ["A VIE - BOH", "F TRI H", "A BUD - SER"],
            "RUSSIA": [
                "A WAR - GAL",
                "A MOS - UKR",
                "F SEV - BLA",
                "F STP/SC - BOT",
                "A PRU - BER",
                "A SIL S A PRU - BER",
            ],
            "TURKEY": ["F ANK - BLA", "A CON - BUL", "A SMY S A CON - BUL", "F AEG S A CON - BUL"],
        },
    )
    results = _results(
        orders,
        {
            "A MUN - BUR": Reason.BOUNCED,
            "A VEN - TRI": Reason.BOUNCED,
            "A BER H": Reason.DISLODGED,
            "F SEV - BLA": Reason.BOUNCED,
            "A MOS - UKR": Reason.ILLEGAL,  # drawn as illegal (red, dashed), not as a bounce
            "F ANK - BLA": Reason.BOUNCED,
        },
    )
    return pos, orders, results


def retreat() -> tuple[Position, list[Order], list[OrderResult] | None]:
    """A retreat phase: one unit retreats, one disbands, one shows its options."""
    dis = (
        DislodgedUnit(
            Unit(
                Power.GERMANY,
                Unit.parse(Power.GERMANY, "A BUR").type,
                Unit.parse(Power.GERMANY, "A BUR").location,
            ),
            "PAR",
            frozenset({"RUH", "BEL"}),
        ),
        DislodgedUnit(Unit.parse(Power.ITALY, "F ION"), "AEG", frozenset({"TUN", "APU", "TYS"})),
        DislodgedUnit(Unit.parse(Power.RUSSIA, "A GAL"), "BUD", frozenset({"UKR", "WAR", "SIL"})),
    )
    pos = _position(
        "F1902R",
        {
            "FRANCE": ["A BUR", "A MAR", "F MAO"],
            "GERMANY": ["A MUN", "F HOL"],
            "ITALY": ["A VEN", "A ROM"],
            "AUSTRIA": ["A GAL", "F TRI", "A SER"],
            "RUSSIA": ["A WAR", "A UKR"],
            "TURKEY": ["F ION", "A BUL", "F BLA"],
        },
        dis,
    )
    orders = _orders(pos, {"GERMANY": ["A BUR R RUH"], "ITALY": ["F ION D"]})
    return pos, orders, None


def adjustment() -> tuple[Position, list[Order], list[OrderResult]]:
    """Builds (one on a split coast, one refused) and a removal."""
    pos = _position(
        "W1902A",
        {
            "FRANCE": ["A BUR", "F MAO"],
            "RUSSIA": ["A WAR", "A UKR", "A GAL"],
            "AUSTRIA": ["A SER", "F TRI"],
        },
    )
    orders = _orders(
        pos,
        {
            "FRANCE": ["A PAR B", "F MAR B"],
            "RUSSIA": ["F STP/NC B", "A MOS B"],
            "AUSTRIA": ["A SER D"],
        },
    )
    results = _results(orders, {"A MOS B": Reason.NOT_ALLOWED})
    return pos, orders, results
