"""Print docs/rules.md: the rule presets x issues table, generated from data/rules/*.toml.

    python3 tools/rules_table.py > docs/rules.md

tests/tools/test_rules_table.py checks that the committed file equals this output.
"""

from __future__ import annotations

import re
import sys
from enum import Enum

from bot.core.presets import list_presets, load_rules, rules_dir
from bot.core.rules import RuleSet

# field -> (DATC issue or seed, what it decides)
ISSUES: dict[str, tuple[str, str]] = {
    "multi_route": ("4.A.1", "multi-route convoy disruption (a: any route, b: all routes)"),
    "convoy_paradox": ("4.A.2", "paradox rule (a 1971, b 1982, c 2000, d all hold, f Szykman)"),
    "adjacent_convoy": ("4.A.3", "convoy to an adjacent province (a 1971, b 1982, c 2000/2023)"),
    "convoyed_attack_cuts_support_on_itself": ("4.A.4", "convoyed attack cuts support on itself"),
    "retreat_to_convoyed_attacker_origin": ("4.A.5", "retreat to a convoyed attacker's origin"),
    "dislodged_bounces_convoyed_attacker_origin": ("4.A.7", "dislodged unit bounces a third unit"),
    "default_single_coast": ("4.B.2", "missing coast, one reachable: move there"),
    "unreachable_coast_illegal": ("4.B.3", "unreachable coast makes the move illegal"),
    "support_requires_coast": ("4.B.4", "support of a fleet move must name the coast"),
    "support_coast_mismatch_ignored": ("4.B.4", "support naming another coast is still valid"),
    "wrong_unit_coast_ignored": ("4.B.5", "wrong coast of the ordered unit is ignored"),
    "irrelevant_coast_ignored": ("4.B.6", "unknown or irrelevant coast is ignored"),
    "xxx_hold_accepted": ("seed", "`A PAR XXX` is a hold (no: refused at entry)"),
    "army_build_with_coast_fails": ("4.B.6", "an army build naming a coast builds nothing"),
    "missing_unit_type": ("4.C.1", "missing unit type (a: invalid, b: valid, c: valid unless)"),
    "unit_type_required": ("4.C.1", "the ordered unit's type is mandatory"),
    "wrong_unit_type": ("4.C.2", "wrong unit type (a: invalid, b: ignored, c: valid unless)"),
    "missing_build_type": ("4.C.3", "missing type in a build (a, b, c)"),
    "fleet_build_inland_makes_army": ("4.C.4", "a fleet built inland becomes an army"),
    "missing_nationality": ("4.C.5", "missing nationality (a: invalid, b: valid, c)"),
    "wrong_nationality": ("4.C.6", "wrong nationality (a: invalid, b: ignored, c)"),
    "order_sets": ("4.D.1", "several order sets (a combine ... d latest only)"),
    "duplicate_orders": ("4.D.3", "several orders to one unit (a first, b last, c hold)"),
    "duplicates_count_illegal_orders": ("4.D.3", "illegal orders count as duplicates"),
    "too_many_builds": ("4.D.4", "too many builds (a none, b first, c last)"),
    "two_builds_same_province": ("4.D.5", "two builds in one province (a none, b first, c last)"),
    "too_many_disbands": ("4.D.6", "too many disbands (a civil disorder, b first, c last)"),
    "builds_read_bottom_to_top": ("4.D.4", "adjustment orders read bottom to top"),
    "waive_allowed": ("4.D.7", "builds may be waived"),
    "civil_disorder": ("4.D.8", "civil-disorder removal rule"),
    "hold_support_for_civil_disorder": ("4.D.9", "hold support to a unit in civil disorder"),
    "illegal_move_receives_hold_support": ("4.E.1", "a unit with an illegal move can be supported"),
    "poorly_written_orders": ("4.E.2", "poorly written orders (a: each alone, b: as a set)"),
    "implicit_orders": ("4.E.3", "inferred (implicit) orders"),
    "proxy_orders": ("4.E.5", "proxy orders (a notice, b in the set, c no)"),
    "reject_inaccurate_order_sets": ("seed", "refuse a whole set with an extra/inaccurate order"),
    "first_year_imposed_builds": ("seed", "builds the referee imposes in the first year"),
    "late_orders_accepted": ("seed", "orders accepted after the deadline"),
    "contingent_orders": ("seed", "a set labelled for a later retreat/adjustment phase is kept"),
    "unreadable_orders": ("seed", "an unreadable line: refuse-set, or void-line (keep the rest)"),
    "expedited_removal": ("seed", "expedited removal of powers with no centre"),
    "hidden_movement": ("seed", "Stab!: placement, reports instead of public results"),
    "non_dias_draws": ("seed", "draws may leave out survivors"),
    "solo_centers": ("seed", "centres for a solo win"),
    "votes.draws": ("[votes]", "a draw may be proposed"),
    "votes.concessions": ("[votes]", "a win may be conceded to one player"),
    "votes.once_per_player": ("[votes]", "each player may propose only once per game"),
    "votes.one_per_season": ("[votes]", "one proposal per season (Spring / Fall)"),
    "votes.closed_in_fall_adjudication": (
        "[votes]",
        "no vote from Fall orders read to adjustments",
    ),
    "votes.closed_in_last_year": ("[votes]", "no vote in the last year"),
    "votes.opposition_ends_at_once": ("[votes]", "one 'no' ends the vote at once"),
    "votes.abstentions": ("[votes]", "a player may abstain"),
    "votes.revisable": ("[votes]", "a ballot may be changed until the deadline"),
    "votes.publish_counts": ("[votes]", "the counts are published (never the voters)"),
    "votes.concede_target_votes_yes": ("[votes]", "the player a win is conceded to votes yes"),
    "votes.gm_may_refuse": ("[votes]", "the GM may refuse a repetitive proposal"),
    "end.years": ("[end]", "game years when the clock sets none (0: no limit)"),
    "end.stalemate_years": ("[end]", "years of unchanged centres that stop the game (0: never)"),
    "end.draw_offer_years": ("[end]", "such years after which the GM may declare a draw"),
    "scoring.system": ("[scoring]", "the scoring system of the final standings"),
}
_ORDER = {f: i for i, f in enumerate(ISSUES)}
# The civil-disorder rules (bot/core/adjudicator/civil_disorder.py), for the legend under the table.
CIVIL_DISORDER = {
    "2023": "DATC 4.D.8 (2023 rulebook): to the nearest owned centre, armies and fleets over land"
    " and sea; ties: fleets first, then English province name",
    "world-masters": "gm-order-correction-rules III(4): to a home centre, an army as if it could"
    " cross water, a fleet by legal moves; ties: fleets first, then the 3-letter abbreviation",
    "edc-renegade-2023": "edc-2023 E: as 2023, ties by the number in the section G list",
    "house": "house-rules V(4) C: to a home centre by the shortest legal route, a convoy through"
    " fleet-held seas counting as one move; ties: fleets first, then province name",
    "pre-2023": "older rulebooks' common practice: to a home centre, fleets by legal moves,"
    " armies also across water; ties: fleets first, then English province name",
    "home-any-terrain": "Stabbeurfou 4.D.8 'e' (DATC 2.x e): to a home centre, armies and fleets"
    " over land and sea; ties: fleets first, then English province name",
}
# Where a seed is open to two readings: the one Parley takes, with the line it rests on.
READINGS: list[str] = [
    "4.A.6 convoy paths: no key. A path is not part of Parley's order syntax, so an order"
    " giving one is unreadable; every seed chooses a (stabbeurfou '4.A.6 a a', house VI(3)"
    " Alternative B).",
    "4.D.2 sets in an unknown order and 4.E.4 perpetual orders: no key. The table service"
    " always knows which set came last; every seed erases orders after each adjudication"
    " (stabbeurfou 4.E.4: 'Orders are erased after every adjudication').",
    "`order_sets` (4.D.1): a (stabbeurfou 'SF a') adds each new set to the standing one (the"
    " adjudicator's duplicate rule then decides; the refusal at entry checks each set as sent);"
    " b and c replace it unless the player asks to add (`/orders submit` with merge: by unit);"
    " d (house III(4) Alternative A) replaces it, and a set asking to be added is refused with"
    " a message rather than silently dropping the standing orders.",
    "`late_orders_accepted` (house VII(3) Alternative B, 'accepted until the start of"
    " adjudication'): a set is taken while the phase is still open after its deadline, until"
    " the clock starts the adjudication; then it is refused as late.",
    '`unreadable_orders = "void-line"` (edc-2023 E, \'an unambiguous order must be applied'
    " and an order deemed ambiguous not applied'): the readable orders are saved and the player"
    " is told which lines are void; a set with no readable line is refused.",
    "`first_year_imposed_builds` (edc-2023 E, 'the referee will impose up to two builds - no"
    " third build'): in the map's first year, builds written (or waived) count towards the"
    " two; each imposed build goes to a free home centre in province order: an army inland or"
    " on a two-coast centre, otherwise a fleet while the power has fewer fleets than armies"
    " ('to maintain a balance'), else an army.",
    "`expedited_removal` (stabbeurfou 3): (a) at the Fall moves; (b) 'at autumn retreat"
    " adjudication', or at the end of the Fall moves when the Fall has no retreat phase (the"
    " skipped step is that adjudication). Never in the Spring.",
    "`irrelevant_coast_ignored = false` (stabbeurfou 4.B.6, 'rejects any coast specification"
    " if none is requested'): the reading keeps a coast written for a province that has none"
    " (`A PAR - BUR/NC`, `F BRE/NC - MAO`) on the order, and the whole set is refused at"
    " entry with a message, as the preset's other refusals; other presets ignore the coast.",
    "`contingent_orders` (house II(5) C, 'You can submit retreat/adjustment orders early; at"
    " the deadline, I use the last submitted orders'): a set whose label (house II(2) `SED"
    " 01WF`, or `F1901R`) names a later retreat or adjustment phase is kept as written; when"
    " that phase opens the last such set of each power is read against the board then and"
    " becomes the power's orders if it is still valid (else it stays on record); the player is"
    " told either way. Label W is the Fall retreats and the adjustments: the Fall retreat"
    " phase takes its retreats, the Winter its builds, removals and waives. Without the key a"
    " set labelled for another phase is refused (house II(2)). Such a set, read when its"
    " phase opened, does not block a GM rollback of the adjudication before it (EDC E 'if the"
    " following orders have already been issued': it was written before the adjudication);"
    " rolled back, it waits again and is read again when its phase opens again.",
    "`poorly_written_orders = b` (house III(1) Alternative B, 'a presumption being made that"
    " each player wishes to submit a complete set of valid orders'; DATC 4.E.2 b, judge the"
    " orders as a set): one order explains another of the same power - a fleet's move written"
    " without the coast where two are reachable (`F MAO - SPA`) takes the coast that the"
    " power's own support or convoy of that move names (`F POR S F MAO - SPA/NC`); if the"
    " set names both coasts, or none, the line stays unreadable. a (every other preset):"
    " each order by itself, as before. The seed shows only Alternative B of III(1).",
    "Clock `retreats_with_adjustments` (edc-2023 B, 'Winter (retirement & adjustments):"
    " writing 1''; '30 minutes per year'): the Fall retreat window also takes the adjustment"
    " orders (builds, waives, and removals of units not dislodged, kept as contingent orders);"
    " at its end the retreats are adjudicated, then the adjustments at once. A new set in"
    " that window replaces the kept adjustment orders only when it has some (a set of"
    " retreats alone leaves them; `WAIVE` sent again cancels builds). Without Fall"
    " retreats the [winter_adjustment] window is used. The house clock does the same (II(5)"
    " C: 'WINTER (W) = a separate order phase for post-fall retreats combined with"
    " adjustments'). The edc2023 clock: 8+1+4, 1, 8+1+6, 1"
    " = 30 minutes. Its press is open in the negotiation only: section B lists the"
    " negotiation before the writing, and E forbids talk while orders are read.",
    "`end.stalemate_years` (stabbeurfou 2(a), 'the same after three consecutive diplomatic"
    " years'): three game years in a row that change no centre's owner.",
    '`xxx_hold_accepted` (stabbeurfou 2(h), \'The sequence "XXX" is refused by the'
    " system'): the whole set is refused at entry, as the preset's other refusals.",
    "gm-order-correction-rules I(5) ('In the event that a unit is ordered more than once, the"
    " last order reading from top to bottom (left to right) of the order set will be used')"
    " when that last order is illegal: world-masters reads it literally, with I(3) ('Any unit"
    " adjudged by the GM to have been ordered illegally will be presumed to have been ordered"
    " to hold'): the last order is the one used and, being illegal, the unit holds"
    " (`duplicates_count_illegal_orders = true`). The other reading, an illegal order"
    " disregarded and the last legal one used, is `duplicates_count_illegal_orders = false`.",
    "house VI(6) C (a paradox re-resolved at half strength) is not implemented: the seed does"
    " not say how strengths are halved for supports and convoys alike, and house I(2) makes the"
    " 1982 rules decide first (`convoy_paradox = b`), which resolves every DATC paradox case.",
    "`scoring.system = draw-size` for house (IX(1)-(2)): the standings are the result the vote"
    " decided: a conceded win scores the winner alone, a draw shares among its members only"
    " ('A draw that does not include all survivors presumes the elimination of the players"
    " not included').",
    "`votes.gm_may_refuse = false` for edc2023: the seed gives each player one End Game"
    " Request as a right (E: 'Each person can request a vote ... only once per game').",
]
_COMMENT = re.compile(r"^(\w+)\s*=\s*(.+?)\s+#\s*(.*)$")
_TABLE = re.compile(r"^\[(\w+)\]")


