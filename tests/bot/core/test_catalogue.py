"""The catalogues (bot/core/catalogue.py): every key in every language with the same parameters
and plural forms, languages found from the files present, and no language code in the code."""

from __future__ import annotations

import ast
import shutil
from collections.abc import Iterator
from pathlib import Path

import discord
import pytest

from bot.core import catalogue
from bot.core.catalogue import (
    DEFAULT_LANG,
    DOMAINS,
    PLURAL_CATEGORIES,
    PLURAL_RULES,
    fields,
    languages,
    normalise,
    text,
    texts,
)
from bot.paths import data_dir

ROOT = Path(__file__).resolve().parents[3]
LOADER = ROOT / "bot" / "core" / "catalogue.py"

# Lines allowed to name a language code, each with its reason.
ALLOWED = {
    # Power names are a pair (English, French) in the map file until the variants work gives
    # them per language (data/maps/<variant>.json); that work rewrites this method.
    ("bot/core/map.py", "return fr if lang =="),
}


def _clear_caches() -> None:
    for f in (catalogue.languages, catalogue.raw, catalogue.texts, catalogue.meta):
        f.cache_clear()


def _split(key: str) -> tuple[str, str | None]:
    """`saved.one` -> (`saved`, `one`); a plain key -> (key, None)."""
    base, _, last = key.rpartition(".")
    return (base, last) if base and last in PLURAL_CATEGORIES else (key, None)


def _shape(domain: str, lang: str) -> dict[str, frozenset[str]]:
    """Each text's key (plural forms folded into one) -> its parameters."""
    out: dict[str, set[str]] = {}
    for key, value in texts(domain, lang).items():
        out.setdefault(_split(key)[0], set()).update(fields(value))
    return {k: frozenset(v) for k, v in out.items()}


# --- the catalogues agree --------------------------------------------------------------------


def test_the_languages_are_the_catalogue_files_present() -> None:
    found = sorted(p.name.split(".")[1] for p in (data_dir() / "messages").glob("core.*.toml"))
    assert sorted(languages()) == found
    assert languages()[0] == DEFAULT_LANG
    assert {"en", "fr"} <= set(languages())


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_key_is_in_every_language_with_the_same_parameters(domain: str) -> None:
    reference = _shape(domain, DEFAULT_LANG)
    assert reference, f"{domain}: no texts in {DEFAULT_LANG}"
    for lang in languages():
        assert catalogue.files_of(lang)[domain].is_file(), f"{domain}: no file for {lang}"
        shape = _shape(domain, lang)
        assert set(shape) - set(reference) == set(), f"{domain}.{lang}: keys not in English"
        assert set(reference) - set(shape) == set(), f"{domain}.{lang}: missing keys"
        for key, params in reference.items():
            assert shape[key] == params, f"{domain}.{lang}: {key} has other parameters"
        for key, value in texts(domain, lang).items():
            assert value.strip(), f"{domain}.{lang}: {key} is empty"


@pytest.mark.parametrize("domain", DOMAINS)
def test_plural_forms_follow_each_language_rule(domain: str) -> None:
    for lang in languages():
        categories, _rule = PLURAL_RULES[catalogue.meta(lang).plural]
        forms: dict[str, set[str]] = {}
        for key in texts(domain, lang):
            base, category = _split(key)
            if category is not None:
                forms.setdefault(base, set()).add(category)
        for base, found in forms.items():
            assert found == set(categories), f"{domain}.{lang}: {base} has forms {found}"
            template = catalogue.template(domain, base, lang, 1)
            assert "n" in fields(template), f"{domain}.{lang}: {base} is chosen by {{n}}"


def test_every_language_says_what_it_is() -> None:
    for lang in languages():
        meta = catalogue.meta(lang)
        assert meta.code == lang
        assert meta.plural in PLURAL_RULES, lang
        assert meta.name, lang
        assert meta.decimal, lang
    assert catalogue.meta("en").name == "English"
    assert catalogue.meta("fr").colon == " "


# --- the lookup --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "n", "expected"),
    [
        ("en", 0, "0 units"),
        ("en", 1, "1 unit"),
        ("en", 2, "2 units"),
        ("fr", 0, "0 unité"),  # French: 0 and 1 are singular
        ("fr", 1, "1 unité"),
        ("fr", 2, "2 unités"),
    ],
)
def test_plural_forms_are_chosen_by_n_under_the_language_rule(
    lang: str, n: int, expected: str
) -> None:
    assert text("render", "counts.units", lang, n=n) == expected


