"""Province names in the two nomenclatures (issue 2; Stabbeurfou section 5, EDC section G)."""

from __future__ import annotations

import pytest

from bot.core.map import load_map
from bot.core.model import Coast
from bot.core.names import NameLookupError, load_names, split_words

NAMES = load_names()
GAME_MAP = load_map("standard")


def test_every_province_has_both_nomenclatures() -> None:
    assert set(NAMES.province_ids) == set(GAME_MAP.provinces)
    for pid, prov in GAME_MAP.provinces.items():
        assert NAMES.full_name(pid, "en") == prov.name_en
        assert NAMES.full_name(pid, "fr") == prov.name_fr
        assert NAMES.abbreviation(pid, "en") == pid


def test_each_nomenclature_is_unambiguous_on_its_own() -> None:
    for lang in ("en", "fr"):
        clashes = {k: v for k, v in NAMES.exact_keys(lang).items() if len(v) != 1}
        assert clashes == {}, lang


def test_only_the_documented_collisions_between_nomenclatures() -> None:
    en, fr = NAMES.exact_keys("en"), NAMES.exact_keys("fr")
    clashes = {k: (set(en[k]), set(fr[k])) for k in set(en) & set(fr) if en[k] != fr[k]}
    assert clashes == {"mar": ({"MAR"}, {"NAF"}), "tyr": ({"TYR"}, {"TYS"})}


@pytest.mark.parametrize(
    ("text", "en", "fr"),
    [
        # Stabbeurfou's three ambiguity rules.
        ("MAR", "MAR", "NAF"),
        ("TYR", "TYR", "TYS"),
        ("LIV", "LVP", "LVP"),
        ("TOU", "MAR", "MAR"),
        ("ALP", "TYR", "TYR"),
        ("LIT", "LVN", "LVN"),
        ("Marseille", "MAR", "MAR"),
        ("Tyrol", "TYR", "TYR"),
        # Community codes.
        ("MAO", "MAO", "MAO"),
        ("NAO", "NAO", "NAO"),
        ("NWG", "NWG", "NWG"),
        ("LYO", "LYO", "LYO"),
        ("TYS", "TYS", "TYS"),
        ("EAS", "EAS", "EAS"),
        ("WES", "WES", "WES"),
        ("NAF", "NAF", "NAF"),
        ("GOL", "LYO", "LYO"),
        ("MID", "MAO", "MAO"),
        ("NAT", "NAO", "NAO"),
        ("NRG", "NWG", "NWG"),
        ("TYN", "TYS", "TYS"),
        # Prefixes, accents, spacing, hyphens.
        ("West Med", "WES", "WES"),
        ("St Petersburg", "STP", "STP"),
        ("Saint-Pétersbourg", "STP", "STP"),
        ("saint petersbourg", "STP", "STP"),
        ("Mid-Atlantic Ocean", "MAO", "MAO"),
        ("midatlantic", "MAO", "MAO"),
        ("MER D'ISLANDE", "NAO", "NAO"),
        ("Mer d’Islande", "NAO", "NAO"),
        ("Méditerranée Orientale", "EAS", "EAS"),
        ("mediterranee orientale", "EAS", "EAS"),
        ("Burg", "BUR", "BUR"),
        ("Bourg", "BUR", "BUR"),
    ],
)
def test_resolve(text: str, en: str, fr: str) -> None:
    assert NAMES.resolve(text, "en") == en
    assert NAMES.resolve(text, "fr") == fr


def test_ambiguous_prefix_lists_candidates() -> None:
    with pytest.raises(NameLookupError) as err:
        NAMES.resolve("North", "en")
    assert err.value.candidates == ("North Africa", "North Atlantic Ocean", "North Sea")
    with pytest.raises(NameLookupError) as err:
        NAMES.resolve("Mer de", "fr")
    assert "Mer de Barents" in err.value.candidates
    assert err.value.message.startswith("« Mer de » est ambigu : ")


def test_short_prefixes_are_not_guessed() -> None:
    with pytest.raises(NameLookupError) as err:
        NAMES.resolve("Bu", "en")
    assert err.value.message == "unknown province 'Bu'"


def test_unknown_suggests_in_the_game_language() -> None:
    with pytest.raises(NameLookupError) as err:
        NAMES.resolve("Bugundy", "en")
    assert err.value.message == "unknown province 'Bugundy' — did you mean Burgundy?"
    with pytest.raises(NameLookupError) as err:
        NAMES.resolve("Bourgone", "fr")
    assert err.value.message == "province inconnue « Bourgone » — vouliez-vous dire Bourgogne ?"
    with pytest.raises(NameLookupError) as err:
        NAMES.resolve("Zzyzx", "en")
    assert err.value.candidates == ()


@pytest.mark.parametrize(
    ("words", "coast"),
    [
        (["nc"], Coast.NORTH),
        (["N"], Coast.NORTH),
        (["cn"], Coast.NORTH),
        (["north", "coast"], Coast.NORTH),
        (["côte", "nord"], Coast.NORTH),
        (["sc"], Coast.SOUTH),
        (["s"], Coast.SOUTH),
        (["cs"], Coast.SOUTH),
        (["Côte", "Sud"], Coast.SOUTH),
        (["ec"], Coast.EAST),
        (["ce"], Coast.EAST),
        (["east", "coast"], Coast.EAST),
        (["côte", "est"], Coast.EAST),
        (["west"], None),
    ],
)
def test_coast_words(words: list[str], coast: Coast | None) -> None:
    assert NAMES.coast(words) is coast


def test_bulgaria_north_coast_is_its_east_coast() -> None:
    assert NAMES.coast_for("BUL", Coast.NORTH) is Coast.EAST
    assert NAMES.coast_for("SPA", Coast.NORTH) is Coast.NORTH


def test_display() -> None:
    assert NAMES.abbreviation("BUR", "fr") == "BOU"
    assert NAMES.abbreviation("NAF", "fr") == "MAR"
    assert NAMES.abbreviation("MAR", "fr") == "TOU"
    assert NAMES.coast_abbreviation(Coast.NORTH, "fr") == "CN"
    assert NAMES.coast_name(Coast.SOUTH, "fr") == "côte sud"


def test_split_words() -> None:
    assert split_words("St. Petersburg") == ["st", "petersburg"]
    assert split_words("Royaume d'Espagne") == ["royaume", "espagne"]
    assert split_words("Monténégro-et-Albanie") == ["montenegro", "et", "albanie"]


def test_variant_on_the_standard_board_uses_the_standard_names() -> None:
    # The EDC "Sandard" map has no names file of its own.
    sandard = load_names("sandard")
    assert sandard.resolve("Mid-Atlantic Ocean") == "MAO"
    assert sandard.resolve("MAR", "fr") == "NAF"
