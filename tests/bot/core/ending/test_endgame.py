"""End conditions by rule set, citing the seeds."""

from __future__ import annotations

import pytest

from bot.core.ending.endgame import (
    EndgameError,
    EndKind,
    check_end,
    declare_draw,
    end_by_vote,
    end_rules_for,
    expedited_destroyed,
    expedited_removed,
    game_year,
    solo_threshold,
    survivors,
)
from bot.core.ending.votes import Ballot, Moment, VoteBook, VoteKind, policy_for_rules
from bot.core.map import load_map
from bot.core.model import DislodgedUnit, Location, Phase, Position, Power, Unit, UnitType
from bot.core.presets import load_rules

A, E, F, G, I, R, T = (
    Power.AUSTRIA,
    Power.ENGLAND,
    Power.FRANCE,
    Power.GERMANY,
    Power.ITALY,
    Power.RUSSIA,
    Power.TURKEY,
)
STD = load_map("standard")
CENTRES = sorted(STD.supply_centers)


def year_end(year: int, counts: dict[Power, int], *, units: tuple[Unit, ...] = ()) -> Position:
    """A Winter position where each power owns `counts[p]` centres (taken in id order)."""
    it = iter(CENTRES)
    centers = {next(it): p for p, n in counts.items() for _ in range(n)}
    return Position.build(Phase.parse(f"W{year}A"), units, centers)


EVEN = {A: 4, E: 4, F: 4, G: 4, I: 4, R: 4, T: 4}


def test_solo_is_strictly_more_than_half_of_existing_centres() -> None:
    # stabbeurfou 2(i): "if a centre is always neutral, it is not enough to have 33/2 + 1 =
    # 17 centres ... The rule requires the possession of at least 18 centres"
    rules = end_rules_for(load_rules("datc"))
    assert solo_threshold(STD) == 18
    state = check_end([year_end(1910, {A: 17, E: 16})], rules, STD)  # 1 neutral centre
    assert state.kind is EndKind.ONGOING
    state = check_end([year_end(1910, {A: 18, E: 15})], rules, STD)
    assert state.kind is EndKind.SOLO
    assert state.winner is A
    assert state.ended
    assert "18 of the 34" in state.reason


def test_sandard_solo_is_16_of_31() -> None:
    # edc-2023 C: solo = "strictly more than half of the centers"; Sandard has 31.
    assert solo_threshold(load_map("sandard")) == 16


def test_edc_ends_after_the_last_game_year() -> None:
    # edc-2023 B: "All rounds and all tables will be played in 7 years" (1901-1907).
    rules = end_rules_for(load_rules("edc2023"))
    assert rules.last_year == 1907
    assert check_end([year_end(1906, EVEN)], rules, STD).kind is EndKind.ONGOING
    state = check_end([year_end(1907, EVEN)], rules, STD)
    assert state.kind is EndKind.YEAR_LIMIT
    assert state.powers == (A, E, F, G, I, R, T)
    assert end_rules_for(load_rules("edc2023"), years=5).last_year == 1905
    # A solo in the last year is a solo, not a year limit.
    assert check_end([year_end(1907, {A: 18})], rules, STD).kind is EndKind.SOLO


def test_position_after_adjustments_counts_for_the_year_before() -> None:
    # "checked after the adjustments": the Spring position that follows closes the year.
    spring = Position.build(Phase.parse("S1908M"), (), year_end(1907, EVEN).centers)
    assert game_year(spring) == 1907
    assert check_end([spring], end_rules_for(load_rules("edc2023")), STD).kind is EndKind.YEAR_LIMIT
    with pytest.raises(EndgameError, match="not the end"):
        game_year(Position.build(Phase.parse("F1907M"), ()))


def test_stabbeurfou_stops_after_three_years_without_change() -> None:
    # stabbeurfou 2(a): "If centre ownership table is the same after three consecutive
    # diplomatic years, the game is stopped."
    rules = end_rules_for(load_rules("stabbeurfou"))
    moved = year_end(1904, {A: 5, E: 3, F: 4, G: 4, I: 4, R: 4, T: 4})
    same = [year_end(y, EVEN) for y in (1905, 1906, 1907, 1908)]
    assert check_end([moved, *same[:3]], rules, STD).kind is EndKind.ONGOING  # 2 years
    state = check_end([moved, *same], rules, STD)
    assert state.kind is EndKind.STALEMATE
    assert "3 years" in state.reason


def test_stabbeurfou_table_is_ownership_not_counts() -> None:
    # Two centres swapping owners change the table though the counts stay equal.
    rules = end_rules_for(load_rules("stabbeurfou"))
    base = year_end(1905, {A: 1, E: 1})
    swapped = Position.build(Phase.parse("W1906A"), (), {CENTRES[0]: E, CENTRES[1]: A})
    history = [
        base,
        swapped,
        *(Position.build(Phase.parse(f"W{y}A"), (), swapped.centers) for y in (1907, 1908)),
    ]
    assert check_end(history, rules, STD).kind is EndKind.ONGOING


def test_a_player_with_a_unit_but_no_centre_is_still_in() -> None:
    # stabbeurfou 2(b): "A player is still part of a game as long as he controls a centre
    # and/or a unit."
    unit = Unit(T, UnitType.FLEET, Location("BLA"))
    pos = year_end(1905, {A: 4}, units=(unit,))
    assert survivors(pos) == (A, T)


