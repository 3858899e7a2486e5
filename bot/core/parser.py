"""The order parser: what players write, in English or French, into typed orders.

`parse_order(text, lang=, power=, position=, game_map=)` returns one typed order or raises
`OrderSyntaxError`, whose `.message` is for the player (in the game's language, naming the word
at fault). `parse_orders` reads a whole order set (one order per line or `;`-separated) and
returns every order and every error. `render_order(order, lang)` writes an order back: the
canonical English notation, or the French notation with Descartes abbreviations.

The structure is a lark LALR grammar (`grammar/orders.lark`, built once). Words are classified
here, by what the parser accepts next, and place names are resolved by `bot.core.names`.
With a position the parser fills only what is missing (unit type, a fleet's only reachable
coast, a retreat in a retreat phase) and never overrides what was written: an order for a
missing unit, another power's unit or a wrong unit type still parses (DATC 6.A.*: the
adjudicator rules on it).

Well-formed orders are read first by `bot.core.fastparse`, without a parse tree and to the
same result (issue 18: ~10x faster); the grammar reads everything else and makes every error.
`parse_order_grammar` is the grammar alone, for the differential test and `bench/parse.py`.
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib.resources import files
from typing import Any

from lark import Lark, Token, Transformer, Tree
from lark.exceptions import LarkError, UnexpectedInput, VisitError

from bot.core import catalogue
from bot.core.map import GameMap
from bot.core.model import (
    Coast,
    Location,
    PhaseKind,
    Position,
    Power,
    ProvinceKind,
    Unit,
    UnitType,
)
from bot.core.names import NameLookupError, NameTable, fold_word, split_words
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
    UnitOrder,
    UnitRef,
    Waive,
)

_GRAMMAR = files("bot.core") / "grammar" / "orders.lark"


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


def _keyword_hint(word: str, msgs: dict[str, str]) -> str:
    key = fold_word(word)
    if len(key) < 3:
        return ""
    own = _hint_words(msgs["lang"])
    vocab = [w for w in _WORD_KINDS if len(w) > 2 and w in own]
    best = difflib.get_close_matches(key, vocab, n=1, cutoff=0.75)
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


# --- tree to orders --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Place:
    location: Location


@dataclass(frozen=True, slots=True)
class _Ctx:
    text: str
    lang: str
    names: NameTable
    game_map: GameMap
    msgs: dict[str, str]


class _ToOrders(Transformer[Token, Any]):
    """Tree -> typed orders (power None: it is set afterwards)."""

    def __init__(self, ctx: _Ctx) -> None:
        super().__init__()
        self.ctx = ctx
        self.text_power: Power | None = None
        # "X C Y" with X's type left out: a convoyed army's move, or a fleet's convoy order
        # missing the convoyed unit; only the board (or a sea province) tells which.
        self.convoy_word = False

    # places
    def coast(self, items: list[Token]) -> list[str]:
        return [str(t) for t in items if t.type == "WORD"]

    def place(self, items: list[Any]) -> _Place:
        words = [str(t) for t in items if isinstance(t, Token)]
        coast_words: list[str] | None = next((i for i in items if isinstance(i, list)), None)
        return _Place(_place_location(self.ctx, words, coast_words))

    # units
    def unit(self, items: list[Any]) -> UnitRef:
        utype: UnitType | None = None
        power: Power | None = None
        place: _Place | None = None
        for item in items:
            if isinstance(item, _Place):
                place = item
            elif item.type == "UTYPE":
                utype = UnitType.FLEET if fold_word(str(item)).startswith("f") else UnitType.ARMY
            elif item.type == "POWER":
                power = self.ctx.game_map.power_word(fold_word(str(item)))
        assert place is not None  # the grammar guarantees a place
        return UnitRef(utype, place.location, power)

    def target(self, items: list[Any]) -> UnitRef:
        ref: UnitRef = items[0]
        return ref

    # orders
    def start(self, items: list[Any]) -> Order:
        for item in items:
            if isinstance(item, Token) and item.type == "POWER":
                self.text_power = self.ctx.game_map.power_word(fold_word(str(item)))
        order: Order = items[-1]
        return order

    def hold(self, items: list[Any]) -> Order:
        return Hold(None, unit=items[0])

    def move(self, items: list[Any]) -> Order:
        via = any(isinstance(i, Token) and i.type == "VIA" for i in items)
        return Move(None, unit=items[0], dest=items[2].location, via_convoy=via)

    def convoyed_move(self, items: list[Any]) -> Order:
        # EDC G: "attack by convoy: ... or C" — "A LON C BEL" is an army's convoyed move.
        unit: UnitRef = items[0]
        if unit.type is UnitType.FLEET:
            raise OrderSyntaxError(self.ctx.msgs["convoy_dest"], self.ctx.text)
        self.convoy_word = unit.type is None
        return Move(None, unit=unit, dest=items[2].location, via_convoy=True)

    def support_hold(self, items: list[Any]) -> Order:
        return SupportHold(None, unit=items[0], target=items[2])

    def support_move(self, items: list[Any]) -> Order:
        return SupportMove(None, unit=items[0], target=items[2], dest=items[4].location)

    def convoy(self, items: list[Any]) -> Order:
        return Convoy(None, unit=items[0], target=items[2], dest=items[4].location)

    def retreat(self, items: list[Any]) -> Order:
        return Retreat(None, unit=items[0], dest=items[-1].location)

    def disband(self, items: list[Any]) -> Order:
        unit = next(i for i in items if isinstance(i, UnitRef))
        return Disband(None, unit=unit)

    def build(self, items: list[Any]) -> Order:
        unit = next(i for i in items if isinstance(i, UnitRef))
        return Build(None, unit=unit)

    def waive(self, items: list[Any]) -> Order:  # noqa: ARG002 - lark callback signature
        return Waive(None)


def _place_location(ctx: _Ctx, words: list[str], coast_words: list[str] | None) -> Location:
    """A place's words (and the words after its slash or in its brackets) as a location."""
    coast: Coast | None = None
    if coast_words is not None:
        coast = ctx.names.coast(coast_words)
        pid_only = ctx.names.lookup(words, ctx.lang)
        if coast is None:
            shown = " ".join(coast_words)
            message = ctx.msgs["coast"].format(w=shown)
            if pid_only is not None and ctx.game_map.province(pid_only).coasts:
                message += ctx.msgs["write"].format(opts=_coast_options(ctx, pid_only))
            raise OrderSyntaxError(message, ctx.text, shown)
        found = _split_place(words, ctx.names, ctx.lang)
        if found is None or found[1] is not None:
            _check_words(words, ctx.msgs, ctx.names, ctx.lang, ctx.text)
            raise OrderSyntaxError(ctx.msgs["coast"].format(w=" ".join(words)), ctx.text)
        pid = found[0]
    else:
        found = _split_place(words, ctx.names, ctx.lang)
        if found is None:
            _check_words(words, ctx.msgs, ctx.names, ctx.lang, ctx.text)
            raise OrderSyntaxError(ctx.msgs["coast"].format(w=" ".join(words)), ctx.text)
        pid, coast = found
    return _location(ctx, pid, coast)