def test_service_texts_have_plural_forms() -> None:
    assert text("service", "builds_unused", "en", n=1) == "1 build not ordered: it will be waived"
    assert text("service", "builds_unused", "fr", n=0).startswith("0 construction non ordonnée")
    assert text("service", "builds_unused", "fr", n=3).startswith("3 constructions non ordonnées")


def test_lookup_falls_back_to_english_and_fails_on_an_unknown_key() -> None:
    assert text("core", "phase.spring", "de") == "Spring"  # no German catalogue
    assert text("core", "phase.spring", "fr-FR") == "Printemps"
    with pytest.raises(KeyError):
        text("core", "phase.no_such_key", "fr")


def test_languages_are_read_from_locales() -> None:
    assert normalise("fr") == "fr"
    assert normalise("FR-ca") == "fr"
    assert normalise(discord.Locale.french) == "fr"
    assert normalise("en-GB") == "en"
    assert normalise("de") == DEFAULT_LANG
    assert normalise(None) == DEFAULT_LANG


def test_a_language_is_added_by_adding_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tmp_path / "data"
    shutil.copytree(data_dir(), data, ignore=shutil.ignore_patterns("fonts", "__pycache__"))
    for domain, path in catalogue.files_of("en").items():
        german = Path(str(path).replace(str(data_dir()), str(data))).with_name(
            path.name.replace("en.toml", "de.toml")
        )
        source = (data / path.relative_to(data_dir())).read_text(encoding="utf-8")
        if domain == "core":
            source = source.replace('spring = "Spring"', 'spring = "Frühling"')
        german.write_text(source, encoding="utf-8")
    monkeypatch.setenv("PARLEY_DATA", str(data))
    _clear_caches()
    try:
        assert languages() == ("en", "de", "fr")
        assert normalise("de-AT") == "de"
        assert text("core", "phase.spring", "de") == "Frühling"
    finally:
        monkeypatch.delenv("PARLEY_DATA")
        _clear_caches()
    assert languages() == ("en", "fr")


# --- no language code in the code ------------------------------------------------------------


def _code(node: ast.AST | None, codes: frozenset[str]) -> bool:
    return isinstance(node, ast.Constant) and node.value in codes


def _codes_in(node: ast.AST, codes: frozenset[str]) -> bool:
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return any(_code(e, codes) for e in node.elts)
    return _code(node, codes)


def language_tests(source: str, codes: frozenset[str]) -> Iterator[tuple[int, str]]:
    """Where `source` tests a language code: `lang == "fr"`, `lang in ("en", "fr")`,
    `lang.startswith("fr")`, `case "fr":`, a table keyed by language, a list of languages."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            if any(_codes_in(o, codes) for o in (node.left, *node.comparators)):
                yield node.lineno, "compares a language code"
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr in ("startswith", "endswith") and any(
                _codes_in(a, codes) for a in node.args
            ):
                yield node.lineno, "tests a language code's prefix"
        elif isinstance(node, ast.MatchValue) and _code(node.value, codes):
            yield node.lineno, "matches a language code"
        elif isinstance(node, ast.Dict) and any(_code(k, codes) for k in node.keys):
            yield node.lineno, "a table keyed by language"
        elif isinstance(node, ast.Tuple | ast.List | ast.Set) and _codes_in(node, codes):
            yield node.lineno, "a list of languages"


CODES = frozenset({*languages(), "en", "fr", "de"})


@pytest.mark.parametrize(
    "source",
    [
        'x = "a" if lang == "fr" else "b"',
        'ok = lang in ("en", "fr")',
        'ok = lang.lower().startswith("fr")',
        'words = {"en": "move", "fr": "mouvement"}',
        'choices = ("en", "fr")',
        'match lang:\n    case "fr":\n        pass',
        'ok = "de" != lang',
    ],
)
def test_the_check_finds_a_language_code(source: str) -> None:
    assert list(language_tests(source, CODES))


def test_the_check_leaves_a_default_argument_alone() -> None:
    assert not list(language_tests('def f(lang: str = "en") -> None:\n    t("k", "en")', CODES))


def test_no_source_file_outside_the_loader_tests_a_language_code() -> None:
    found: list[str] = []
    for folder in ("bot", "renderer"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path == LOADER:
                continue
            rel = path.relative_to(ROOT).as_posix()
            lines = path.read_text(encoding="utf-8").splitlines()
            for lineno, what in language_tests(path.read_text(encoding="utf-8"), CODES):
                line = lines[lineno - 1].strip()
                if any(rel == f and part in line for f, part in ALLOWED):
                    continue
                found.append(f"{rel}:{lineno}: {what}: {line}")
    assert found == [], "language codes outside bot/core/catalogue.py:\n" + "\n".join(found)
