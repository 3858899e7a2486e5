"""Results notation (stabbeurfou section 4): the seed's examples against hand-written golden
files, in English and French."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.core.adjudicator import adjudicate
from bot.core.language.parser import parse_order
from bot.core.map import load_map
from bot.core.model import DislodgedUnit, Location, Phase, Position, Power, Unit, UnitType
from bot.core.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Retreat,
    SupportHold,
    SupportMove,
    UnitRef,
    Waive,
)
from bot.core.outcome import OrderResult, Outcome, Reason, Verdict
from bot.core.presets import load_rules
from tests.standard import notation_lines, render_order, result_line
from tests.standard import render_notation as render

GOLDEN = Path(__file__).parent / "golden"
F, G, E = Power.FRANCE, Power.GERMANY, Power.ENGLAND
OK, KO = Verdict.SUCCEEDS, Verdict.FAILS


def ref(text: str) -> UnitRef:
    parts = text.split()
    if len(parts) == 1:
        return UnitRef(None, Location.parse(parts[0]))
    return UnitRef(UnitType(parts[0]), Location.parse(parts[1]))


def loc(text: str) -> Location:
    return Location.parse(text)


def outcome(
    results: list[OrderResult], phase: str = "F1901M", dislodged: tuple[DislodgedUnit, ...] = ()
) -> Outcome:
    p = Phase.parse(phase)
    return Outcome(p, tuple(results), dislodged, (), Position.build(p, ()))


def res(
    order: Order, verdict: Verdict, reason: Reason = Reason.NONE, detail: str = ""
) -> OrderResult:
    return OrderResult(order.power, order, verdict, reason, detail)


A_PAR = ref("A PAR")
PAR_UNIT = Unit(F, UnitType.ARMY, Location("PAR"))


def seed_examples() -> list[Outcome]:
    """One outcome per example, its first result being the example (stabbeurfou 4)."""
    s_mar_bur = SupportMove(F, A_PAR, ref("A MAR"), loc("BUR"))
    s_bur = SupportHold(F, A_PAR, ref("A BUR"))
    return [
        # 4(a): "A par s a mar - bur", success then failure.
        outcome([res(s_mar_bur, OK)]),
        outcome([res(s_mar_bur, KO)]),
        # 4(b) table, row by row.
        outcome([res(s_bur, KO, Reason.CUT)]),
        outcome([res(Convoy(E, ref("F ENG"), ref("LON"), loc("BEL")), KO, Reason.CONVOY_BROKEN)]),
        outcome(
            [res(Hold(F, A_PAR), KO, Reason.DISLODGED)],
            dislodged=(DislodgedUnit(PAR_UNIT, "BUR", frozenset()),),
        ),
        outcome(
            [res(Hold(F, A_PAR), KO, Reason.DISLODGED)],
            dislodged=(DislodgedUnit(PAR_UNIT, "BUR", frozenset({"PIC", "GAS"})),),
        ),
        outcome(
            [
                res(s_bur, KO, Reason.VOID, "A BUR - MUN"),
                res(Move(G, ref("A BUR"), loc("MUN")), OK),
            ]
        ),
        outcome(
            [
                res(Convoy(E, ref("F ENG"), ref("A BRE"), loc("LON")), KO, Reason.VOID),
                res(Move(F, ref("A BRE"), loc("PAR")), OK),
            ]
        ),
        outcome([res(Move(F, A_PAR, loc("BUR")), KO, Reason.BOUNCED)]),
        # "A PAR S BUR; (paradox)": the support against a convoying fleet, attacked by the
        # convoyed army (the adjudicator marks that move PARADOX; DATC 6.F.14's board).
        outcome(
            [
                res(SupportMove(E, ref("F LON"), ref("F WAL"), loc("ENG")), OK),
                res(Move(F, ref("A BRE"), loc("LON")), KO, Reason.PARADOX),
                res(Convoy(F, ref("F ENG"), ref("A BRE"), loc("LON")), KO, Reason.DISLODGED),
            ]
        ),
        outcome([res(Move(F, A_PAR, loc("BUR")), OK)]),
        outcome([res(Retreat(F, A_PAR, loc("BUR")), KO, Reason.BOUNCED)], "F1901R"),
        outcome([res(Retreat(F, A_PAR, loc("BUR")), OK)], "F1901R"),
    ]


def golden(lang: str) -> list[str]:
    text = (GOLDEN / f"notation_{lang}.txt").read_text(encoding="utf-8")
    return [line for line in text.splitlines() if line and not line.startswith("#")]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_seed_examples_match_golden(lang: str) -> None:
    lines = [result_line(o.results[0], o, lang) for o in seed_examples()]
    assert lines == golden(lang)


def test_phase_report_groups_by_power() -> None:
    o = outcome(
        [
            res(Move(G, ref("A MUN"), loc("BUR")), KO, Reason.BOUNCED),
            res(Move(F, A_PAR, loc("BUR")), KO, Reason.BOUNCED),
            res(Hold(F, ref("F BRE")), OK),
        ]
    )
    assert notation_lines(o) == [
        "France:",
        "A PAR - BUR; (failed)",
        "F BRE H",
        "Germany:",
        "A MUN - BUR; (failed)",
    ]
    assert notation_lines(o, "fr")[0] == "France :"
    assert notation_lines(o, "fr")[3] == "Allemagne :"


def test_coasts_convoy_and_adjustments() -> None:
    assert render(Move(Power.RUSSIA, ref("F STP/SC"), loc("BOT"))) == "F STP/SC - BOT"
    assert render(Move(Power.RUSSIA, ref("F STP/SC"), loc("BOT")), "fr") == "F STP/CS - BOT"
    via = Move(E, ref("A LON"), loc("BEL"), via_convoy=True)
    assert render(via) == "A LON - BEL VIA"
    assert render(via, "fr") == "A LON - BEL PAR CONVOI"
    build = Build(F, ref("A PAR"))
    assert result_line(res(build, OK)) == "A PAR B"
    assert result_line(res(build, KO, Reason.NOT_ALLOWED)) == "A PAR b; (failed)"


def test_illegal_order_shows_why() -> None:
    bad = Move(F, A_PAR, loc("MUN"))
    line = result_line(res(bad, KO, Reason.ILLEGAL, "PAR is not next to MUN"))
    assert line == "A PAR - MUN; (invalid) [PAR is not next to MUN]"


def test_dislodged_move_and_support() -> None:
    o = outcome(
        [res(SupportHold(F, A_PAR, ref("A BUR")), KO, Reason.DISLODGED)],
        dislodged=(DislodgedUnit(PAR_UNIT, "PIC", frozenset({"GAS"})),),
    )
    assert result_line(o.results[0], o) == "A PAR s A BUR; (dislodged)"


ALL_KINDS: list[Order] = [
    Hold(F, ref("A PAR")),
    Move(F, ref("A PAR"), loc("BUR")),
    Move(E, ref("A LON"), loc("BEL"), via_convoy=True),
    SupportHold(F, ref("A PAR"), ref("A MAR")),
    SupportMove(F, ref("A PAR"), ref("A MAR"), loc("BUR")),
    Convoy(E, ref("F NTH"), ref("A LON"), loc("BEL")),
    Retreat(F, ref("A PAR"), loc("PIC")),
    Disband(F, ref("A PAR")),
    Build(Power.RUSSIA, ref("F STP/NC")),
    Waive(F),
]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_order_text_is_the_parsers(lang: str) -> None:
    # A successful order reads exactly as the parser writes it (and so parses back).
    for order in ALL_KINDS:
        assert render(order, lang) == render_order(order, lang)


def test_paradox_note_on_the_attacked_support_from_a_real_adjudication() -> None:
    # stabbeurfou 4: 'A PAR S BUR; (paradox)': "The support for or against a convoying fleet
    # is the target of a convoyed attack that may lead to a paradox" (DATC 6.F.14's board).
    gm = load_map("standard")
    pos = Position.build(
        Phase.parse("S1901M"),
        [
            Unit.parse(Power.ENGLAND, "F LON"),
            Unit.parse(Power.ENGLAND, "F WAL"),
            Unit.parse(Power.FRANCE, "A BRE"),
            Unit.parse(Power.FRANCE, "F ENG"),
        ],
        {},
    )
    texts = {
        Power.ENGLAND: ["F LON S F WAL - ENG", "F WAL - ENG"],
        Power.FRANCE: ["A BRE - LON", "F ENG C A BRE - LON"],
    }
    orders = [
        parse_order(t, power=p, position=pos, game_map=gm) for p, ts in texts.items() for t in ts
    ]
    out = adjudicate(pos, orders, load_rules("stabbeurfou"), gm)
    lines = notation_lines(out, "en")
    assert "F LON S F WAL - ENG; (paradox)" in lines
    assert "A BRE - LON; (failed)" in lines
    assert not [line for line in lines if "paradox" in line and not line.startswith("F LON")]