def _location(ctx: _Ctx, pid: str, coast: Coast | None) -> Location:
    prov = ctx.game_map.province(pid)
    if coast is None:
        return Location(pid)
    coast = ctx.names.coast_for(pid, coast)
    if not prov.coasts:
        # GM rules II(3): an inaccurate coast never invalidates an order; one-coast
        # provinces have nothing to choose, so the designation is dropped.
        return Location(pid)
    if coast not in prov.coasts:
        name = ctx.names.full_name(pid, ctx.lang)
        raise OrderSyntaxError(
            ctx.msgs["no_coast"].format(
                p=name,
                c=ctx.names.coast_name(coast, ctx.lang),
                opts=_coast_options(ctx, pid),
            ),
            ctx.text,
            name,
        )
    return Location(pid, coast)


def _coast_options(ctx: _Ctx, pid: str) -> str:
    prov = ctx.game_map.province(pid)
    abbr = ctx.names.abbreviation(pid, ctx.lang).lower()
    opts = [f"{abbr}/{ctx.names.coast_abbreviation(c, ctx.lang).lower()}" for c in prov.coasts]
    return ctx.msgs["or"].join(opts)


# --- completion with the board -----------------------------------------------------------------


def _board_unit(position: Position | None, pid: str, dislodged_first: bool) -> Unit | None:
    if position is None:
        return None
    if dislodged_first:
        d = position.dislodged_in(pid)
        if d is not None:
            return d.unit
    return position.unit_in(pid)


def _fill_ref(
    ref: UnitRef, position: Position | None, game_map: GameMap, *, own: bool, retreat: bool
) -> tuple[UnitRef, Unit | None]:
    """Fill the type (and, for the ordered unit, its coast and owner) from the board."""
    board = _board_unit(position, ref.province, retreat)
    utype = ref.type
    location = ref.location
    power = ref.power
    if board is not None:
        if utype is None:
            utype = board.type
        if (
            own
            and utype is UnitType.FLEET
            and board.type is UnitType.FLEET
            and location.coast is None
            and board.location.coast is not None
        ):
            location = board.location
        if own and power is None:
            power = board.power
    # With a board, a unit in a sea can only be a fleet and one inland only an army. Without
    # one the type stays as written: interpret.py re-reads orders bare to see what was omitted.
    if utype is None and position is not None and ref.province in game_map.provinces:
        kind = game_map.province(ref.province).kind
        if kind is ProvinceKind.SEA:
            utype = UnitType.FLEET
        elif kind is ProvinceKind.LAND:
            utype = UnitType.ARMY
    if utype is ref.type and location is ref.location and power is ref.power:
        return ref, board  # nothing to fill: no new object (the fast path's usual case)
    return UnitRef(utype, location, power), board