def cell(value: object) -> str:
    if value is None:
        return "majority"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Enum):
        return str(value.value)
    return str(value)


def comments(name: str) -> dict[str, str]:
    out: dict[str, str] = {}
    table = ""
    for line in (rules_dir() / f"{name}.toml").read_text(encoding="utf-8").splitlines():
        t = _TABLE.match(line)
        if t:
            table = t.group(1) + "."
        m = _COMMENT.match(line)
        if m:
            out[table + m.group(1)] = m.group(3).replace("|", "\\|")
    return out


def render() -> str:
    names = list_presets()
    rules = {n: load_rules(n) for n in names}
    fields = sorted(RuleSet.option_names(), key=lambda f: (_ORDER.get(f, len(_ORDER)), f))
    lines = [
        "# Rule presets",
        "",
        "Generated by `python3 tools/rules_table.py > docs/rules.md` from `data/rules/*.toml`;",
        "do not edit by hand (a test compares this file with the generator's output).",
        "Choose a preset with `parley adjudicate --rules NAME`. Letters are the DATC v3.0 ones",
        "(`../shared/datc/OPTIONS.md`); `datc` is the default.",
        "",
        "| issue | field | what it decides | " + " | ".join(names) + " |",
        "|---|---|---|" + "---|" * len(names),
    ]
    for f in fields:
        issue, what = ISSUES.get(f, ("?", ""))
        row = [issue, f"`{f}`", what, *(cell(rules[n].option(f)) for n in names)]
        lines.append("| " + " | ".join(row) + " |")
    lines += ["", "Civil-disorder rules (`civil_disorder`):", ""]
    lines += [f"- `{k}`: {v}" for k, v in CIVIL_DISORDER.items()]
    lines += [
        "",
        "## Readings",
        "",
        "Where a seed is open to two readings, the one Parley takes:",
        "",
    ]
    lines += [f"- {r}" for r in READINGS]
    for n in names:
        lines += ["", f"## `{n}`: where each choice comes from", ""]
        notes = comments(n)
        lines += [f"- `{f}` = {cell(rules[n].option(f))}: {notes.get(f, '')}" for f in fields]
    return "\n".join(lines) + "\n"


def main() -> int:
    sys.stdout.write(render())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
