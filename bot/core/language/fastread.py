"""The fast path of the order parser: orders without a parse tree (issue 18). Split from
`bot.core.language.fastparse` (the texts held once read, the canonical plans of bulk runs).

`fast_order(ctx, position, power)` reads the common shapes (`A PAR - BUR`, `F STP/NC - BAR`,
`A Budapest S A Galicia - Rumania`, `bud move ser`, `remove pie`, `F WES - SPA(sc)`, ...):
canonical notation by position, other texts with a word tokenizer over the map's name table
(the grammar's own lexer for markup and punctuation). It returns exactly what the grammar of
`bot.core.language.parser` would return, or raises exactly its error, made by the same functions: a
place that does not resolve (its hint), a completion error (two coasts, a build's type), and a
syntax error, where the reader stops at the token the grammar stops at (`_grammar_error` on
the terminals fed before it). A text with a bare "s" whose first reading fails is read again,
each bare "s" a place word ("F SPA S - MAO"), as the grammar does. What it leaves to the
grammar: a character the grammar's lexer refuses (its error comes before any reading), and a
text with a bare "s" whose first reading fails only on the board or past a dropped coast.

Each word gets a terminal the way the grammar's contextual lexer gives it one: an order word
of the catalogue (`[keywords]`) where the grammar can take that word there, otherwise a place
word. The viable terminals at each point are written out below from `grammar/orders.lark`;
tests/bot/core/language/test_fastparse.py checks the two paths give the same result on the DATC
texts, the golden file, the corpus sample and generated orders.
"""

from __future__ import annotations

import contextlib
import functools
import re
from typing import Final, NamedTuple

from lark import Token

from bot.core.language.lexicon import (
    _LIST_MARKER_RE,
    _PHRASES,
    _WORD_KINDS,
    OrderSyntaxError,
    _grammar_error,
    _lex,
)
from bot.core.language.lexicon import _phrases as _grammar_phrases
from bot.core.language.transform import _complete, _Ctx, _location, _place_location
from bot.core.model import Location, Position, Power, UnitType
from bot.core.names import NameTable, fold_word, split_words
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

# A chunk between spaces that is not one plain word: words and the symbols - / ( ).
_PIECE_RE: Final = re.compile(r"([^\W_]+(?:['’][^\W_]+)*['’]?)|([-/()])")
_SYMBOLS: Final = {"-": "DASH", "/": "SLASH", "(": "LPAR", ")": "RPAR"}
_PHRASE_FIRST: Final = frozenset({"via", *(first for first, _ in _PHRASES)})
# Texts starting with one of these may carry a list marker ("1. ", "- ", "> "): the grammar's
# lexer reads them.
_MARKER_START: Final = frozenset("0123456789-*•>")

_END: Final = "$END"
_WORD: Final = "WORD"
# What the grammar can take after the place of the ordering unit, of a supported unit, etc.
_HEAD: Final = frozenset({"HOLD", "DASH", "SUPPORT", "CONVOY", "RETREAT", "DISBAND", "BUILD"})
_ONLY_END: Final = frozenset({_END})
_AFTER_TARGET: Final = frozenset({"HOLD", "DASH", _END})
_AFTER_CONVOYED: Final = frozenset({"DASH", "VIA", _END})  # "C PLACE": a target, or a convoyed move
_AFTER_DEST: Final = frozenset({"VIA", _END})
_DASH_ONLY: Final = frozenset({"DASH"})
_START: Final = frozenset({"UTYPE", _WORD, "DISBAND", "BUILD", "WAIVE", "POWER"})
_UNIT_START: Final = frozenset({"UTYPE", _WORD, "POWER"})
_AFTER_UTYPE: Final = frozenset({_WORD, "POWER"})
_AFTER_POWER: Final = frozenset({"UTYPE", _WORD})  # a COLON after the first word: `_Reader.order`
_PLACE_START: Final = frozenset({_WORD})
_COLON: Final = frozenset({"COLON"})


