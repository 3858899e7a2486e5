"""When a game ends, by rule set: solo, year limit, stalemate, draws; stabbeurfou removals.

`check_end(history, rules, game_map)` reads the positions at the end of each game year (the
Winter position or the one after the adjustments; a start position may come first as the
baseline of the first year) and says whether the game goes on:

- solo, every rule set: strictly more than half of the centres that exist on the map (18 of
  34, 16 of 31 on Sandard), neutral centres included (stabbeurfou 2(i), edc-2023 C), checked
  after the adjustments;
- the preset's `[end]` table: `years` (the last game year when the clock preset sets none;
  edc-2023 B: "All rounds and all tables will be played in 7 years"), `stalemate_years`
  (stabbeurfou 2(a): "If centre ownership table is the same after three consecutive
  diplomatic years, the game is stopped" - read as three years in a row that change no
  owner), `draw_offer_years` (house IX(2) Alternative A: after 2 game years with no centre
  changing owner the GM may, after a warning, declare a draw of all survivors - a state the
  GM acts on, not an end).

A player stays in the game while controlling a centre or a unit (stabbeurfou 2(b)).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from bot.core.ending.votes import Vote, VoteKind, VoteStatus
from bot.core.map import GameMap
from bot.core.messages import Items, Message, msg
from bot.core.model import DislodgedUnit, Position, Power, Season, Unit
from bot.core.rules import RuleSet
from bot.core.scoring import centers_from_position


class EndgameError(ValueError):
    pass


class EndKind(StrEnum):
    ONGOING = "ongoing"
    SOLO = "solo"
    YEAR_LIMIT = "year limit"
    STALEMATE = "stalemate"
    DRAW_AVAILABLE = "draw may be declared"  # house: the GM may warn, then declare a draw
    DRAW = "draw"  # agreed by vote
    CONCESSION = "concession"  # a win conceded by vote


@dataclass(frozen=True, slots=True)
class EndRules:
    name: str
    solo_centers: int | None = None  # None: strictly more than half of the map's centres
    last_year: int | None = None  # edc2023: the clock preset's last game year
    stalemate_years: int | None = None  # stabbeurfou: years without an owner change -> stop
    draw_offer_years: int | None = None  # house: years without a change -> GM may draw
    expedited_removal: bool = False  # stabbeurfou 3, optional: see expedited_destroyed/removed


def end_rules_for(rules: RuleSet, *, years: int | None = None, first_year: int = 1901) -> EndRules:
    """The end conditions of a rule set, from its `[end]` table and `solo_centers`; `years` is
    the clock preset's game length (it wins over the table's `years`)."""
    end = rules.end
    length = years or end.years or None
    return EndRules(
        rules.name,
        rules.solo_centers,
        last_year=first_year + length - 1 if length else None,
        stalemate_years=end.stalemate_years or None,
        draw_offer_years=end.draw_offer_years or None,
        expedited_removal=rules.expedited_removal,
    )


@dataclass(frozen=True, slots=True)
class EndState:
    kind: EndKind
    year: int | None  # the last game year played
    winner: Power | None = None
    powers: tuple[Power, ...] = ()  # the survivors, or the draw's members
    reason: str = ""
    message: Message | None = None  # `reason`, to show in the game's language

    @property
    def ended(self) -> bool:
        return self.kind not in (EndKind.ONGOING, EndKind.DRAW_AVAILABLE)


def solo_threshold(game_map: GameMap, solo_centers: int | None = None) -> int:
    """The variant file's `solo_centers` (a board property: 18 of 34, Sandard 16 of 31); for
    a variant file that sets none, the rule set's number, else strictly more than half of the
    centres that exist, neutral ones included. (The presets' fixed 18 is written for the
    34-centre board.)"""
    if game_map.solo_centers is not None:
        return game_map.solo_centers
    if solo_centers is not None:
        return solo_centers
    return game_map.solo_threshold


def survivors(position: Position) -> tuple[Power, ...]:
    """stabbeurfou 2(b): "A player is still part of a game as long as he controls a centre
    and/or a unit" (a dislodged unit too)."""
    return tuple(position.powers())


def game_year(position: Position) -> int:
    """The game year a year-end position closes: Winter Y, or Spring Y+1 after adjustments."""
    if position.phase.season is Season.WINTER:
        return position.phase.year
    if position.phase.season is Season.SPRING:
        return position.phase.year - 1
    raise EndgameError(f"{position.phase} is not the end of a game year")


def _unchanged_years(history: Sequence[Position]) -> int:
    """How many of the last game years left the centre ownership table as it was."""
    n = 0
    for before, after in zip(reversed(history[:-1]), reversed(history[1:]), strict=True):
        if dict(before.centers) != dict(after.centers):
            break
        n += 1
    return n


