"""Stab! in the game's nomenclature (issue 35): every Stab! input (placement, conditional
retreats, REVEAL lines) read with the variant's name tables in the game's language first, and
every output (hidden-order lines, private reports) written back in it, powers by their names.
In French MAR is North Africa and Marseilles is TOU: a report that wrote `A MAR` for Marseilles
would put the unit in Africa."""

from __future__ import annotations

from typing import Any

import pytest

from bot.core.model import Power
from tests.bot.service.recording import RecordingEngine
from tests.bot.service.test_stab import USER, adjudicate, stab_game

FR, DE, IT = Power.FRANCE, Power.GERMANY, Power.ITALY


async def test_a_french_placement_in_french_codes(opener):
    svc = await opener(engine=RecordingEngine())
    gid = await stab_game(svc, lang="fr")
    ok = await svc.submit(gid, USER[FR], "A BOU\nA TOU\nF BRE")  # Burgundy, Marseilles
    assert ok.accepted, ok.errors
    assert (await svc.submit(gid, USER[DE], "A RHE\nA MUN\nF KIE")).accepted
    assert (await svc.submit(gid, USER[Power.RUSSIA], "A VAR\nA MOS\nF ODE\nF STP/CS")).accepted
    # MAR is North Africa in French: not a French home space. The refusal names the power
    # and the home spaces in French.
    africa = await svc.submit(gid, USER[FR], "A PIC\nA PAR\nA MAR")
    assert not africa.accepted
    assert africa.errors == [
        "France : A MAR n'est pas sur une région d'origine de France"
        " (régions d'origine : BOU, BRE, GAS, PAR, PIC, TOU)"
    ]
    coast = await svc.submit(gid, USER[Power.RUSSIA], "F STP\nA MOS\nA VAR")
    assert coast.errors == [
        "Russie : F STP : STP a deux côtes ; précisez laquelle (STP/CN, STP/CS)"
    ]


async def test_an_english_placement_names_the_power_and_the_spaces(opener):
    svc = await opener(engine=RecordingEngine())
    gid = await stab_game(svc)
    wrong = await svc.submit(gid, USER[FR], "A PIC\nA PAR\nA NAF")
    assert wrong.errors == [
        "France: A NAF is not in a home space of France (home spaces: BRE, BUR, GAS, MAR, PAR, PIC)"
    ]


FRENCH_SPRING = {
    FR: "A BOU\nA TOU\nF BRE\nA TOU S A BOU\nA BOU R RHE\nA BOU R PAR",
    DE: "A RHE\nA MUN\nF KIE\nA MUN - BOU\nA RHE S A MUN - BOU",
    IT: "A PIE\nA ROM\nF NAP\nA PIE - TOU\nA PIE R TOS",
}
ENGLISH_SPRING = {
    FR: "A BUR\nA MAR\nF BRE\nA MAR S A BUR\nA BUR R RUH\nA BUR R PAR",
    DE: "A RUH\nA MUN\nF KIE\nA MUN - BUR\nA RUH S A MUN - BUR",
    IT: "A PIE\nA ROM\nF NAP\nA PIE - MAR\nA PIE R TUS",
}
# What each one reads after it: Italy's attack cuts Marseilles' support, Germany dislodges
# Burgundy, whose first retreat (the Ruhr, held) fails and second (Paris) is taken.
SPRING_READS = {
    "fr": {
        "public": [
            "A PIE - TOU; (échec)",
            "A TOU S ?; (coupé)",
            "A MUN - BOU",
            "A BOU T; (délogé)",
        ],
        FR: ["**Rapport privé pour France**", "Vos unités : A PAR, A TOU, F BRE"],
        DE: [
            "**Rapport privé pour Allemagne**",
            "A BOU (France), délogée par votre attaque, s'est retirée en PAR",
        ],
        IT: ["Vos unités : A PIE, A ROM, F NAP"],
    },
    "en": {
        "public": [
            "A PIE - MAR; (failed)",
            "A MAR S ?; (cut)",
            "A MUN - BUR",
            "A BUR H; (dislodged)",
        ],
        FR: ["**Private report for France**", "Your units: A MAR, A PAR, F BRE"],
        DE: [
            "**Private report for Germany**",
            "A BUR (France), dislodged by your attack, retreated to PAR",
        ],
        IT: ["Your units: A PIE, A ROM, F NAP"],
    },
}


@pytest.mark.parametrize(("lang", "orders"), [("fr", FRENCH_SPRING), ("en", ENGLISH_SPRING)])
async def test_conditional_retreats_and_reports_in_the_games_nomenclature(
    opener, clock, lang: str, orders: dict[Power, str]
):
    svc = await opener(engine=RecordingEngine())
    gid = await stab_game(svc, lang=lang, stab_retreats="conditional")
    for power, text in orders.items():
        reply = await svc.submit(gid, USER[power], text)
        assert reply.accepted, (power, reply.errors)
    await adjudicate(svc, clock, gid)
    reads = SPRING_READS[lang]
    public = (await svc.hidden_view(gid, "nobody")).lines
    for line in reads["public"]:
        assert line in public, (line, public)
    for power in (FR, DE, IT):
        told = (await svc.hidden_view(gid, USER[power])).lines
        for line in reads[power]:
            assert line in told, (line, told)
    if lang == "fr":  # nowhere an English place among the French ones
        everything = "\n".join((await svc.hidden_view(gid, "gm")).lines)
        for english in ("MAR", "BUR", "RUH", "FRANCE", "GERMANY"):
            assert english not in everything, english
    assert (await svc.status(gid)).phase == "F1901M"  # settled with the moves