@functools.cache
def _in_place(follow: frozenset[str]) -> frozenset[str]:
    """After a place word: another word, a coast, or what follows the place."""
    return frozenset({_WORD, "SLASH", "LPAR"}) | follow


@functools.cache
def _in_coast(follow: frozenset[str]) -> frozenset[str]:
    """After a coast word following a slash: another coast word or what follows the place."""
    return frozenset({_WORD}) | follow


@functools.cache
def _bare_location(pid: str) -> Location:
    """Location(pid), shared: locations are immutable, and building one costs a little."""
    return Location(pid)


class _NotFastError(Exception):
    """Not a form the fast path reads: the grammar reads the text."""


@functools.cache
def _exact_index(names: NameTable, lang: str) -> dict[str, str | None]:
    """Folded exact name or abbreviation -> province, searched as `NameTable.resolve` searches
    (the game's nomenclature first; the first one holding the key decides; None: ambiguous)."""
    own = names.own(lang)
    index: dict[str, str | None] = {}
    for look in (own, *(x for x in names.langs if x != own)):
        for key, pids in names.exact_keys(look).items():
            if key not in index:
                index[key] = next(iter(pids)) if len(pids) == 1 else None
    return index


def _tokens(
    text: str, names: NameTable, bigrams: frozenset[tuple[str, str]]
) -> list[tuple[str, str]]:
    """(kind, text) pairs as parser._lex and parser._phrases make them: kind "w" for a word,
    else a terminal. Raises _NotFastError for anything those would treat specially."""
    out: list[tuple[str, str]] = []
    phrases = False  # a word that may start a phrase ("via convoy", "move to")
    for chunk in text.split():
        if chunk.isalnum():
            out.append(("w", chunk))
            phrases = phrases or fold_word(chunk) in _PHRASE_FIRST
            continue
        if chunk in _SYMBOLS:
            out.append((_SYMBOLS[chunk], chunk))
            continue
        pieces = _PIECE_RE.findall(chunk)
        if sum(len(w) + len(s) for w, s in pieces) != len(chunk):
            raise _NotFastError  # punctuation, quotes, arrows: the grammar's lexer reads them
        glued: list[tuple[str, str]] = []
        k = 0
        while k < len(pieces):
            word, sym = pieces[k]
            if (
                sym == "-"
                and glued
                and glued[-1][0] == "w"
                and k + 1 < len(pieces)
                and pieces[k + 1][0]
            ):
                # A hyphen inside a name ("Mid-Atlantic") or a power name joins the words.
                left = split_words(glued[-1][1])
                right = split_words(pieces[k + 1][0])
                pair = (left[-1], right[0]) if left and right else ("", "")
                if names.joins(*pair) or pair in bigrams:
                    glued[-1] = ("w", f"{glued[-1][1]}-{pieces[k + 1][0]}")
                    k += 2
                    continue
            glued.append(("w", word) if word else (_SYMBOLS[sym], sym))
            k += 1
        out.extend(glued)
        phrases = phrases or any(fold_word(t) in _PHRASE_FIRST for kind, t in glued if kind == "w")
    return _phrases(out) if phrases else out


