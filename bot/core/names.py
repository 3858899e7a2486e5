"""Province and coast names in the two nomenclatures: English (Hasbro) and French (Descartes).

`load_names("standard")` reads `data/maps/standard_names.json` once. `NameTable.resolve(words,
lang)` turns what a player wrote ("West Med", "Saint-Pétersbourg", "mao", "TYR") into a province
id, in this order (seeds/README.md, Stabbeurfou section 5, GM order-correction rules I(1)):

1. an exact name or abbreviation of the game's nomenclature (this settles the collisions:
   MAR is Marseilles in English and North Africa in French; TYR is Tyrolia / the Tyrrhenian Sea);
2. an exact name or abbreviation of the other nomenclature;
3. an unambiguous prefix of a full name ("West Med", "Mid-Atl", "St Peters");
otherwise a `NameLookupError` with a player-facing message in the game's language: the
candidates when ambiguous, a close match when unknown ("did you mean Burgundy?").
Case, accents, spacing, hyphens, dots and elided articles (d', l') do not matter.
"""

from __future__ import annotations

import difflib
import json
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from bot.core import catalogue
from bot.core.catalogue import DEFAULT_LANG
from bot.core.model import Coast
from bot.paths import data_dir

_SHORT = 4  # codes this short get a suggestion for two swapped letters
_MIN_PREFIX = 3  # shorter prefixes are guesses, not names (GM rules I(1): "a significant part")
_CUTOFF = 0.75  # difflib's ratio for a suggestion