@pytest.mark.parametrize(
    ("lang", "fall", "lost", "centres"),
    [
        (
            "fr",
            "A PIE - TOU",
            "Vous avez perdu TOU au profit de Italie (A TOU)",
            "Vos centres : NAP, ROM, TOU, VEN",
        ),
        (
            "en",
            "A PIE - MAR",
            "You lost MAR to Italy (A MAR)",
            "Your supply centres: MAR, NAP, ROM, VEN",
        ),
    ],
)
async def test_a_centre_lost_and_the_winter_centres_in_the_games_nomenclature(
    opener, clock, lang: str, fall: str, lost: str, centres: str
):
    svc = await opener(engine=RecordingEngine())
    gid = await stab_game(svc, lang=lang)
    assert (await svc.submit(gid, USER[FR], "A PIC\nA PAR\nF BRE")).accepted  # Marseilles empty
    assert (await svc.submit(gid, USER[IT], "A PIE\nA ROM\nF NAP")).accepted
    await adjudicate(svc, clock, gid)
    assert (await svc.submit(gid, USER[IT], fall)).accepted
    await adjudicate(svc, clock, gid)
    france: Any = await svc.hidden_view(gid, USER[FR])
    assert lost in france.lines, france.lines
    assert (await svc.status(gid)).phase == "W1901A"
    await adjudicate(svc, clock, gid)
    italy = await svc.hidden_view(gid, USER[IT])
    assert italy.phase == "W1901A"
    assert centres in italy.lines, italy.lines


@pytest.mark.parametrize(("lang", "reveal"), [("fr", "RÉVÉLER RHE"), ("en", "REVEAL RUH")])
async def test_a_reveal_line_in_the_games_nomenclature(opener, clock, lang: str, reveal: str):
    """Rule 2: the supports revealed in the player's stated order, the provinces written in
    the game's nomenclature (RHE is the Ruhr in French)."""
    svc = await opener(engine=RecordingEngine())
    gid = await stab_game(svc, lang=lang)
    ruhr, bur, tyr = ("RHE", "BOU", "ALP") if lang == "fr" else ("RUH", "BUR", "TYR")
    sets = {
        FR: f"A {bur}\nA PAR\nF BRE\nA {bur} - MUN",
        Power.AUSTRIA: f"A {tyr}\nA VIE\nF TRI\nA {tyr} S A {bur} - MUN",
        DE: f"A MUN\nA {ruhr}\nA BER\nA BER S A MUN\nA {ruhr} S A MUN\n{reveal}",
    }
    for power, text in sets.items():
        reply = await svc.submit(gid, USER[power], text)
        assert reply.accepted, reply.errors
    await adjudicate(svc, clock, gid)
    public = (await svc.hidden_view(gid, "nobody")).lines
    assert f"A {ruhr} S A MUN" in public, public
    assert "A BER S A MUN" not in public


@pytest.mark.parametrize(
    ("lang", "france", "germany", "reads"),
    [
        (
            "fr",
            "A BOU\nA PAR\nF BRE",
            "A RHE\nA MUN\nF KIE\nA MUN - BOU\nA RHE S A MUN - BOU",
            {
                "waiting": "Délogées, à retirer : A BOU",
                "public": "A BOU D",
                "caused": "A BOU (France), délogée par votre attaque, a été dissoute",
            },
        ),
        (
            "en",
            "A BUR\nA PAR\nF BRE",
            "A RUH\nA MUN\nF KIE\nA MUN - BUR\nA RUH S A MUN - BUR",
            {
                "waiting": "Dislodged, to retreat: A BUR",
                "public": "A BUR D",
                "caused": "A BUR (France), dislodged by your attack, was disbanded",
            },
        ),
    ],
)
async def test_a_separate_retreat_phase_in_the_games_nomenclature(
    opener, clock, lang: str, france: str, germany: str, reads: dict[str, str]
):
    """Rule 2: a disband is reported; rule 5: the owner is told which unit waits to retreat,
    the attacker what became of it."""
    svc = await opener(engine=RecordingEngine())
    gid = await stab_game(svc, lang=lang)
    assert (await svc.submit(gid, USER[FR], france)).accepted
    assert (await svc.submit(gid, USER[DE], germany)).accepted
    await adjudicate(svc, clock, gid)
    assert reads["waiting"] in (await svc.hidden_view(gid, USER[FR])).lines
    assert (await svc.status(gid)).phase == "S1901R"
    await adjudicate(svc, clock, gid)  # France orders no retreat: the unit is disbanded
    assert reads["public"] in (await svc.hidden_view(gid, "nobody")).lines
    assert reads["caused"] in (await svc.hidden_view(gid, USER[DE])).lines
