"""The order parser's words: the vocabulary, the lexer (`_lex`, `_phrases`), the LALR
parser fed word by word (`_feed`, classifying each word by what the grammar accepts next) and
the player-facing syntax errors. Split from `bot.core.language.parser` (its public API lives
there)."""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib.resources import files
from typing import Any

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedInput

from bot.core import catalogue
from bot.core.map import GameMap
from bot.core.model import (
    Coast,
)
from bot.core.names import CloseMatches, NameLookupError, NameTable, fold_word, split_words
from bot.core.orders import (
    Order,
)

_GRAMMAR = files("bot.core.language") / "grammar" / "orders.lark"


class OrderSyntaxError(ValueError):
    """An order that cannot be read; `.message` is player-facing, `.text` the order."""

    def __init__(self, message: str, text: str = "", word: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.text = text
        self.word = word


@dataclass(frozen=True, slots=True)
class ParseError:
    text: str
    message: str


@dataclass(frozen=True, slots=True)
class ParseResult:
    orders: list[Order]
    errors: list[ParseError]


# --- vocabulary ------------------------------------------------------------------------------
# Order words of every language (issue 2), folded: `[keywords]` of the core catalogues.
_KINDS = (
    "UTYPE",
    "HOLD",
    "DASH",
    "SUPPORT",
    "CONVOY",
    "VIA",
    "RETREAT",
    "DISBAND",
    "BUILD",
    "WAIVE",
)
_KEYWORDS: dict[str, tuple[str, ...]] = {
    kind: tuple(
        dict.fromkeys(
            w
            for lang in catalogue.languages()
            for w in catalogue.words("core", f"keywords.{kind}", lang)
        )
    )
    for kind in _KINDS
}
_WORD_KINDS: dict[str, tuple[str, ...]] = {}
for _kind, _words in _KEYWORDS.items():
    for _w in _words:
        _WORD_KINDS[_w] = (*_WORD_KINDS.get(_w, ()), _kind)

# Power words (names, adjectives, ids) are the variant's: `GameMap.power_word`.

# Two-word phrases read as one token: via convoy (EDC G "by convoy", French "par convoi").
_PHRASES: dict[tuple[str, str], str] = {
    (first, second): "VIA"
    for first in ("via", "by", "par")
    for second in ("convoy", "convoi", "convoys")
}
_PHRASES.update({(verb, "to"): "DASH" for verb in ("move", "moves")})
_TOKEN_RE = re.compile(
    r"(?P<space>[\s,.!`*_~\"“”«»]+)"  # punctuation, quotes and chat markup are ignored
    r"|(?P<dash>->|=>|→|[-–—‐‑>])"
    r"|(?P<slash>/)"
    r"|(?P<lpar>\()"
    r"|(?P<rpar>\))"
    r"|(?P<colon>:)"
    r"|(?P<word>[^\W_]+(?:['’][^\W_]+)*['’]?)"
    r"|(?P<other>.)",
    re.UNICODE,
)
# A pasted list: "1. A PAR - BUR", "2) F BRE - MAO", "- A MAR H", "• A MUN H".
# The longest real order ("Flotte allemande Saint-Pétersbourg côte sud soutient ...") is about
# 120 characters; reading time grows faster than the length, so a pasted essay is refused.
MAX_ORDER_LENGTH = 300
# List bullets and numbers, and chat quote markers ("> ", ">>> " in Discord).
_LIST_MARKER_RE = re.compile(r"^(?:\d{1,2}[.)]|[-*•]|>{1,3})\s+")
# Invisible characters that phones and web pages slip into copied text (zero-width spaces
# and joiners, the byte-order mark, and the bidi direction marks, embeddings, overrides and
# isolates a phone inserts around a word): an error pointing at them shows nothing.
_INVISIBLE_RE = re.compile("[\u200b-\u200f\u2060\ufeff\u061c\u202a-\u202e\u2066-\u2069]")


def _clean(text: str) -> str:
    """Without invisible characters, full-width and other compatibility forms folded (NFKC:
    'Ａ ＰＡＲ － ＢＵＲ' is 'A PAR - BUR'), stripped."""
    if text.isascii():  # NFKC keeps ASCII as it is, and no invisible character is ASCII
        return text.strip()
    return unicodedata.normalize("NFKC", _INVISIBLE_RE.sub("", text)).strip()


# A chat code fence line ("```", "```text") around a pasted order set.
_FENCE_RE = re.compile(r"^```[\w+-]*$")
_SYMBOL_KINDS = {"dash": "DASH", "slash": "SLASH", "lpar": "LPAR", "rpar": "RPAR", "colon": "COLON"}


@dataclass(frozen=True, slots=True)
class _Raw:
    kind: str  # "word" or a terminal name
    text: str
    glued_left: bool  # no space before it


# `catalogue.normalise` per order is measurable on the fast path (issue 18).
_normalise = functools.lru_cache(maxsize=64)(catalogue.normalise)


@functools.cache
def _messages(lang: str) -> dict[str, str]:
    """`[parse]` of the core catalogue in `lang`, and the language itself (`lang`)."""
    prefix = "parse."
    found = {
        k[len(prefix) :]: v
        for k, v in catalogue.texts("core", lang).items()
        if k.startswith(prefix)
    }
    return {**found, "lang": lang}


# --- lexing -----------------------------------------------------------------------------------


def _lex(
    text: str, names: NameTable, msgs: dict[str, str], bigrams: frozenset[tuple[str, str]]
) -> list[_Raw]:
    out: list[_Raw] = []
    glued = True
    for m in _TOKEN_RE.finditer(text):
        kind = m.lastgroup or "other"
        value = m.group()
        if kind == "space":
            glued = False
            continue
        if kind == "other":
            raise OrderSyntaxError(msgs["char"].format(w=value), text, value)
        out.append(_Raw("word" if kind == "word" else _SYMBOL_KINDS[kind], value, glued))
        glued = True
    # A hyphen glued between two words that follow each other in a name is part of the name
    # ("Mid-Atlantic", "Saint-Pétersbourg"); otherwise it is the move dash ("Par-Bur").
    merged: list[_Raw] = []
    i = 0
    while i < len(out):
        tok = out[i]
        if (
            tok.kind == "DASH"
            and tok.text in "-‐‑"
            and tok.glued_left
            and merged
            and merged[-1].kind == "word"
            and i + 1 < len(out)
            and out[i + 1].kind == "word"
            and out[i + 1].glued_left
        ):
            left = split_words(merged[-1].text)
            right = split_words(out[i + 1].text)
            pair = (left[-1], right[0]) if left and right else ("", "")
            # Hyphenated power names ("Autriche-Hongrie") stay one word.
            if names.joins(*pair) or pair in bigrams:
                prev = merged.pop()
                merged.append(_Raw("word", f"{prev.text}-{out[i + 1].text}", prev.glued_left))
                i += 2
                continue
        merged.append(tok)
        i += 1
    return merged


def _phrases(raws: list[_Raw]) -> list[_Raw]:
    out: list[_Raw] = []
    i = 0
    while i < len(raws):
        tok = raws[i]
        if tok.kind == "word" and i + 1 < len(raws) and raws[i + 1].kind == "word":
            kind = _PHRASES.get((fold_word(tok.text), fold_word(raws[i + 1].text)))
            if kind:
                out.append(_Raw(kind, f"{tok.text} {raws[i + 1].text}", tok.glued_left))
                i += 2
                continue
        out.append(tok)
        i += 1
    # "(via convoy)" is the same as "via convoy".
    kinds = ["VIA" if t.kind == "word" and fold_word(t.text) == "via" else t.kind for t in out]
    drop: set[int] = set()
    for k in range(len(out) - 2):
        if kinds[k : k + 3] == ["LPAR", "VIA", "RPAR"]:
            drop |= {k, k + 2}
    return [t for k, t in enumerate(out) if k not in drop]


@lru_cache(maxsize=1)
def _lark() -> Lark:
    """The LALR parser, built once (the grammar is static)."""
    return Lark(_GRAMMAR.read_text(encoding="utf-8"), parser="lalr", lexer="basic")


def _feed(  # noqa: PLR0917 - internal helper
    text: str,
    raws: list[_Raw],
    msgs: dict[str, str],
    names: NameTable,
    lang: str,
    game_map: GameMap,
    *,
    plain: frozenset[int] = frozenset(),
) -> Tree[Token]:
    """Feed the words to the LALR parser, each as the terminal the parser can take there.

    The words at the indices in `plain` are fed as WORDs whatever they could also be.
    """
    ip: Any = _lark().parse_interactive("")  # lark's interactive API is untyped
    fed: list[Token] = []
    for index, raw in enumerate(raws):
        if raw.kind == "word" and index in plain:
            ttype = "WORD"
        elif raw.kind == "word":
            choices = ip.choices()
            folded = fold_word(raw.text)
            known = _WORD_KINDS.get(folded, ())
            if game_map.power_word(folded) is not None:
                known = (*known, "POWER")
            kinds = [k for k in known if k in choices]
            ttype = "WORD"
            for k in kinds:
                if "WORD" not in choices or _accepts(ip, k):
                    ttype = k
                    break
        else:
            ttype = raw.kind
        tok = Token(ttype, raw.text)
        try:
            ip.feed_token(tok)
        except UnexpectedInput:
            raise _grammar_error(
                text, fed=fed, bad=tok, msgs=msgs, names=names, lang=lang
            ) from None
        fed.append(tok)
    try:
        tree: Tree[Token] = ip.feed_eof(fed[-1] if fed else None)
    except UnexpectedInput:
        raise _grammar_error(text, fed=fed, bad=None, msgs=msgs, names=names, lang=lang) from None
    return tree


def _accepts(ip: Any, ttype: str) -> bool:
    trial = ip.copy()  # deep: reductions may reuse child lists
    try:
        trial.feed_token(Token(ttype, ""))
    except UnexpectedInput:
        return False
    return True


def _grammar_error(
    text: str,
    *,
    fed: list[Token],
    bad: Token | None,
    msgs: dict[str, str],
    names: NameTable,
    lang: str,
) -> OrderSyntaxError:
    # A run of words that is not a place usually holds the culprit ("A PAR attacks BUR").
    run: list[str] = []
    for tok in [*fed, *([bad] if bad is not None and bad.type == "WORD" else [])]:
        if tok.type == "WORD":
            run.append(str(tok))
            continue
        if run and tok.type not in ("SLASH", "LPAR", "RPAR"):
            _check_words(run, msgs, names, lang, text)
        run = [] if tok.type not in ("SLASH", "LPAR", "RPAR") else run
    if run:
        _check_words(run, msgs, names, lang, text)
    if bad is None:
        if not fed:
            return OrderSyntaxError(msgs["empty"], text)
        return OrderSyntaxError(msgs["incomplete"].format(t=text.strip()), text)
    word = str(bad)
    if fed:  # point at the word: "'-' after 'A PAR - BUR'" in "A PAR-BUR-MAR"
        message = msgs["after"].format(w=word, p=" ".join(map(str, fed)))
    else:
        message = msgs["unexpected"].format(w=word, t=text.strip())
    return OrderSyntaxError(message + _keyword_hint(word, msgs), text, word)


@functools.cache
def _hint_words(lang: str) -> frozenset[str]:
    """The words of the game's language a hint may suggest: its keywords."""
    own: list[str] = []
    for kind in _KINDS:
        own.extend(catalogue.words("core", f"keywords.{kind}", lang))
    return frozenset(own)


@functools.cache
def _hint_vocab(lang: str) -> CloseMatches:
    """The keywords a hint may suggest in `lang`, longer than two letters (its `keys`)."""
    own = _hint_words(lang)
    return CloseMatches([w for w in _WORD_KINDS if len(w) > 2 and w in own])


def _keyword_hint(word: str, msgs: dict[str, str]) -> str:
    key = fold_word(word)
    if len(key) < 3:
        return ""
    matcher = _hint_vocab(msgs["lang"])
    vocab = matcher.keys
    best = matcher.closest(key)  # difflib.get_close_matches(key, vocab, n=1, cutoff=0.75)
    if not best:
        # A cut-short word ("sup", "supp"): the shortest word it starts, if of one kind only.
        starts = sorted((w for w in vocab if w.startswith(key)), key=len)
        if starts and len({_WORD_KINDS[w] for w in starts}) == 1:
            best = starts[:1]
    return msgs["meant"].format(k=best[0]) if best else ""


def _check_words(
    words: Sequence[str], msgs: dict[str, str], names: NameTable, lang: str, text: str
) -> None:
    """Raise the most helpful error for a run of words that does not resolve to a place."""
    words = [w for w in words if split_words(w)]
    if not words or _split_place(words, names, lang) is not None:
        return
    for cut in range(len(words) - 1, 0, -1):
        if _split_place(words[:cut], names, lang) is not None:
            word = words[cut]
            message = msgs["after"].format(w=word, p=" ".join(words[:cut]))
            raise OrderSyntaxError(message + _keyword_hint(word, msgs), text, word)
    for cut in range(1, len(words)):
        if _split_place(words[cut:], names, lang) is not None:
            word = words[cut - 1]
            message = msgs["unexpected"].format(w=word, t=text.strip())
            raise OrderSyntaxError(message + _keyword_hint(word, msgs), text, word)
    try:
        names.resolve(words, lang)
    except NameLookupError as exc:
        raise OrderSyntaxError(exc.message, text, exc.word) from None


def _split_place(
    words: Sequence[str], names: NameTable, lang: str
) -> tuple[str, Coast | None] | None:
    """A province, and a trailing coast if any ("Spain north coast", "STP nc")."""
    pid = names.lookup(words, lang)
    if pid is not None:
        return pid, None
    for k in (2, 1):
        if len(words) > k:
            coast = names.coast(words[-k:])
            if coast is not None:
                pid = names.lookup(words[:-k], lang)
                if pid is not None:
                    return pid, coast
    return None
