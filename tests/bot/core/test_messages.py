"""Core messages: the catalogues agree, and results, decisions and refusals read in French."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.core.map import load_map
from bot.core.messages import Items, Name, OneOf, Prov, catalogue, fields, msg
from bot.core.model import Coast, Location, Phase, Position, Power, Unit, UnitType
from bot.core.orders import Order
from bot.core.outcome import OrderResult, Reason, Verdict
from bot.core.presets import load_rules
from tests.standard import (
    adjudicate,
    adjudicate_interpreted,
    check_submission,
    describe,
    parse_order,
    submission_problems,
)
from tests.standard import (
    render_message as render,
)

MAP = load_map("standard")
CORE = Path(__file__).resolve().parents[3] / "bot" / "core"
G, F, R, E = Power.GERMANY, Power.FRANCE, Power.RUSSIA, Power.ENGLAND


def board(units: dict[Power, list[str]], phase: str = "S1901M", centers=None) -> Position:
    us = [Unit.parse(p, t) for p, ts in units.items() for t in ts]
    owned = {c: p for p, cs in (centers or {}).items() for c in cs}
    return Position.build(Phase.parse(phase), us, owned)


def read(position: Position, given: dict[Power, list[str]], lang: str = "en") -> list[Order]:
    return [
        parse_order(t, lang=lang, power=p, position=position, game_map=MAP)
        for p, texts in given.items()
        for t in texts
    ]


def result_of(outcome, canonical: str) -> OrderResult:
    return next(r for r in outcome.results if r.order.canonical() == canonical)


# --- the catalogues ------------------------------------------------------------------------


def test_every_key_is_in_both_languages_with_the_same_parameters():
    en, fr = catalogue("en"), catalogue("fr")
    assert set(en) == set(fr)
    for key in en:
        assert fields(en[key]) == fields(fr[key]), key
        assert fr[key].strip(), key


def test_every_key_the_core_uses_is_in_the_catalogue():
    used: set[str] = set()
    for path in CORE.rglob("*.py"):
        used |= set(re.findall(r'msg\(\s*"([a-z_.\-0-9]+)"', path.read_text(encoding="utf-8")))
    # keys made at run time: msg(f"...") in legality.py, interpret.py and movement_phase.py
    used |= {
        "illegal.fleet_inland_move",
        "illegal.fleet_inland_retreat",
        "illegal.cannot_support",
        "illegal.cannot_support_a_move_to",
        "result.dislodged_by_from",
        "result.cut_by_from",
        "vote.no_draw",
        "vote.no_concede",
        *(f"source.{n}" for n in ("datc", "edc2023", "world-masters", "house", "stabbeurfou")),
    }
    assert len(used) > 90
    assert used <= set(catalogue("en")), used - set(catalogue("en"))


def test_parameters_render_in_the_game_nomenclature():
    m = msg(
        "illegal.cannot_retreat",
        unit=Unit(F, UnitType.ARMY, Location("MAR")),
        place=Prov("HOL"),
        why=msg("retreat.not_free"),
        options=Items((Prov("BUR"), Prov("NAF"))),
    )
    assert (
        render(m, "en")
        == str(m)
        == ("A MAR cannot retreat to HOL: it is not free (options: BUR, NAF)")
    )
    # French: MAR is North Africa, Marseilles is TOU (Descartes)
    assert render(m, "fr") == (
        "A TOU ne peut pas retraiter en PAY : la province n'est pas libre (possibilités : BOU, MAR)"
    )
    coasts = OneOf((Location("STP", Coast.NORTH), Location("STP", Coast.SOUTH)))
    which = msg("illegal.which_coast", place=Name("STP"), coasts=coasts)
    assert render(which, "en") == "say which coast of St Petersburg: STP/NC or STP/SC"
    assert render(which, "fr") == "précisez la côte de Saint-Pétersbourg : STP/CN ou STP/CS"
    assert render(msg("build.none", power=G), "fr") == "Allemagne n'a pas de construction"
    assert render(msg("retreat.none_ordered"), "fr-FR").startswith("pas d'ordre de retraite")
    empty = msg("illegal.cannot_retreat", unit="?", place="?", why="?", options=Items(()))
    assert render(empty, "fr").endswith("(possibilités : aucune)")


# --- adjudicator results -------------------------------------------------------------------


def test_an_illegal_move_is_explained_in_french_with_french_names():
    pos = board({G: ["A KIE"]})
    outcome = adjudicate(pos, read(pos, {G: ["A KIE - LON"]}))
    r = result_of(outcome, "A KIE - LON")
    assert r.reason is Reason.ILLEGAL
    assert r.detail == "London is not next to Kiel and no fleets could convoy it there"
    assert describe(r, "en") == r.detail
    assert describe(r, "fr") == (
        "Londres n'est pas voisin de Kiel et aucune flotte ne pourrait l'y convoyer"
    )


def test_a_void_support_quotes_the_order_in_french_notation():
    pos = board({G: ["A KIE", "A MUN", "A RUH"]})
    outcome = adjudicate(pos, read(pos, {G: ["A RUH S A KIE - HOL", "A KIE - BER"]}))
    r = result_of(outcome, "A RUH S A KIE - HOL")
    assert r.reason is Reason.VOID
    assert r.detail == "A KIE was not ordered to move to HOL (A KIE - BER)"
    assert describe(r, "fr") == "A KIE n'a pas reçu l'ordre d'aller en PAY (A KIE - BER)"


def test_a_cut_support_names_the_attacker_in_french():
    pos = board({G: ["A MUN", "A KIE"], F: ["A BUR"]})
    orders = read(pos, {G: ["A MUN S A KIE - BER", "A KIE - BER"], F: ["A BUR - MUN"]})
    r = result_of(adjudicate(pos, orders), "A MUN S A KIE - BER")
    assert r.reason is Reason.CUT
    assert r.detail == "cut by A BUR from BUR"
    assert describe(r, "fr") == "coupé par A BOU venant de BOU"


def test_a_fleet_build_without_its_coast_fails_in_both_languages():
    # DATC 6.B.14: F STP B names no coast
    pos = board({R: ["A MOS"]}, "W1901A", {R: ["STP", "MOS", "WAR", "SEV"]})
    r = result_of(adjudicate(pos, read(pos, {R: ["F STP B"]})), "F STP B")
    assert r.verdict is Verdict.FAILS
    assert r.detail == "say which coast of STP the fleet is built on"
    assert describe(r, "fr") == "précisez sur quelle côte de STP la flotte est construite"


def test_a_result_without_a_message_shows_its_detail():
    pos = board({G: ["A KIE"]})
    order = read(pos, {G: ["A KIE H"]})[0]
    r = OrderResult(G, order, Verdict.FAILS, Reason.ILLEGAL, "old English text")
    assert describe(r, "fr") == "old English text"


# --- interpretation and Stabbeurfou --------------------------------------------------------


def test_edc_decision_for_several_orders_in_french():
    edc = load_rules("edc2023")
    pos = board({G: ["A MUN"]})
    _, decisions = adjudicate_interpreted(pos, read(pos, {G: ["A MUN - BUR", "A MUN - RUH"]}), edc)
    d = decisions[0]
    assert d.text == (
        "A MUN was given 2 different orders, valid or not: it is in civil disorder and holds"
        " (it can still be supported to hold) (EDC 2023 rules, section E)"
    )
    assert d.message is not None
    assert render(d.message, "fr") == (
        "A MUN a reçu 2 ordres différents, valides ou non : elle est en désordre civil et"
        " tient (elle peut encore être soutenue pour tenir) (règles EDC 2023, section E)"
    )


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", "A KIE - HOL: the unit in KIE belongs to Germany"),
        ("fr", "A KIE - PAY : l'unité en KIE appartient à : Allemagne"),
    ],
)
def test_stabbeurfou_refusal_quotes_the_order_as_the_player_wrote_it(lang, expected):
    sf = load_rules("stabbeurfou")
    pos = board({G: ["A KIE"]})
    text = "A KIE - HOL" if lang == "en" else "A KIE - PAY"
    orders = [parse_order(text, lang=lang, power=F, position=pos, game_map=MAP)]
    problems = submission_problems(pos, orders, sf)
    assert [render(p, lang) for p in problems] == [expected]
    assert check_submission(pos, orders, sf) == ["A KIE - HOL: the unit in KIE belongs to Germany"]


def test_stabbeurfou_adjustment_refusals_in_french():
    sf = load_rules("stabbeurfou")
    pos = board({R: ["A MOS", "F SEV", "A UKR"]}, "W1901A", {R: ["STP", "MOS", "WAR", "SEV"]})
    orders = read(pos, {R: ["F STP/CN B", "RENONCE", "A MOS B"]}, "fr")
    problems = submission_problems(pos, orders, sf)
    assert [render(p, "fr") for p in problems] == [
        "A MOS B : MOS est occupé",
        "Russie peut construire 1 unité(s), pas 2",
    ]
    assert [str(p) for p in problems] == [
        "A MOS B: MOS is occupied",
        "Russia may build 1, not 2",
    ]


def test_the_results_notation_explains_an_illegal_order_in_french():
    from tests.standard import result_line  # noqa: PLC0415

    pos = board({G: ["A KIE"]})
    outcome = adjudicate(pos, read(pos, {G: ["A KIE - LON"]}))
    r = result_of(outcome, "A KIE - LON")
    line = result_line(r, outcome, "fr")
    assert "[Londres n'est pas voisin de Kiel" in line
    assert "[London is not next to Kiel" in result_line(r, outcome, "en")


def test_the_end_of_the_game_is_explained_in_french():
    from bot.core.ending.endgame import EndKind, EndRules, check_end  # noqa: PLC0415

    centers = sorted(MAP.supply_centers)
    pos = Position.build(Phase.parse("W1905A"), [], dict.fromkeys(centers[:18], F))
    state = check_end([pos], EndRules("test"), MAP)
    assert state.kind is EndKind.SOLO
    assert state.reason == "France holds 18 of the 34 centres (a solo needs 18, more than half)"
    assert state.message is not None
    assert render(state.message, "fr") == (
        "France détient 18 des 34 centres (une victoire en solo en demande 18, plus de la moitié)"
    )