def _fill_dest(ctx: _Ctx, unit: UnitRef, dest: Location) -> Location:
    """A fleet's only reachable coast; two reachable coasts is an error (GM rules II(3)b)."""
    if unit.type is not UnitType.FLEET or dest.coast is not None:
        return dest
    if not ctx.game_map.province(dest.province).coasts:
        return dest
    reach = ctx.game_map.reachable_coasts(unit.location, dest.province)
    if len(reach) == 1:
        return reach[0]
    if len(reach) > 1:
        name = ctx.names.full_name(dest.province, ctx.lang)
        raise OrderSyntaxError(
            ctx.msgs["two_coasts"].format(p=name, opts=_coast_options(ctx, dest.province)),
            ctx.text,
            name,
        )
    return dest  # not adjacent: the adjudicator rules on it


def _complete(
    order: Order,
    ctx: _Ctx,
    position: Position | None,
    power: Power | None,
    *,
    convoy_word: bool = False,
) -> Order:
    kind = position.phase.kind if position is not None else None
    retreat_phase = kind is PhaseKind.RETREAT
    if not isinstance(order, UnitOrder):
        return dataclasses.replace(order, power=power, source=ctx.text)
    if isinstance(order, Build):
        unit = order.unit
        if unit.type is None:
            prov = ctx.game_map.province(unit.province)
            if prov.kind is ProvinceKind.LAND:
                unit = dataclasses.replace(unit, type=UnitType.ARMY)  # GM rules III(1)
            elif unit.location.coast is not None:
                unit = dataclasses.replace(unit, type=UnitType.FLEET)  # GM rules III(1)
            else:
                name = ctx.names.full_name(unit.province, ctx.lang)
                raise OrderSyntaxError(ctx.msgs["build_type"].format(p=name), ctx.text, name)
        if power is None and position is not None:
            power = position.centers.get(unit.province)
        return Build(power, unit=unit, source=ctx.text)
    unit, board = _fill_ref(order.unit, position, ctx.game_map, own=True, retreat=retreat_phase)
    if power is None and board is not None:
        power = board.power
    result: Order
    if isinstance(order, Move):
        if convoy_word and (
            unit.type is UnitType.FLEET
            or ctx.game_map.province(unit.province).kind is ProvinceKind.SEA
        ):
            # "NTH C BEL" is a fleet's convoy order without the convoyed army, not a move.
            raise OrderSyntaxError(ctx.msgs["convoy_dest"], ctx.text)
        dest = _fill_dest(ctx, unit, order.dest)
        if retreat_phase:
            result = Retreat(power, unit=unit, dest=dest, source=ctx.text)
        else:
            result = Move(power, unit=unit, dest=dest, via_convoy=order.via_convoy, source=ctx.text)
    elif isinstance(order, Retreat):
        dest = _fill_dest(ctx, unit, order.dest)
        result = Retreat(power, unit=unit, dest=dest, source=ctx.text)
    elif isinstance(order, SupportHold | SupportMove | Convoy):
        # DATC 4.B.4: the coast of a supported or convoyed move is never filled in.
        target, _ = _fill_ref(order.target, position, ctx.game_map, own=False, retreat=False)
        # Constructors, not dataclasses.replace: this runs for every order (issue 18).
        if isinstance(order, SupportHold):
            result = SupportHold(power, unit=unit, target=target, source=ctx.text)
        elif isinstance(order, SupportMove):
            result = SupportMove(power, unit=unit, target=target, dest=order.dest, source=ctx.text)
        else:
            result = Convoy(power, unit=unit, target=target, dest=order.dest, source=ctx.text)
    elif isinstance(order, Hold):
        result = Hold(power, unit=unit, source=ctx.text)
    else:
        result = dataclasses.replace(order, power=power, unit=unit, source=ctx.text)
    return result


# --- public API --------------------------------------------------------------------------------


def parse_order(
    text: str,
    *,
    lang: str = "en",
    power: Power | None = None,
    position: Position | None = None,
    game_map: GameMap,
) -> Order:
    """One order; `OrderSyntaxError` with a player-facing `.message` if it cannot be read.

    A well-formed order is read by `bot.core.fastparse` (no parse tree); anything it does not
    fully recognise goes to the grammar, which gives the same order or the error.
    """
    return _parse(text, lang, power, position, game_map, fast=True)


def parse_order_grammar(
    text: str,
    *,
    lang: str = "en",
    power: Power | None = None,
    position: Position | None = None,
    game_map: GameMap,
) -> Order:
    """`parse_order` by the grammar alone: what the fast path must equal (tests, bench)."""
    return _parse(text, lang, power, position, game_map, fast=False)