def _phrases(out: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Two-word phrases as one terminal, as parser._phrases makes them."""
    phrased: list[tuple[str, str]] = []
    i = 0
    while i < len(out):
        kind, word = out[i]
        if kind == "w" and i + 1 < len(out) and out[i + 1][0] == "w":
            phrase = _PHRASES.get((fold_word(word), fold_word(out[i + 1][1])))
            if phrase:
                phrased.append((phrase, f"{word} {out[i + 1][1]}"))
                i += 2
                continue
        phrased.append(out[i])
        i += 1
    for k in range(len(phrased) - 1):
        if phrased[k][0] == "LPAR" and (
            phrased[k + 1][0] == "VIA" or fold_word(phrased[k + 1][1]) == "via"
        ):
            raise _NotFastError  # "(via convoy)": parser._phrases drops the brackets
    return phrased


_NOWHERE: Final = Location("?")  # a place that did not resolve: the reader goes on to the end


class _Reader:
    """A recursive descent over the tokens, each word classified by what can come next.

    A place that does not resolve is noted (`error`, the first one) and reading goes on: the
    grammar's tree does not depend on the names, so if the whole text reads, the grammar's
    transformer meets the same place first and raises the same error."""

    __slots__ = ("ctx", "error", "i", "index", "plain", "text_power", "toks")

    def __init__(
        self, ctx: _Ctx, toks: list[tuple[str, str]], plain: frozenset[int] = frozenset()
    ) -> None:
        self.ctx = ctx
        self.toks = toks
        self.plain = plain  # the words read as place words whatever else they may be
        self.i = 0
        self.text_power: Power | None = None
        self.index = _exact_index(ctx.names, ctx.lang)
        self.error: OrderSyntaxError | None = None

    def refuse(self, exc: OrderSyntaxError) -> Location:
        """Note the first error of the transformer's (text) order; a stand-in place."""
        if self.error is None:
            self.error = exc
        return _NOWHERE

    def resolve(self, words: list[str], coast: list[str] | None) -> Location:
        """The transformer's place, or its error noted."""
        try:
            return _place_location(self.ctx, words, coast)
        except OrderSyntaxError as exc:
            return self.refuse(exc)

    def next(self, viable: frozenset[str]) -> tuple[str, str]:
        """The next token as the terminal the grammar would feed; _NotFastError if it cannot."""
        if self.i >= len(self.toks):
            if _END in viable:
                return _END, ""
            raise _NotFastError
        kind, text = self.toks[self.i]
        self.i += 1
        if kind == "w" and self.plain and self.i - 1 in self.plain:
            kind = _WORD
        elif kind == "w":
            folded = fold_word(text)
            for k in _WORD_KINDS.get(folded, ()):
                if k in viable:
                    return k, text
            if "POWER" in viable and self.ctx.game_map.power_word(folded) is not None:
                return "POWER", text
            kind = _WORD
        if kind not in viable:
            raise _NotFastError
        return kind, text

    def unit(self, first: tuple[str, str], follow: frozenset[str]) -> tuple[UnitRef, str]:
        """A unit from its first token; the terminal after it. The grammar's `unit`:
        UTYPE? place | POWER UTYPE? place | UTYPE POWER place."""
        utype: UnitType | None = None
        power: Power | None = None
        if first[0] == "POWER":
            power = self.ctx.game_map.power_word(fold_word(first[1]))
            first = self.next(_AFTER_POWER)
        if first[0] == "UTYPE":
            utype = UnitType.FLEET if fold_word(first[1]).startswith("f") else UnitType.ARMY
            first = self.next(_AFTER_UTYPE if power is None else _PLACE_START)
            if first[0] == "POWER":
                power = self.ctx.game_map.power_word(fold_word(first[1]))
                first = self.next(_PLACE_START)
        location, after = self.place(first[1], follow)
        return UnitRef(utype, location, power), after

    def place(self, first: str, follow: frozenset[str]) -> tuple[Location, str]:
        """A place from its first word: WORD+ then a coast (/ WORD+ or ( WORD+ ))."""
        words = [first]
        coast: list[str] | None = None
        in_place = _in_place(follow)
        while True:
            kind, text = self.next(in_place)
            if kind == _WORD:
                words.append(text)
                continue
            if kind == "SLASH":
                coast = [self.next(_PLACE_START)[1]]
                more = _in_coast(follow)
                while (tok := self.next(more))[0] == _WORD:
                    coast.append(tok[1])
                kind = tok[0]
            elif kind == "LPAR":
                coast = [self.next(_PLACE_START)[1]]
                while (tok := self.next(frozenset({_WORD, "RPAR"})))[0] == _WORD:
                    coast.append(tok[1])
                kind = self.next(follow)[0]
            return self.location(words, coast), kind

    def location(self, words: list[str], coast: list[str] | None) -> Location:
        ctx = self.ctx
        if len(words) == 1 and words[0].isalnum():
            key = fold_word(words[0])
        elif all(w.isalnum() for w in words):
            key = "".join(fold_word(w) for w in words)
        else:
            key = "".join(split_words(" ".join(words)))
        pid = self.index.get(key)
        if pid is None:  # a prefix, a trailing coast, an unknown or ambiguous name
            return self.resolve(words, coast)
        if coast is None:
            return _bare_location(pid)
        found = ctx.names.coast(coast)
        if found is None:  # an unknown coast: the transformer's error
            return self.resolve(words, coast)
        try:
            return _location(ctx, pid, found)
        except OrderSyntaxError as exc:  # a coast the province does not have
            return self.refuse(exc)

    def end(self) -> None:
        self.next(_ONLY_END)

    def order(self) -> tuple[Order, bool]:
        """The order as the grammar's transformer builds it, and its `convoy_word` flag."""
        first = self.next(_START)
        if first[0] == "POWER" and self.i < len(self.toks) and self.toks[self.i][0] == "COLON":
            # "France: A PAR - BUR": the power giving the order (the grammar's `start`).
            self.text_power = self.ctx.game_map.power_word(fold_word(first[1]))
            self.next(_COLON)
            first = self.next(_START)
        if first[0] == "WAIVE":
            self.end()
            return Waive(None), False
        if first[0] in ("DISBAND", "BUILD"):
            ref, _ = self.unit(self.next(_UNIT_START), _ONLY_END)
            return (Disband if first[0] == "DISBAND" else Build)(None, unit=ref), False
        ref, verb = self.unit(first, _HEAD)
        if verb == "HOLD":
            self.end()
            return Hold(None, unit=ref), False
        if verb == "DASH":
            dest, after = self.place(self.next(_PLACE_START)[1], _AFTER_DEST)
            if after == "VIA":
                self.end()
            return Move(None, unit=ref, dest=dest, via_convoy=after == "VIA"), False
        if verb == "SUPPORT":
            target, after = self.unit(self.next(_UNIT_START), _AFTER_TARGET)
            if after == "DASH":
                dest, _ = self.place(self.next(_PLACE_START)[1], _ONLY_END)
                return SupportMove(None, unit=ref, target=target, dest=dest), False
            if after == "HOLD":
                self.end()
            return SupportHold(None, unit=ref, target=target), False
        if verb == "CONVOY":
            tok = self.next(_UNIT_START)
            # A type or a nationality makes it a unit: a convoy order, then a dash.
            bare = tok[0] == _WORD
            target, after = self.unit(tok, _AFTER_CONVOYED if bare else _DASH_ONLY)
            if after == "DASH":
                dest, _ = self.place(self.next(_PLACE_START)[1], _ONLY_END)
                return Convoy(None, unit=ref, target=target, dest=dest), False
            if after == "VIA":
                self.end()
            # EDC G: "A LON C BEL" is an army's convoyed move (parser._ToOrders.convoyed_move),
            # a fleet's is an error (after its places': the transformer reads them first).
            if ref.type is UnitType.FLEET:
                self.refuse(OrderSyntaxError(self.ctx.msgs["convoy_dest"], self.ctx.text))
            move = Move(None, unit=ref, dest=target.location, via_convoy=True)
            return move, ref.type is None
        if verb == "RETREAT":
            tok = self.next(frozenset({"DASH", _WORD}))
            if tok[0] == "DASH":
                tok = self.next(_PLACE_START)
            dest, _ = self.place(tok[1], _ONLY_END)
            return Retreat(None, unit=ref, dest=dest), False
        self.end()  # DISBAND or BUILD after the unit
        return (Disband if verb == "DISBAND" else Build)(None, unit=ref), False


# --- canonical notation ----------------------------------------------------------------------
# `A PAR - BUR`, `F STP/NC - BAR`, `A LON - BEL VIA`, `A PAR S A MAR - BUR`, `F NTH C A LON - BEL`,
# `A PAR R PIC`, `A PAR D`, `F STP/NC B`: one word per place, every word where the grammar
# takes it as the reader above does (an id that is also an order or power word is left to the
# reader).
_UTYPES: Final = {"A": UnitType.ARMY, "F": UnitType.FLEET}
_LOCATIONS: Final[dict[tuple[int, str], tuple[object, dict[str, Location | None]]]] = {}


def _canonical_locations(ctx: _Ctx) -> dict[str, Location | None]:
    """Canonical location text -> the location the reader gives it (None: not here), filled
    as met; per map (held, so its id stays its own) and language."""
    key = (id(ctx.game_map), ctx.lang)
    held = _LOCATIONS.get(key)
    if held is None or held[0] is not ctx.game_map:
        if len(_LOCATIONS) > 64:
            _LOCATIONS.clear()
        held = _LOCATIONS[key] = (ctx.game_map, {})
    return held[1]


def _canonical_place(ctx: _Ctx, text: str, seen: dict[str, Location | None]) -> Location | None:
    """A canonical location text as the reader reads it; None if it does not read it so."""
    if text in seen:
        found = seen[text]
        if found is not None and text.partition("/")[2] and found.coast is None:
            pid = found.province  # held: the reader noted the dropped coast the first time
            if pid not in ctx.dropped:
                ctx.dropped.append(pid)  # DATC 4.B.6, as `_location` notes it
        return found
    found = None
    pid_text, _, coast_text = text.partition("/")
    if (
        len(pid_text) == 3
        and pid_text.isalpha()
        and pid_text.isupper()
        and coast_text in ("", "NC", "SC", "EC", "WC")
        and fold_word(pid_text) not in _WORD_KINDS  # e.g. a retreat's "R TO": the reader
        and ctx.game_map.power_word(fold_word(pid_text)) is None
    ):
        reader = _Reader(ctx, [("w", pid_text)])
        try:
            found = reader.location([pid_text], [coast_text] if coast_text else None)
        except (_NotFastError, OrderSyntaxError):
            found = None
        if reader.error is not None:
            found = None
    seen[text] = found
    return found


def _canonical(ctx: _Ctx, parts: list[str]) -> tuple[Order, bool] | None:
    """The order of a canonical text split at its spaces, as the reader builds it; None if
    not canonical. The places are read in the text's order (a dropped coast is noted as
    read), and nothing is built or raised before the whole text is known to be canonical:
    most texts of a first read are not (issue 18)."""
    n = len(parts)
    utype = _UTYPES.get(parts[0])
    if utype is None or n < 3:
        return None
    seen = _canonical_locations(ctx)
    loc = _canonical_place(ctx, parts[1], seen)
    if loc is None:
        return None
    verb = parts[2]
    if n == 3:
        if verb == "H":
            return Hold(None, unit=UnitRef(utype, loc, None)), False
        if verb == "D":
            return Disband(None, unit=UnitRef(utype, loc, None)), False
        if verb == "B":
            return Build(None, unit=UnitRef(utype, loc, None)), False
    elif verb == "-" and (n == 4 or (n == 5 and parts[4] == "VIA")):
        dest = _canonical_place(ctx, parts[3], seen)
        if dest is None:
            return None
        return Move(None, unit=UnitRef(utype, loc, None), dest=dest, via_convoy=n == 5), False
    elif verb == "R" and n == 4:
        dest = _canonical_place(ctx, parts[3], seen)
        if dest is None:
            return None
        return Retreat(None, unit=UnitRef(utype, loc, None), dest=dest), False
    elif verb in ("S", "C") and n in (5, 7) and parts[3] in _UTYPES:
        if verb == "C" and (n != 7 or parts[3] != "A"):
            return None
        tloc = _canonical_place(ctx, parts[4], seen)
        if tloc is None:
            return None
        unit = UnitRef(utype, loc, None)
        if n == 5:
            return SupportHold(
                None, unit=unit, target=UnitRef(_UTYPES[parts[3]], tloc, None)
            ), False
        if parts[5] != "-":
            return None
        dest = _canonical_place(ctx, parts[6], seen)
        if dest is None:
            return None
        target = UnitRef(_UTYPES[parts[3]], tloc, None)
        if verb == "S":
            return SupportMove(None, unit=unit, target=target, dest=dest), False
        return Convoy(None, unit=unit, target=target, dest=dest), False
    return None


def _lexed(ctx: _Ctx) -> list[tuple[str, str]]:
    """The tokens of `ctx.text`: the quick tokenizer, else the grammar's own lexer (markup,
    punctuation, arrows, list markers, bracketed phrases), whose tokens are then read here."""
    text = ctx.text
    if text[0] not in _MARKER_START:
        try:  # not contextlib.suppress: a context manager's three calls per text (issue 18)
            return _tokens(text, ctx.names, ctx.game_map.power_bigrams)
        except _NotFastError:
            pass
    source = _LIST_MARKER_RE.sub("", text)
    raws = _grammar_phrases(_lex(source, ctx.names, ctx.msgs, ctx.game_map.power_bigrams))
    return [("w" if r.kind == "word" else r.kind, r.text) for r in raws]


# As read, before the board: the order, its `convoy_word` flag, the power its text names
# ("France: ..."), and whether an error completing it is final: the grammar reads a text
# again, each bare "s" as a coast ("F SPA S - MAO"), only when it has one.
Skeleton = tuple[Order, bool, Power | None, bool]


class _Refusal(NamedTuple):
    """A text the grammar reads whole and whose transformer refuses it (an unknown place, a
    fleet's convoyed move): the error's fields, a new error each time it is raised."""

    message: str
    text: str
    word: str

    def error(self) -> OrderSyntaxError:
        return OrderSyntaxError(self.message, self.text, self.word)


def _skeleton(ctx: _Ctx) -> Skeleton | _Refusal | _Twice | None:
    """The order as read from the text alone, or its error; None when the grammar must read
    it (a form not read here, an error the grammar may read again)."""
    if not ctx.text:
        return None
    parts = ctx.text.split(" ")
    canonical = _canonical(ctx, parts)
    if canonical is not None:
        return canonical[0], canonical[1], None, "S" not in parts  # no other part folds to "s"
    try:
        toks = _lexed(ctx)
    except (_NotFastError, OrderSyntaxError):
        return None  # a character the grammar's lexer refuses: its error
    if not toks:
        return None  # the grammar's "empty" error names the text as sent
    first = _reading(ctx, toks, frozenset())
    if first is None:
        return None
    # The grammar reads a text again, each bare "s" as a place word ("F SPA S - MAO": a
    # coast), when its first reading fails; if that fails too, the first error stands.
    coast_s = [i for i, (k, t) in enumerate(toks) if k == "w" and fold_word(t) == "s"]
    if not coast_s:
        return first
    if not isinstance(first, _Refusal):
        order, convoy_word, text_power, _ = first
        return order, convoy_word, text_power, False  # a completion error: the grammar's
    if ctx.dropped:
        return None  # coasts dropped (DATC 4.B.6) after where the grammar's reading stops
    again = _reading(ctx, toks, frozenset(coast_s))
    return None if again is None else _Twice(first, again)


def _reading(
    ctx: _Ctx, toks: list[tuple[str, str]], plain: frozenset[int]
) -> Skeleton | _Refusal | None:
    """One reading of the tokens, the words at `plain` as place words: the order, or the
    error the grammar's reading gives; None if not read here."""
    reader = _Reader(ctx, toks, plain)
    try:
        order, convoy_word = reader.order()
    except _NotFastError:
        return _syntax_error(ctx, toks, plain)
    except OrderSyntaxError:  # pragma: no cover - the reader notes its errors
        return None
    if reader.error is None:
        return order, convoy_word, reader.text_power, True
    exc = reader.error
    return _Refusal(exc.message, exc.text, exc.word)


class _Twice(NamedTuple):
    """A text with a bare "s" whose first reading fails: that error, and the reading again."""

    first: _Refusal
    again: Skeleton | _Refusal


class _Recorder(_Reader):
    """The reader again, noting each terminal as the grammar is fed it, and where it stops."""

    __slots__ = ("fed", "stop")

    def __init__(self, ctx: _Ctx, toks: list[tuple[str, str]], plain: frozenset[int]) -> None:
        super().__init__(ctx, toks, plain)
        self.fed: list[Token] = []
        # the token it stops at; None: the end; True: a word the grammar may lex otherwise
        self.stop: Token | bool | None = False

    def next(self, viable: frozenset[str]) -> tuple[str, str]:
        at = self.i
        try:
            kind, text = super().next(viable)
        except _NotFastError:
            if at >= len(self.toks):
                self.stop = None
            else:  # a word nothing can take here is fed as a WORD (a plain one too)
                kind, text = self.toks[at]
                self.stop = Token(_WORD if kind == "w" else kind, text)
                if kind == "w" and at not in self.plain and fold_word(text) in _WORD_KINDS:
                    # A keyword's word may reach the grammar as that keyword instead: its
                    # contextual lexer takes what the LALR state's merged lookahead allows
                    # ("b a a ( a ) b": the last "b" as BUILD), which the reader does not track.
                    self.stop = True
            raise
        if kind != _END:
            self.fed.append(Token(kind, text))
        return kind, text


def _syntax_error(ctx: _Ctx, toks: list[tuple[str, str]], plain: frozenset[int]) -> _Refusal | None:
    """The grammar's syntax error for a text the reader stops in: the reader's terminals are
    the grammar's, and the terminals it can take at each point are the grammar's, so the
    grammar stops at the same token, having been fed the same ones (`_grammar_error`)."""
    recorder = _Recorder(ctx, toks, plain)
    with contextlib.suppress(_NotFastError):
        recorder.order()
    if recorder.stop is False:  # pragma: no cover - the reader stops only in `next`
        return None
    if recorder.stop is True:  # the grammar's own error: see _Recorder.next
        return None
    bad = recorder.stop if isinstance(recorder.stop, Token) else None
    try:
        exc = _grammar_error(
            ctx.text, fed=recorder.fed, bad=bad, msgs=ctx.msgs, names=ctx.names, lang=ctx.lang
        )
    except OrderSyntaxError as raised:  # a run of words that is not a place: its error
        exc = raised
    return _Refusal(exc.message, exc.text, exc.word)


def fast_order(ctx: _Ctx, position: Position | None, power: Power | None) -> Order | None:
    """The order `ctx.text` (cleaned) reads as, completed with the board as the grammar path
    completes it, or the grammar's error (`OrderSyntaxError`) for a text that reads whole;
    None when the grammar must read it (a syntax error, a form not read here)."""
    skeleton = _skeleton(ctx)
    return None if skeleton is None else _made(skeleton, ctx, position, power)


def _made(
    skeleton: Skeleton | _Refusal | _Twice,
    ctx: _Ctx,
    position: Position | None,
    power: Power | None,
) -> Order | None:
    """The order of a reading completed with the board, or its error raised; None: the
    grammar's."""
    if isinstance(skeleton, _Refusal):
        raise skeleton.error()
    if isinstance(skeleton, _Twice):
        first, again = skeleton
        if isinstance(again, _Refusal):
            raise first.error()
        try:
            return _finish(again, ctx, position, power)
        except OrderSyntaxError:
            raise first.error() from None
    return _finish(skeleton, ctx, position, power)


def _finish(
    skeleton: Skeleton, ctx: _Ctx, position: Position | None, power: Power | None
) -> Order | None:
    """The order completed with the board; its error if final, else None (the grammar)."""
    order, convoy_word, text_power, final = skeleton
    try:
        return _complete(order, ctx, position, power or text_power, convoy_word=convoy_word)
    except OrderSyntaxError:
        if final:
            raise  # the grammar reads the same tree and completes it the same way
        return None
