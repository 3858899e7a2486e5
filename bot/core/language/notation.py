"""Results notation for the table (stabbeurfou section 4), in English and French.

stabbeurfou 4(a): "Instead of being underlined, unsuccessful orders are changed to lower
case" - the order's word is written in lower case (`s`, `c`, `r`) when a valid order did not
succeed; 4(b) the annotations after `;`:

    A PAR s A BUR; (cut)                   the support was cut
    F ENG c A LON - BEL                    the convoy was broken
    A PAR H; (destroyed)                   dislodged with no retreat
    A PAR H; (dislodged)                   dislodged
    A PAR S A BUR; (invalid) [A BUR - MUN] the support matched no order; the order given
    A PAR - BUR; (failed)                  the move did not take place
    A PAR S A BUR; (paradox)               failed by the convoy-paradox rule
    A PAR - BUR                            the move took place
    A PAR r BUR; (failed)                  the retreat failed (collision)
    A PAR R BUR                            the retreat took place

As in the seed's table, a hold stays `H` when its unit is dislodged (the annotation says it),
and an order shown `(invalid)` or `(paradox)` keeps its word in upper case. French uses the
Descartes abbreviations and `T` (tient) for a hold; `(coupé)`, `(délogé)`, `(détruit)`,
`(invalide)`, `(échec)`, `(paradoxe)`. An order's text is the parser's
(`bot.core.language.parser.render_order`, checked by the tests), so what the table reads parses
back.
"""

from __future__ import annotations

from bot.core.catalogue import meta, normalise
from bot.core.map import GameMap
from bot.core.model import Power
from bot.core.order_text import render, words
from bot.core.orders import (
    Build,
    Convoy,
    Disband,
    Move,
    Retreat,
    SupportHold,
    SupportMove,
    UnitOrder,
    Waive,
)
from bot.core.outcome import OrderResult, Outcome, Reason, describe


def _matched_order(
    result: OrderResult, outcome: Outcome | None, lang: str, game_map: GameMap | None
) -> str:
    """For a void support or convoy: the order its target unit was really given."""
    order = result.order
    if outcome is None or not isinstance(order, (SupportHold, SupportMove, Convoy)):
        return ""
    for other in outcome.results:
        o = other.order
        if isinstance(o, UnitOrder) and o.unit.province == order.target.province:
            return render(o, lang, game_map=game_map)
    return ""


def _in_paradox(result: OrderResult, outcome: Outcome | None) -> bool:
    """Stabbeurfou 4: 'A PAR S BUR; (paradox)': the support for or against a convoying fleet
    that is the target of a convoyed attack that may lead to a paradox. The adjudicator marks
    the convoyed move (Reason.PARADOX); the note goes on the supports it attacked."""
    order = result.order
    if outcome is None or not isinstance(order, SupportHold | SupportMove):
        return False
    here = order.unit.province
    touched = {order.target.province}
    if isinstance(order, SupportMove):
        touched.add(order.dest.province)
    for r in outcome.results:
        move = r.order
        if not (
            isinstance(move, Move) and r.reason is Reason.PARADOX and move.dest.province == here
        ):
            continue
        army = move.unit.province
        fleets = {
            c.order.unit.province
            for c in outcome.results
            if isinstance(c.order, Convoy) and c.order.target.province == army
        }
        if touched & fleets:
            return True
    return False


def result_line(
    result: OrderResult,
    outcome: Outcome | None = None,
    lang: str = "en",
    game_map: GameMap | None = None,
) -> str:
    """One order with its result, e.g. `A PAR s A BUR; (cut)`, in the nomenclature of
    `game_map` (the game's map; without it, the ids)."""
    w = words(normalise(lang))
    order = result.order
    reason = result.reason
    notes: list[str] = []
    lower = False
    bracket = ""
    if not result.succeeded:
        if reason in (Reason.VOID, Reason.ILLEGAL):
            notes.append(w.invalid)
            bracket = _matched_order(result, outcome, lang, game_map) or describe(
                result, lang, game_map
            )
        elif reason is Reason.PARADOX and isinstance(order, Convoy):
            lower = True  # stabbeurfou 4: the note goes on the support, not the convoy
        elif isinstance(order, (Move, Retreat, Build, Disband, Waive)):
            lower = not isinstance(order, Move)  # a dash has no case
            notes.append(w.failed)
        elif isinstance(order, (SupportHold, SupportMove)):
            lower = True
            if reason is Reason.CUT:
                notes.append(w.cut)
        elif isinstance(order, Convoy):
            lower = True  # "F ENG c LON - BEL: the convoy was broken"
    if _in_paradox(result, outcome):
        notes.append(w.paradox)
    # The unit's fate after the movement phase (dislodged, or destroyed with no retreat).
    if outcome is not None and isinstance(order, UnitOrder) and not isinstance(order, Retreat):
        for d in outcome.dislodged:
            if d.unit.province == order.unit.province:
                # stabbeurfou 3(a): destroyed at once though it had somewhere to go
                gone = not d.retreats or d.unit in outcome.removed
                notes.append(w.destroyed if gone else w.dislodged)
                break
    text = render(order, lang, lower=lower, game_map=game_map)
    if notes:
        text += "; " + " ".join(f"({n})" for n in notes)
    if bracket:
        text += f" [{bracket}]"
    return text


def notation_lines(outcome: Outcome, lang: str, game_map: GameMap) -> list[str]:
    """The results of a phase: a heading per power (in the variant's order), then its orders
    in the given order."""
    lines: list[str] = []
    by_power: dict[Power | None, list[OrderResult]] = {}
    for r in outcome.results:
        by_power.setdefault(r.power, []).append(r)
    colon = meta(lang).colon + ":"
    extra = sorted(p for p in by_power if p is not None and p not in game_map.powers)
    for power in [*game_map.powers, *extra, None]:
        results = by_power.get(power)
        if not results:
            continue
        name = game_map.power_name(power, lang) if power is not None else "?"
        lines.append(f"{name}{colon}")
        lines.extend(result_line(r, outcome, lang, game_map) for r in results)
    return lines
