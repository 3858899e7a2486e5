"""Province names in the two nomenclatures (issue 2; Stabbeurfou section 5, EDC section G)."""

from __future__ import annotations

import difflib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.core.map import load_map
from bot.core.model import Coast
from bot.core.names import CloseMatches, NameLookupError, _is_prefix, load_names, split_words

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


def _difflib_suggestion(key: str, lang: str) -> str | None:
    """`NameTable.suggest` as it was written first: difflib over every candidate."""
    choices: dict[str, str] = {}
    own = NAMES.own(lang)
    for look in (own, *(x for x in NAMES.langs if x != own)):
        for k, pids in NAMES.exact_keys(look).items():
            if len(pids) == 1:
                choices.setdefault(k, next(iter(pids)))
    best = difflib.get_close_matches(key, list(choices), n=1, cutoff=0.75)
    if not best and len(key) <= 4:
        swaps = {key[:i] + key[i + 1] + key[i] + key[i + 2 :] for i in range(len(key) - 1)}
        fits = {choices[k] for k in swaps & choices.keys()}
        best = [next(k for k in swaps if k in choices)] if len(fits) == 1 else []
    return NAMES.full_name(choices[best[0]], lang) if best else None


_KEYS = sorted({k for lang in NAMES.langs for k in NAMES.exact_keys(lang)})


@st.composite
def _typo(draw: st.DrawFn) -> str:
    """A key with a few letters changed, added, dropped or swapped; or any letters."""
    if draw(st.booleans()):
        return draw(st.text("abcdeilmnorstuy0123", min_size=1, max_size=20))
    word = list(draw(st.sampled_from(_KEYS)))
    for _ in range(draw(st.integers(0, 3))):
        i = draw(st.integers(0, len(word) - 1))
        op = draw(st.integers(0, 3))
        if op == 0:
            word.insert(i, draw(st.sampled_from("abcdefghijklmnopqrstuvwxyz")))
        elif op == 1 and len(word) > 1:
            del word[i]
        elif op == 2:
            word[i] = draw(st.sampled_from("abcdefghijklmnopqrstuvwxyz"))
        else:
            j = draw(st.integers(0, len(word) - 1))
            word[i], word[j] = word[j], word[i]
    return "".join(word)


@settings(max_examples=1000, deadline=None)
@given(_typo(), st.sampled_from(["en", "fr", "de"]))
def test_the_suggestion_is_difflibs_closest_match(key: str, lang: str) -> None:
    assert NAMES.suggest(key, lang) == _difflib_suggestion(key, lang)


@settings(max_examples=500, deadline=None)
@given(
    st.lists(st.text("abcdeilmnorsu", min_size=1, max_size=12), min_size=1, max_size=40),
    st.text("abcdeilmnorsu", max_size=14),
)
def test_close_matches_are_difflibs(keys: list[str], word: str) -> None:
    """The bit-sliced quick check lets through every key difflib's quick checks pass, and
    the ratio then picks what difflib picks (the keyword hints use it too)."""
    keys = list(dict.fromkeys(keys))
    matcher = CloseMatches(keys)
    passing = difflib.SequenceMatcher()
    passing.set_seq2(word)
    quick = set()
    for k in keys:
        passing.set_seq1(k)
        if passing.real_quick_ratio() >= 0.75 and passing.quick_ratio() >= 0.75:
            quick.add(k)
    assert set(matcher.near(word)) == quick
    assert matcher.closest(word) == difflib.get_close_matches(word, keys, n=1, cutoff=0.75)


def _plain_search(words: list[str], lang: str) -> object:
    """`NameTable._search` with the prefix test on every name of the bucket, as first written."""
    key = "".join(words)
    for look in NAMES._looks(lang):
        found = NAMES._exact[look].get(key, set())
        if len(found) == 1:
            return next(iter(found))
    if len(key) >= 3:
        mine: set[str] = set()
        every: set[str] = set()
        for e, name in NAMES._by_initial.get(key[0], ()):
            if name.startswith(key) or _is_prefix(words, e.words):
                every.add(e.pid)
                if e.lang == lang:
                    mine.add(e.pid)
        if len(every) == 1:
            return next(iter(every))
        if len(mine) == 1:
            return next(iter(mine))
        if every:
            return mine or every
    return None


def test_the_prefix_search_is_the_plain_one() -> None:
    """Every word-wise prefix of every name, alone and with a word after it."""
    for e in NAMES._entries:
        for k in range(1, len(e.words) + 1):
            for cut in range(1, len(e.words[k - 1]) + 1):
                words = [*e.words[: k - 1], e.words[k - 1][:cut]]
                for extra in ([], ["zz"], ["a"]):
                    for lang in ("en", "fr"):
                        got = NAMES._search([*words, *extra], lang)
                        assert got == _plain_search([*words, *extra], lang), (words, extra)
