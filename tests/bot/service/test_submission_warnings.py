"""Submission warnings a player reads: units named in the game's nomenclature, and several
orders for one unit (the rule set decides which counts, or that the unit holds)."""

from __future__ import annotations

import pytest

from bot.service.engine import CoreEngine
from tests.bot.service.conftest import seven_player_game


async def test_french_warnings_name_units_in_french_notation(opener):
    # In French, MAR is North Africa: Marseilles' army must read "A TOU", not "A MAR".
    svc = await opener(engine=CoreEngine())
    gid = await seven_player_game(svc, lang="fr")
    reply = await svc.submit(gid, "user-france", "A PAR T\nA BOU - RHE")
    assert reply.accepted
    assert reply.warnings == [
        "F BRE : pas d'ordre (elle tiendra)",
        "A TOU : pas d'ordre (elle tiendra)",
        "A BOU - RHE : vous n'avez pas d'unité en BOU",
    ]


async def test_french_order_for_north_africa_names_it_in_french(opener):
    svc = await opener(engine=CoreEngine())
    gid = await seven_player_game(svc, lang="fr")
    reply = await svc.submit(gid, "user-france", "F BRE T\nA TOU T\nA PAR T\nA MAR - ESP")
    assert reply.warnings == ["A MAR - ESP : vous n'avez pas d'unité en MAR"]


@pytest.mark.parametrize(
    ("rules", "lang", "expected"),
    [
        (
            "datc",
            "en",
            "A PAR has 2 orders (A PAR - BUR, A PAR - PIC): under these rules it will hold;"
            " send one order per unit",
        ),
        (
            "world-masters",
            "en",
            "A PAR has 2 orders (A PAR - BUR, A PAR - PIC): under these rules the last one"
            " counts; send one order per unit",
        ),
        (
            "edc2023",
            "en",
            "A PAR has 2 orders (A PAR - BUR, A PAR - PIC): under these rules it is in civil"
            " disorder and will hold; send one order per unit",
        ),
        (
            "datc",
            "fr",
            "A PAR a 2 ordres (A PAR - BOU, A PAR - PIC) : avec ces règles, elle tiendra ;"
            " un seul ordre par unité",
        ),
    ],
)
async def test_several_orders_for_one_unit_are_warned(opener, rules, lang, expected):
    svc = await opener(engine=CoreEngine())
    gid = await seven_player_game(svc, rules=rules, lang=lang)
    text = "A PAR - BUR\nF BRE H\nA MAR H\nA PAR - PIC"
    if lang == "fr":
        text = "A PAR - BOU\nF BRE T\nA TOU T\nA PAR - PIC"
    reply = await svc.submit(gid, "user-france", text)
    assert reply.accepted
    assert reply.warnings == [expected]