class NameLookupError(ValueError):
    """A place name that does not resolve; `.message` is for the player."""

    def __init__(self, message: str, *, word: str, candidates: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.message = message
        self.word = word
        self.candidates = tuple(candidates)


@lru_cache(maxsize=8192)
def fold_word(word: str) -> str:
    """Lower case, no accents, letters and digits only; `saint` is written `st`."""
    decomposed = unicodedata.normalize("NFKD", word.lower())
    plain = "".join(c for c in decomposed if c.isalnum() and not unicodedata.combining(c))
    return "st" if plain == "saint" else plain


_SPLIT_RE = re.compile(r"[\s\-‐‑–—_.,/()]+")
_ELISION_RE = re.compile(r"\b[dl][’']", re.IGNORECASE)


def split_words(text: str) -> list[str]:
    """Words of a name: `Mer d'Islande` -> [mer, islande], `St. Petersburg` -> [st, petersburg]."""
    text = _ELISION_RE.sub(" ", text).replace("'", " ").replace("’", " ")
    return [w for w in (fold_word(x) for x in _SPLIT_RE.split(text)) if w]


def _key(words: Sequence[str]) -> str:
    return "".join(words)


@dataclass(frozen=True, slots=True)
class _Entry:
    pid: str
    lang: str
    words: tuple[str, ...]
    is_name: bool  # full name (prefixes allowed) or abbreviation (exact only)


class NameTable:
    """The names of one map; immutable after construction."""

    def __init__(self, raw: Mapping[str, Any]) -> None:
        provinces: Mapping[str, Any] = raw["provinces"]
        self.province_ids: tuple[str, ...] = tuple(sorted(provinces))
        # The nomenclatures the file has (`en`, `fr`, ...): a language without one uses the
        # default language's names.
        self.langs: tuple[str, ...] = tuple(raw["coast_names"])
        self._abbr: dict[tuple[str, str], str] = {}
        self._name: dict[tuple[str, str], str] = {}
        self._exact: dict[str, dict[str, set[str]]] = {lang: {} for lang in self.langs}
        self._entries: list[_Entry] = []
        for pid, per_lang in provinces.items():
            for lang in self.langs:
                spec = per_lang[lang]
                self._abbr[(pid, lang)] = spec["abbr"][0].upper()
                self._name[(pid, lang)] = spec["names"][0]
                for text, is_name in [(a, False) for a in spec["abbr"]] + [
                    (n, True) for n in spec["names"]
                ]:
                    words = tuple(split_words(text))
                    self._exact[lang].setdefault(_key(words), set()).add(pid)
                    self._entries.append(_Entry(pid, lang, words, is_name))
        self._coast_words: dict[str, Coast] = {}
        for coast, per_lang in raw["coasts"].items():
            for lang in self.langs:
                for text in per_lang[lang]:
                    self._coast_words[_key(split_words(text))] = Coast(coast)
        self._coast_alias: dict[str, dict[Coast, Coast]] = {
            pid: {Coast(a): Coast(b) for a, b in m.items()}
            for pid, m in raw.get("coast_aliases", {}).items()
        }
        self._coast_names: dict[str, dict[Coast, str]] = {
            lang: {Coast(c): n for c, n in m.items()} for lang, m in raw["coast_names"].items()
        }
        self._coast_abbr: dict[str, dict[Coast, str]] = {
            lang: {Coast(c): n for c, n in m.items()} for lang, m in raw["coast_abbr"].items()
        }
        # Pairs of words that follow each other inside some name ("mid"+"atlantic"): a hyphen
        # between them is part of the name, not the move dash ("Mid-Atlantic" vs "Par-Bur").
        self._next_words: dict[str, set[str]] = {}
        for e in self._entries:
            for i in range(len(e.words) - 1):
                self._next_words.setdefault(e.words[i], set()).add(e.words[i + 1])
        # Full names by their first letter: a prefix ("West Med", "midatl") shares it, so the
        # prefix search reads one bucket, not every name (issue 18: errors read it many times).
        self._by_initial: dict[str, list[tuple[_Entry, str]]] = {}  # with its key
        for e in self._entries:
            if e.is_name and _key(e.words):
                self._by_initial.setdefault(_key(e.words)[0], []).append((e, _key(e.words)))
        # suggest()'s candidates per language (key -> province) and their letter counts
        self._choices: dict[str, tuple[dict[str, str], CloseMatches]] = {}

    def joins(self, left: str, right: str) -> bool:
        """Do these folded words follow each other in a name (`mid`, `atl`...antic)?"""
        return any(n.startswith(right) for n in self._next_words.get(left, ()))

    def own(self, lang: str) -> str:
        """`lang` if this map has names in it, else the default language."""
        return lang if lang in self.langs else DEFAULT_LANG

    def _looks(self, lang: str) -> tuple[str, ...]:
        """The nomenclatures to search, the game's language first."""
        own = self.own(lang)
        return (own, *(x for x in self.langs if x != own))

    # --- display -------------------------------------------------------------------------

    def abbreviation(self, pid: str, lang: str = "en") -> str:
        """`PAR`/`BUR` in English, `PAR`/`BOU` in French (Descartes)."""
        return self._abbr[(pid, self.own(lang))]

    def full_name(self, pid: str, lang: str = "en") -> str:
        return self._name[(pid, self.own(lang))]

    def coast_name(self, coast: Coast, lang: str = "en") -> str:
        return self._coast_names[self.own(lang)][coast]

    def coast_abbreviation(self, coast: Coast, lang: str = "en") -> str:
        return self._coast_abbr[self.own(lang)][coast]

    # --- coasts --------------------------------------------------------------------------

    def coast(self, words: Sequence[str]) -> Coast | None:
        """`nc`, `n`, `north coast`, `côte nord`, `cn` -> Coast.NORTH; None if not a coast."""
        return self._coast_words.get(_key([fold_word(w) for w in words]))

    def coast_for(self, pid: str, coast: Coast) -> Coast:
        """Bulgaria's "north coast" is its east coast (Stabbeurfou (a), EDC section G)."""
        return self._coast_alias.get(pid, {}).get(coast, coast)

    # --- provinces -----------------------------------------------------------------------

    def lookup(self, text: str | Sequence[str], lang: str = "en") -> str | None:
        """Like `resolve` but None instead of an error (and no suggestion search)."""
        words = split_words(" ".join([text] if isinstance(text, str) else text))
        found = self._search(words, self.own(lang)) if words else None
        return found if isinstance(found, str) else None  # no error built: errors call it often

    def resolve(self, text: str | Sequence[str], lang: str = "en", *, suggest: bool = True) -> str:
        """The province id a player meant; NameLookupError if unknown or ambiguous."""
        raw_words = [text] if isinstance(text, str) else list(text)
        shown = " ".join(raw_words).strip()
        words = split_words(" ".join(raw_words))
        lang = self.own(lang)
        if not words:
            raise NameLookupError(catalogue.text("core", "names.missing", lang), word=shown)
        found = self._search(words, lang)
        if isinstance(found, str):
            return found
        if found:
            raise self._ambiguous(shown, found, lang)
        raise self._unknown(shown, _key(words) if suggest else "", lang)

    def _search(self, words: Sequence[str], lang: str) -> str | set[str] | None:
        """The province of folded `words`; the candidates if ambiguous; None if unknown."""
        key = _key(words)
        for look in self._looks(lang):
            found = self._exact[look].get(key, set())
            if len(found) == 1:
                return next(iter(found))
            if len(found) > 1:  # pragma: no cover - the data test forbids it
                return found
        if len(key) >= _MIN_PREFIX:
            mine: set[str] = set()
            every: set[str] = set()
            # A one-word prefix of a name's first word is one of its key too: `_is_prefix` is
            # tried only for several words, and only where the first words agree (issue 18:
            # it was a call and a generator for every name of the bucket, ~8% of a first read
            # of the golden mix).
            first, several = words[0], len(words) > 1
            for e, name in self._by_initial.get(key[0], ()):
                if name.startswith(key) or (
                    several and e.words[0].startswith(first) and _is_prefix(words, e.words)
                ):
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

    def _ambiguous(self, shown: str, pids: set[str], lang: str) -> NameLookupError:
        names = sorted(self.full_name(p, lang) for p in pids)
        listing = ", ".join(names)
        return NameLookupError(
            catalogue.text("core", "names.ambiguous", lang, shown=shown, listing=listing),
            word=shown,
            candidates=names,
        )

    def suggest(self, key: str, lang: str) -> str | None:
        """The full name of the province closest to `key` (folded), if any is close."""
        held = self._choices.get(self.own(lang))
        if held is None:
            choices: dict[str, str] = {}
            for look in self._looks(lang):
                for k, pids in self._exact[look].items():
                    if len(pids) == 1:
                        choices.setdefault(k, next(iter(pids)))
            held = self._choices[self.own(lang)] = (choices, CloseMatches(list(choices)))
        choices, letters = held
        best = letters.closest(key)
        if not best and len(key) <= _SHORT:
            # A short code is too short for a ratio: "PRA" is 0.67 from "PAR". Two swapped
            # letters are the usual typo there; suggest only when one code fits.
            swaps = {key[:i] + key[i + 1] + key[i] + key[i + 2 :] for i in range(len(key) - 1)}
            fits = {choices[k] for k in swaps & choices.keys()}
            best = [next(k for k in swaps if k in choices)] if len(fits) == 1 else []
        return self.full_name(choices[best[0]], lang) if best else None

    def _unknown(self, shown: str, key: str, lang: str) -> NameLookupError:
        hint = self.suggest(key, lang) if len(key) >= _MIN_PREFIX else None
        if hint:
            message = catalogue.text("core", "names.unknown_hint", lang, shown=shown, hint=hint)
        else:
            message = catalogue.text("core", "names.unknown", lang, shown=shown)
        return NameLookupError(message, word=shown, candidates=(hint,) if hint else ())

    def exact_keys(self, lang: str) -> Mapping[str, frozenset[str]]:
        """Folded exact names and abbreviations of one nomenclature (for tests and tools)."""
        return {k: frozenset(v) for k, v in self._exact[lang].items()}


class CloseMatches:
    """`difflib.get_close_matches(word, keys, n=1, cutoff=0.75)` for a fixed list of keys.

    The keys by their letter counts, as bit sets over the keys (bit i: keys[i]).

    difflib's `get_close_matches` keeps a candidate only if its `quick_ratio` passes: the
    letters it shares with the word, counted with repeats, are enough for the cutoff at its
    length. `near` counts those shared letters for every key at once, bit-sliced (a handful of
    big-int operations per letter of the word), and returns only the keys that pass: difflib's
    best match among them is its best among all (issue 18: a `str.translate` pre-filter and
    difflib over what it left took 150-390 us per unknown place; ~1-3 keys pass)."""

    __slots__ = ("by_length", "has", "keys", "needs")

    def __init__(self, keys: list[str]) -> None:
        self.keys = keys
        # (letter, n) -> the keys with at least n of that letter
        self.has: dict[tuple[str, int], int] = {}
        self.by_length: dict[int, int] = {}  # length -> the keys of that length
        self.needs: dict[int, list[tuple[int, int]]] = {}  # `_needs`, per word length
        for i, k in enumerate(keys):
            bit = 1 << i
            self.by_length[len(k)] = self.by_length.get(len(k), 0) | bit
            seen: dict[str, int] = {}
            for c in k:
                n = seen[c] = seen.get(c, 0) + 1
                self.has[c, n] = self.has.get((c, n), 0) | bit

    def _needs(self, size: int) -> list[tuple[int, int]]:
        """For a word of `size` letters: each length's keys and the fewest letters they must
        share with it to pass, difflib's 2.0 * matches / total >= cutoff (lengths where none
        can pass are left out: its `real_quick_ratio`)."""
        held = self.needs.get(size)
        if held is None:
            held = []
            for length, group in self.by_length.items():
                total = length + size
                for m in range(1, min(length, size) + 1):
                    if 2.0 * m / total >= _CUTOFF:
                        held.append((group, m))
                        break
            if len(self.needs) < 512:  # words are at most an order's length
                self.needs[size] = held
        return held

    def closest(self, word: str) -> list[str]:
        """difflib's closest key to `word`, in a list; [] if none is close enough."""
        return _closest(word, self.near(word))

    def near(self, word: str) -> list[str]:
        """The keys whose letters shared with `word` pass difflib's quick checks."""
        planes: list[int] = []  # the count of shared letters per key, bit-sliced, low first
        seen: dict[str, int] = {}
        for c in word:
            n = seen[c] = seen.get(c, 0) + 1
            carry = self.has.get((c, n), 0)
            for i, plane in enumerate(planes):  # add `carry` (0/1 per key) to the count
                planes[i] = plane ^ carry
                carry &= plane
                if not carry:
                    break
            if carry:
                planes.append(carry)
        found = 0
        for group, need in self._needs(len(word)):
            above = 0  # the keys of `group` whose count is > need, then >= need
            equal = group
            for i in range(max(len(planes), need.bit_length()) - 1, -1, -1):
                plane = planes[i] if i < len(planes) else 0
                if need >> i & 1:
                    equal &= plane
                else:
                    above |= equal & plane
                    equal &= ~plane
            found |= above | equal
        near: list[str] = []
        while found:
            low = found & -found
            near.append(self.keys[low.bit_length() - 1])
            found ^= low
        return near


def _closest(word: str, near: list[str]) -> list[str]:
    """`difflib.get_close_matches(word, near, n=1, cutoff=_CUTOFF)` for candidates that pass
    its quick checks (`CloseMatches.near`): its ratio alone decides, the greatest (ratio, key)."""
    if not near:
        return []
    matcher = difflib.SequenceMatcher()
    matcher.set_seq2(word)  # difflib caches this side: the word, as get_close_matches does
    best: tuple[float, str] | None = None
    for key in near:
        matcher.set_seq1(key)
        score = matcher.ratio()
        if score >= _CUTOFF and (best is None or (score, key) > best):
            best = (score, key)
    return [] if best is None else [best[1]]


def _is_prefix(words: Sequence[str], name: Sequence[str]) -> bool:
    """`west med` starts `western mediterranean` word-wise (`midatl` starting the name's key,
    `midatlanticocean`, is checked first)."""
    return len(words) <= len(name) and all(
        n.startswith(w) for w, n in zip(words, name, strict=False)
    )


@lru_cache(maxsize=4)
def load_names(map_name: str = "standard") -> NameTable:
    """The name table of a map, from `data/maps/NAME_names.json` (cached, immutable).

    A variant on the standard board without a names file of its own (the EDC "Sandard" map)
    uses the standard names.
    """
    path = data_dir() / "maps" / f"{map_name}_names.json"
    if not path.exists():
        path = data_dir() / "maps" / "standard_names.json"
    with path.open(encoding="utf-8") as f:
        return NameTable(json.load(f))