def check_end(history: Sequence[Position], rules: EndRules, game_map: GameMap) -> EndState:
    if not history:
        raise EndgameError("no position to judge")
    last = history[-1]
    year = game_year(last)
    alive = survivors(last)
    threshold = solo_threshold(game_map, rules.solo_centers)
    total = len(game_map.supply_centers)
    for power, n in sorted(centers_from_position(last).items()):
        if n >= threshold:
            return _end(
                EndKind.SOLO,
                year,
                winner=power,
                powers=(power,),
                why=msg("end.solo", power=power, n=n, total=total, threshold=threshold),
            )
    if rules.last_year is not None and year >= rules.last_year:
        return _end(
            EndKind.YEAR_LIMIT,
            year,
            powers=alive,
            why=msg("end.last_year", year=rules.last_year),
        )
    still = _unchanged_years(history)
    if rules.stalemate_years is not None and still >= rules.stalemate_years:
        return _end(
            EndKind.STALEMATE,
            year,
            powers=alive,
            why=msg("end.stalemate", years=still),
        )
    if rules.draw_offer_years is not None and still >= rules.draw_offer_years:
        return _end(
            EndKind.DRAW_AVAILABLE,
            year,
            powers=alive,
            why=msg("end.draw_available", years=still),
        )
    return _end(EndKind.ONGOING, year, powers=alive, why=msg("end.ongoing"))


def _end(
    kind: EndKind,
    year: int | None,
    *,
    why: Message,
    winner: Power | None = None,
    powers: tuple[Power, ...] = (),
) -> EndState:
    """An EndState whose `reason` is the English text of `why` (as before)."""
    return EndState(kind, year, winner, powers, str(why), why)


def declare_draw(
    history: Sequence[Position], rules: EndRules, game_map: GameMap, *, warned: bool
) -> EndState:
    """The GM declares the draw of all survivors that house-rules IX(2) Alternative A allows:
    only when no centre changed owner for the years required, and after a warning."""
    state = check_end(history, rules, game_map)
    if state.kind is not EndKind.DRAW_AVAILABLE:
        raise EndgameError(f"no draw may be declared now: {state.reason}")
    if not warned:
        raise EndgameError("warn the players first (house-rules IX(2): 'after a warning')")
    names = Items(state.powers)
    return _end(EndKind.DRAW, state.year, powers=state.powers, why=msg("end.gm_draw", names=names))


def end_by_vote(vote: Vote, year: int | None) -> EndState:
    """The end a passed vote decides: a draw of its members (the others are eliminated,
    house-rules IX(2)) or a conceded win."""
    if vote.status is not VoteStatus.PASSED:
        raise EndgameError(f"vote #{vote.id} did not pass")
    names = Items(vote.powers)
    if vote.kind is VoteKind.CONCEDE:
        return _end(
            EndKind.CONCESSION,
            year,
            winner=vote.powers[0],
            powers=vote.powers,
            why=msg("end.conceded", names=names),
        )
    return _end(EndKind.DRAW, year, powers=vote.powers, why=msg("end.draw_voted", names=names))


# --- stabbeurfou section 3: expedited removal of players ----------------------------------


def expedited_destroyed(position: Position, game_map: GameMap) -> tuple[DislodgedUnit, ...]:
    """stabbeurfou 3(a): after the Fall moves, the dislodged units destroyed at once.

    `position` is the Fall retreat position (its dislodged units carry their retreat
    options). A player's dislodged units are destroyed when the player occupies no centre,
    every centre it owns is occupied, none of its units may retreat onto a centre, and none
    may retreat to a region another player's retreat could also reach (no collision).
    """
    centres = game_map.supply_centers
    occupied = set(position.units)
    out: list[DislodgedUnit] = []
    for power in sorted({d.unit.power for d in position.dislodged}):
        mine = [d for d in position.dislodged if d.unit.power is power]
        if any(u.province in centres for u in position.units_of(power)):
            continue
        if any(c not in occupied for c in position.centers_of(power)):
            continue
        options = set().union(*(d.retreats for d in mine))
        if options & centres:
            continue
        others = set().union(*(d.retreats for d in position.dislodged if d.unit.power is not power))
        if options & others:
            continue
        out.extend(mine)
    return tuple(out)


def expedited_removed(position: Position) -> tuple[Unit, ...]:
    """stabbeurfou 3(b): after the Fall retreats, the units of players owning no centre
    (`position` has the centre table updated after the Fall)."""
    owners = set(position.centers.values())
    return tuple(
        sorted(
            (u for u in position.units.values() if u.power not in owners),
            key=lambda u: (u.power.value, u.province),
        )
    )


def centre_counts_by_year(history: Sequence[Position]) -> list[tuple[int, Mapping[Power, int]]]:
    """(year, centres per power) for each year-end position: the chart's and report's data."""
    return [(game_year(p), centers_from_position(p)) for p in history]
