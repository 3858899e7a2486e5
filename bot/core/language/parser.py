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

Well-formed orders are read first by `bot.core.language.fastread`, without a parse tree and to the
same result or error, each text once per map and language (`bot.core.language.fastparse`; issue 18);
the grammar reads everything else and makes every syntax error.
`parse_order_grammar` is the grammar alone, for the differential test and `bench/parse.py`.
"""

from __future__ import annotations

import re

from lark.exceptions import LarkError, VisitError

from bot.core.language import fastparse as _fastparse
from bot.core.language.lexicon import (
    _FENCE_RE,
    _LIST_MARKER_RE,
    MAX_ORDER_LENGTH,
    OrderSyntaxError,
    ParseError,
    ParseResult,
    _clean,
    _feed,
    _lex,
    _messages,
    _normalise,
    _phrases,
    _Raw,
)
from bot.core.language.transform import _complete, _Ctx, _ToOrders
from bot.core.map import GameMap
from bot.core.model import (
    Location,
    Position,
    Power,
)
from bot.core.names import fold_word
from bot.core.order_text import render_order
from bot.core.orders import (
    Convoy,
    Order,
    SupportMove,
)

# --- public API --------------------------------------------------------------------------------


def parse_order(
    text: str,
    *,
    lang: str = "en",
    power: Power | None = None,
    position: Position | None = None,
    game_map: GameMap,
    coast_hints: dict[tuple[str, str], Location] | None = None,
) -> Order:
    """One order; `OrderSyntaxError` with a player-facing `.message` if it cannot be read.

    An order is read by `bot.core.language.fastread` (no parse tree), each text once per map and
    language (`bot.core.language.fastparse`); what it does not read goes to the grammar, which gives
    the same order or the same error.
    `coast_hints` (`parse_orders(as_set=True)`) name the coast of a move written without one.
    """
    return _parse(text, lang, power, position, game_map, fast=True, hints=coast_hints)


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
    hints: dict[tuple[str, str], Location] | None = None,
) -> Order:
    lang = _normalise(lang)
    msgs = _messages(lang)
    names = game_map.names()
    gmap = game_map
    source = _clean(text)
    if len(source) > MAX_ORDER_LENGTH:
        raise OrderSyntaxError(msgs["too_long"].format(n=len(source)), source)
    if fast and not hints:
        # The fast path, each text read once per map and language (issue 18); it raises the
        # errors of a text it reads whole.
        order = _fastparse.read(source, lang, power, position, gmap)
        if order is not None:
            return order
    ctx = _Ctx(source, lang, names, gmap, msgs, hints=hints or {})
    if fast and hints:  # the coasts of a set read as a whole: no reading held
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
    as_set: bool = False,
) -> ParseResult:
    """An order set: one order per line or `;`-separated; blank parts are skipped.

    Without `power`, a line naming only a power ("France:", "ENGLAND") gives the orders
    below it to that power, as in a table's whole order sheet.

    `as_set` (DATC 4.E.2 b; house III(1) B: "a presumption being made that each player wishes
    to submit a complete set of valid orders"): one order may explain another - a fleet's
    move written without the coast, where two are reachable, takes the coast that the same
    power's support or convoy of that move names (one coast only; else it stays unreadable).
    """
    read: list[tuple[str, Power | None, Order | ParseError]] = []
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
            order = parse_order(
                piece, lang=lang, power=current, position=position, game_map=game_map
            )
            read.append((piece, current, order))
        except OrderSyntaxError as exc:
            read.append((piece, current, ParseError(piece, exc.message)))
    if as_set and any(isinstance(r, ParseError) for _, _, r in read):
        read = [
            (piece, who, _again(piece, who, r, read, lang, position, game_map))
            for piece, who, r in read
        ]
    orders = [r for _, _, r in read if not isinstance(r, ParseError)]
    return ParseResult(orders, [r for _, _, r in read if isinstance(r, ParseError)])


def _again(  # noqa: PLR0917 - one line of parse_orders, read again
    piece: str,
    power: Power | None,
    first: Order | ParseError,
    read: list[tuple[str, Power | None, Order | ParseError]],
    lang: str,
    position: Position | None,
    game_map: GameMap,
) -> Order | ParseError:
    """An unreadable line read again with the coasts its power's other orders name."""
    if not isinstance(first, ParseError):
        return first
    named: dict[tuple[str, str], set[Location]] = {}
    for _, who, other in read:
        if who is power and isinstance(other, SupportMove | Convoy) and other.dest.coast:
            key = (other.target.province, other.dest.province)
            named.setdefault(key, set()).add(other.dest)
    # Two coasts named for one move: the set does not say which.
    hints = {key: next(iter(coasts)) for key, coasts in named.items() if len(coasts) == 1}
    if not hints:
        return first
    try:
        return parse_order(
            piece, lang=lang, power=power, position=position, game_map=game_map, coast_hints=hints
        )
    except OrderSyntaxError:
        return first


# --- rendering -----------------------------------------------------------------------------------


__all__ = [
    "MAX_ORDER_LENGTH",
    "OrderSyntaxError",
    "ParseError",
    "ParseResult",
    "count_orders",
    "parse_order",
    "parse_order_grammar",
    "parse_orders",
    "render_order",
]
