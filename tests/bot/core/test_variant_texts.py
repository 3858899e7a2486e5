"""Province and power names in the core's texts come from the game's map: the test-only `tri`
variant (its French names and abbreviations, its powers North, East, West) and the standard map."""

from __future__ import annotations

from bot.core import catalogue
from bot.core.language.notation import notation_lines, result_line
from bot.core.language.parser import render_order
from bot.core.messages import Name, Prov, msg, render
from bot.core.model import Phase, Position, Power, Unit
from bot.core.outcome import Reason, describe
from tests.standard import STANDARD, adjudicate, parse_order
from tests.variants import tri

TRI = tri()
NORTH, WEST = Power("NORTH"), Power("WEST")


def board(units: dict[Power, list[str]]) -> Position:
    return Position.build(
        Phase.parse("S1901M"), [Unit.parse(p, t) for p, ts in units.items() for t in ts], {}
    )


def test_place_and_power_parameters_are_named_by_the_games_map():
    m = msg("build.not_home", province=Prov("WHI"), power=NORTH)
    assert render(m, "en", TRI) == "WHI is not a home centre of North"
    assert render(m, "fr", TRI) == "SAU n'est pas un centre d'origine de : Nord"
    sea = msg("illegal.army_to_sea", place=Name("CLD"))
    assert render(sea, "en", TRI) == "an army cannot move to sea (Cold Sea)"
    assert "(Mer froide)" in render(sea, "fr", TRI)
    # The same message on the standard map keeps its standard names.
    std = msg("build.not_home", province=Prov("BUR"), power=Power.GERMANY)
    assert render(std, "fr", STANDARD) == "BOU n'est pas un centre d'origine de : Allemagne"


def test_without_a_map_a_message_shows_ids_not_another_boards_names():
    # No hidden standard map: BUR stays BUR in French, Germany is its id's spelling.
    std = msg("build.not_home", province=Prov("BUR"), power=Power.GERMANY)
    assert render(std, "fr") == "BUR n'est pas un centre d'origine de : Germany"
    assert render(msg("illegal.army_to_sea", place=Name("CLD")), "fr").endswith("(CLD)")


def test_an_illegal_order_on_tri_is_explained_with_tri_names_in_both_languages():
    pos = board({NORTH: ["A NHI", "F NOR"]})
    order = parse_order("A NHI - CSE", power=NORTH, position=pos, game_map=TRI)
    outcome = adjudicate(pos, [order], game_map=TRI)
    r = next(x for x in outcome.results if x.order == order)
    assert r.reason is Reason.ILLEGAL
    # `detail` (no map) carries the English name the map gave when the order was judged.
    assert r.detail == "an army cannot move to sea (Central Sea)" == describe(r, "en", TRI)
    assert "(Mer centrale)" in describe(r, "fr", TRI)
    line = result_line(r, outcome, "fr", TRI)
    assert line.startswith("A HTL - MCE; (invalide) [")
    assert "Mer centrale" in line
    assert result_line(r, outcome, "en", TRI).startswith("A NHI - CSE; (invalid) [")


def test_the_french_notation_uses_the_variants_abbreviations_and_power_names():
    pos = board({NORTH: ["A NHI", "F NOR"], WEST: ["A WHI"]})
    orders = [
        parse_order("A NHI - EHI", power=NORTH, position=pos, game_map=TRI),
        parse_order("F NOR - CSE", power=NORTH, position=pos, game_map=TRI),
        parse_order("A WHI H", power=WEST, position=pos, game_map=TRI),
    ]
    support = parse_order("F NOR S A NHI - EAS", power=NORTH, position=pos, game_map=TRI)
    assert render_order(support, "fr", TRI) == "F NDL S A HTL - MES"
    assert render_order(support, "en", TRI) == "F NOR S A NHI - EAS"
    outcome = adjudicate(pos, orders, game_map=TRI)
    lines = notation_lines(outcome, "fr", TRI)
    assert lines == ["Nord :", "A HTL - BRS", "F NDL - MCE", "Ouest :", "A SAU T"]
    assert notation_lines(outcome, "en", TRI) == [
        "North:",
        "A NHI - EHI",
        "F NOR - CSE",
        "West:",
        "A WHI H",
    ]
    # A French order on tri reads back from its notation.
    back = parse_order("F NDL S A HTL - MES", lang="fr", power=NORTH, position=pos, game_map=TRI)
    assert back == support


def test_a_standard_order_keeps_its_descartes_notation():
    order = parse_order("F MAO - SPA/SC", power=Power.FRANCE)
    assert render_order(order, "fr", STANDARD) == "F ATL - ESP/CS"
    assert render_order(order, "fr") == "F MAO - SPA/SC"  # no map: the ids


def test_power_names_have_one_home_the_variant_file():
    for lang in catalogue.languages():
        for domain in ("core", "bot", "service", "render"):
            keys = catalogue.texts(domain, lang)
            assert not [k for k in keys if k.startswith("power.")], (domain, lang)
        assert "keywords.powers" not in catalogue.texts("core", lang)
    assert STANDARD.power_name(Power.GERMANY, "fr") == "Allemagne"
    assert TRI.power_name(NORTH, "fr") == "Nord"