def _parse(
    text: str,
    lang: str,
    power: Power | None,
    position: Position | None,
    game_map: GameMap,
    *,
    fast: bool,
) -> Order:
    lang = _normalise(lang)
    msgs = _messages(lang)
    names = game_map.names()
    gmap = game_map
    source = _clean(text)
    if len(source) > MAX_ORDER_LENGTH:
        raise OrderSyntaxError(msgs["too_long"].format(n=len(source)), source)
    ctx = _Ctx(source, lang, names, gmap, msgs)
    if fast:
        order = _fastparse.fast_order(ctx, position, power)
        if order is not None:
            return order
    raws = _phrases(_lex(_LIST_MARKER_RE.sub("", source), names, msgs, gmap.power_bigrams))
    if not raws:
        raise OrderSyntaxError(msgs["empty"], text)
    try:
        return _read(raws, ctx, position, power)
    except OrderSyntaxError as first:
        # A bare "s" read as "supports" may be a fleet's south coast ("F SPA S - MAO"):
        # read it again as a place word; if that fails too, the first error stands.
        coast_s = frozenset(
            i for i, r in enumerate(raws) if r.kind == "word" and fold_word(r.text) == "s"
        )
        if not coast_s:
            raise
        try:
            return _read(raws, ctx, position, power, plain=coast_s)
        except OrderSyntaxError:
            raise first from None


def _read(
    raws: list[_Raw],
    ctx: _Ctx,
    position: Position | None,
    power: Power | None,
    *,
    plain: frozenset[int] = frozenset(),
) -> Order:
    source, msgs = ctx.text, ctx.msgs
    tree = _feed(source, raws, msgs, ctx.names, ctx.lang, ctx.game_map, plain=plain)
    transformer = _ToOrders(ctx)
    try:
        order: Order = transformer.transform(tree)
    except VisitError as exc:
        if isinstance(exc.orig_exc, OrderSyntaxError):
            raise exc.orig_exc from None
        raise
    except LarkError as exc:  # pragma: no cover - defensive: never show lark's text
        raise OrderSyntaxError(msgs["unexpected"].format(w=source, t=source), source) from exc
    return _complete(
        order, ctx, position, power or transformer.text_power, convoy_word=transformer.convoy_word
    )


_SPLIT_RE = re.compile(r"[;\n]")


def count_orders(text: str) -> int:
    """How many orders `parse_orders` would read in `text` (a power header line counts too):
    cheap next to reading them, so an oversized set can be refused before it is read."""
    return sum(1 for part in _SPLIT_RE.split(text) if _piece(part))


def _piece(part: str) -> str:
    """One part of an order set, cleaned; empty for a blank line or a code fence."""
    piece = _clean(part)
    return "" if _FENCE_RE.match(piece) else piece


def parse_orders(
    text: str,
    *,
    lang: str = "en",
    power: Power | None = None,
    position: Position | None = None,
    game_map: GameMap,
) -> ParseResult:
    """An order set: one order per line or `;`-separated; blank parts are skipped.

    Without `power`, a line naming only a power ("France:", "ENGLAND") gives the orders
    below it to that power, as in a table's whole order sheet.
    """
    orders: list[Order] = []
    errors: list[ParseError] = []
    current = power
    for part in _SPLIT_RE.split(text):
        piece = _piece(part)
        if not piece:
            continue
        header = game_map.power_word(fold_word(piece.rstrip(":").strip()))
        if header is not None and power is None:
            current = header
            continue
        try:
            orders.append(
                parse_order(piece, lang=lang, power=current, position=position, game_map=game_map)
            )
        except OrderSyntaxError as exc:
            errors.append(ParseError(piece, exc.message))
    return ParseResult(orders, errors)


# --- rendering -----------------------------------------------------------------------------------


def render_order(order: Order, lang: str = "en", game_map: GameMap | None = None) -> str:
    """English canonical notation, or French notation with Descartes abbreviations.

    French: `A PAR - BOU`, `A PAR T` (tient), `A PAR S A TOU - BOU`, `F NRD C A LON - BEL`,
    `A LON - BEL PAR CONVOI`, `A PAR R PIC`, `A PAR D`, `F STP/CN B`, `RENONCE`; every one
    of them parses back to the same order with lang="fr". The places are in the nomenclature
    of `game_map`, the game's map (without it, the ids).
    """
    if catalogue.is_default(lang):
        return order.canonical()
    from bot.core.notation import render  # noqa: PLC0415 - the notation imports the outcome

    return render(order, catalogue.normalise(lang), game_map=game_map)


# Last: the fast path reads this module's tables (a circular import, resolved at call time).
from bot.core import fastparse as _fastparse  # noqa: E402