def test_house_gm_may_declare_a_draw_after_two_years_without_change() -> None:
    # house-rules IX(2) Alternative A: "If, after a period of [2] game years, no Supply
    # Centers have changed ownership, the GM reserves the right, after a warning is given,
    # to declare a draw including all survivors"
    rules = end_rules_for(load_rules("house"))
    moved = year_end(1904, {A: 5, E: 3, F: 4, G: 4, I: 4, R: 4, T: 4})
    one = [moved, year_end(1905, EVEN)]
    assert check_end(one, rules, STD).kind is EndKind.ONGOING
    assert check_end([*one, year_end(1906, EVEN)], rules, STD).kind is EndKind.ONGOING
    state = check_end([*one, year_end(1906, EVEN), year_end(1907, EVEN)], rules, STD)
    assert state.kind is EndKind.DRAW_AVAILABLE
    assert not state.ended  # the GM decides, after a warning
    assert "warning" in state.reason
    assert state.powers == (A, E, F, G, I, R, T)


def test_passed_vote_ends_the_game() -> None:
    # house-rules IX(2): "A draw that does not include all survivors presumes the
    # elimination of the players not included in the draw."
    moment = Moment(Phase.parse("S1905M"))
    book, vote = VoteBook(policy_for_rules(load_rules("house"))).propose(
        A, VoteKind.DRAW, moment=moment, survivors=[A, F, G], powers=[F, G]
    )
    for p in (A, F, G):
        book, vote = book.cast(vote.id, p, Ballot.YES, moment=moment)
    with pytest.raises(EndgameError, match="did not pass"):
        end_by_vote(vote, 1904)
    book, closed = book.close_due(moment.phase)
    assert closed is not None
    state = end_by_vote(closed, 1904)
    assert state.kind is EndKind.DRAW
    assert state.powers == (F, G)


def _unit(power: Power, kind: str, prov: str) -> Unit:
    return Unit(power, UnitType(kind), Location(prov))


def test_expedited_destruction_at_fall_moves() -> None:
    # stabbeurfou 3(a): dislodged units of a player that occupies no centre, has all its
    # centres occupied, may not retreat on a centre and may not collide with another
    # player's retreat, are destroyed at once.
    turk = _unit(T, "A", "ARM")
    centers = {"ANK": T, "SMY": R, "CON": R}
    units = [_unit(R, "A", "ANK"), _unit(R, "A", "ARM"), _unit(R, "F", "BLA")]
    d = DislodgedUnit(turk, "SEV", frozenset({"SYR"}))
    pos = Position.build(Phase.parse("F1905R"), units, centers, [d])
    assert expedited_destroyed(pos, STD) == (d,)
    # May retreat onto a centre: it waits for its order.
    d2 = DislodgedUnit(turk, "SEV", frozenset({"SYR", "SMY"}))
    pos2 = Position.build(Phase.parse("F1905R"), units, centers, [d2])
    assert expedited_destroyed(pos2, STD) == ()
    # Its retreat could collide with another player's: it waits.
    other = DislodgedUnit(_unit(A, "F", "EAS"), "ION", frozenset({"SYR"}))
    pos3 = Position.build(Phase.parse("F1905R"), units, centers, [d, other])
    assert d not in expedited_destroyed(pos3, STD)
    # One of its centres is free: it waits.
    pos4 = Position.build(Phase.parse("F1905R"), units[1:], centers, [d])
    assert expedited_destroyed(pos4, STD) == ()


def test_expedited_removal_at_fall_retreats() -> None:
    # stabbeurfou 3(b): at the Fall retreat adjudication, units of a player that owns no
    # centre are removed.
    units = [_unit(T, "F", "BLA"), _unit(R, "A", "ANK")]
    pos = Position.build(Phase.parse("W1905A"), units, {"ANK": R})
    assert expedited_removed(pos) == (units[0],)


def test_end_rules_from_presets() -> None:
    # house-rules IX(1): "until a player wins by reaching eighteen Supply Centers".
    house = end_rules_for(load_rules("house"))
    assert house.solo_centers == 18
    assert house.draw_offer_years == 2
    # The clock preset gives the years (data/clocks/edc2023.toml: years = 7).
    assert end_rules_for(load_rules("edc2023"), years=7).last_year == 1907
    assert end_rules_for(load_rules("stabbeurfou")).stalemate_years == 3


def test_house_gm_declares_the_draw_only_after_a_warning() -> None:
    # house-rules IX(2) Alternative A: "after a warning is given, to declare a draw including
    # all survivors".
    rules = end_rules_for(load_rules("house"))
    quiet = [year_end(y, EVEN) for y in (1905, 1906, 1907)]
    with pytest.raises(EndgameError, match="warn"):
        declare_draw(quiet, rules, STD, warned=False)
    state = declare_draw(quiet, rules, STD, warned=True)
    assert state.kind is EndKind.DRAW
    assert state.ended
    assert state.powers == (A, E, F, G, I, R, T)
    with pytest.raises(EndgameError, match="no draw may be declared"):
        declare_draw(quiet[1:], rules, STD, warned=True)


def test_expedited_removal_comes_from_the_preset() -> None:
    # stabbeurfou 3 "Expedited removal of players": the preset's `expedited_removal` key.
    assert end_rules_for(load_rules("stabbeurfou")).expedited_removal
    assert not end_rules_for(load_rules("datc")).expedited_removal
