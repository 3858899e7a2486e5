"""EDC 2023 tournament scoring, section D of the seed (edc-2023-tournament-rules.txt), with
the final table of section B. Each rule's line is quoted where it is applied; the readings
where the seed is open are listed in docs/tournaments.md.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from bot.core.model import Phase, Season
from bot.core.tournament import aggregation
from bot.core.tournament.model import (
    StandingRow,
    TableResult,
    TournamentError,
    TournamentInput,
    ranked,
)

ROUNDS = 4  # seed B: "The tournament will be played in 4 rounds"
ABSENCE_PENALTY = -15.0  # D 4: "-15 points (and all bonuses) if registration and absence..."
FIXED_PENALTIES: Mapping[str, float] = {
    "refusal": -15.0,  # "... or in case of refusal to play on a table"
    "contest": -5.0,  # "-5 points in case of contesting a decision of the tournament referee"
    "late": -1.0,  # "-1 point per delay in submitting order sheets"
}
MISCONDUCT = "misconduct"  # "All positives points in case of inappropriate behavior"
FINAL_SHARE = 0.15  # D 3: "+15% of his tournament score for each person playing in the final"
FINAL_WIN = 1000.0  # D 3: "Final table victory: +1000 points"
FINAL_MIN_POSITIVE = 28  # B: "28 people (or more) ranked with a strictly positive result"
FINAL_SIZE = 7


def truncate(x: float) -> int:
    """D: "All scores are truncated after each round ... 21.5 ... and 21.33 ... both score
    21". Rounded to 1e-6 first so that 0.9 × 30 = 26.999999... stays 27."""
    return math.trunc(round(x, 6))


def latecomer_coefficient(season: int) -> float:
    """D: "the latecomer will have a coefficient of (14-n)/14 applied to the score of his
    game, where n is the number of the current season (P01->1, A01->2, P02->3...)"."""
    if not 1 <= season <= 13:
        raise TournamentError(f"season number must be 1 to 13 (7 years of 2 seasons), not {season}")
    return (14 - season) / 14


def season_number(phase: Phase, first_year: int) -> int:
    """D's n: "P01->1, A01->2, P02->3...". A retreat or adjustment phase belongs to the
    season whose moves it follows (the Winter to the Fall: edc-2023 B plays it in the Fall's
    time)."""
    return 2 * (phase.year - first_year) + (1 if phase.season is Season.SPRING else 2)


def first_tercile(scores: Sequence[float]) -> int:
    """D: "People withdrawing will score a bonus equal to the first tercile of scores for
    the round in question." Our reading (docs/tournaments.md): the value a third of the
    round's table scores are at or below (nearest rank: sorted ascending, the ceil(n/3)-th)."""
    if not scores:
        raise TournamentError("a withdrawal bonus needs the round's table scores")
    ordered = sorted(scores)
    return truncate(ordered[math.ceil(len(ordered) / 3) - 1])


def withdrawal_priority(
    volunteers: Sequence[str], rounds_played: Mapping[str, int], rank: Mapping[str, int]
) -> list[str]:
    """D: "priority for withdrawal will be given first to the person who has played the most
    rounds, then to the lowest ranked person" (rank 1 is the best; unranked last-ranked)."""
    worst = max(rank.values(), default=0) + 1
    return sorted(volunteers, key=lambda p: (-rounds_played.get(p, 0), -rank.get(p, worst), p))


def final_table_due(rows_after_round3: Sequence[StandingRow]) -> bool:
    """B: "If there are 28 people (or more) ranked with a strictly positive result after the
    third round, there will be a final table"."""
    return sum(1 for r in rows_after_round3 if r.total > 0) >= FINAL_MIN_POSITIVE


def final_table_players(rows_after_round3: Sequence[StandingRow]) -> list[str]:
    """The seven best after round 3 (D 1: the weights "apply for the qualification")."""
    return [r.player for r in rows_after_round3[:FINAL_SIZE]]


def _round_scores(
    inp: TournamentInput,
) -> dict[str, dict[int, list[tuple[TableResult, int]]]]:
    out: dict[str, dict[int, list[tuple[TableResult, int]]]] = defaultdict(
        lambda: defaultdict(list)
    )
    for t in inp.rounds:
        for p, raw in t.scores.items():
            # D: the latecomer's coefficient on "the score of his game", then truncation.
            out[p][t.round].append((t, truncate(raw * t.coefficients.get(p, 1.0))))
    return out


def _check(inp: TournamentInput, played: Mapping[str, Mapping[int, list[Any]]]) -> None:
    two_by_player: dict[str, int] = defaultdict(int)
    for tt in inp.two_tables:
        two_by_player[tt.player] += 1
        tables = [t.table for t, _ in played.get(tt.player, {}).get(tt.round, [])]
        if len(tables) != 2:
            raise TournamentError(
                f"two_tables: {tt.player} has {len(tables)} table(s) in round {tt.round}, not 2"
            )
        if tt.counts not in tables:
            raise TournamentError(
                f"two_tables: {tt.player} did not play table {tt.counts} in round {tt.round}"
            )
    for p, n in two_by_player.items():
        if n > 1:
            # D: "Games on two simultaneous tables: authorized only once per person"
            raise TournamentError(f"two_tables: {p} plays two tables only once per tournament")
    for p, rounds in played.items():
        for r, tables in rounds.items():
            if len(tables) > 2:
                raise TournamentError(f"{p} has {len(tables)} tables in round {r}")
            if len(tables) == 2 and not any(
                tt.player == p and tt.round == r for tt in inp.two_tables
            ):
                raise TournamentError(
                    f"{p} has two tables in round {r}:"
                    " add a two_tables entry naming the table that counts"
                )
    withdrawn: dict[str, int] = {}
    for w in inp.withdrawals:
        if w.player in withdrawn:
            # D: "Request for withdrawal: authorized only once per player"
            raise TournamentError(f"withdrawals: {w.player} withdraws only once per tournament")
        if played.get(w.player, {}).get(w.round):
            raise TournamentError(f"withdrawals: {w.player} played in round {w.round}")
        if w.round not in inp.round_numbers:
            raise TournamentError(f"withdrawals: round {w.round} has no table scores")
        withdrawn[w.player] = w.round
        if two_by_player.get(w.player):
            # D: "Withdrawal and play on several tables are mutually exclusive"
            raise TournamentError(
                f"{w.player}: withdrawal and play on two tables are mutually exclusive"
            )
    for a in inp.absences:
        if played.get(a.player, {}).get(a.round):
            raise TournamentError(f"absences: {a.player} played in round {a.round}")
    for pen in inp.penalties:
        fixed = FIXED_PENALTIES.get(pen.reason)
        if pen.reason == MISCONDUCT:
            continue
        if fixed is not None and pen.points is not None and pen.points != fixed:
            raise TournamentError(
                f"penalties: {pen.reason!r} is {fixed:g} points (edc-2023 D 4), not {pen.points:g}"
            )
        if fixed is None and (pen.points is None or pen.points > 0):
            raise TournamentError(
                f'penalties: {pen.reason!r} needs negative "points" (known reasons:'
                f" {', '.join([*FIXED_PENALTIES, MISCONDUCT])})"
            )


def score(inp: TournamentInput) -> list[StandingRow]:
    """The standings after the rounds given (the last may be the final table)."""
    played = _round_scores(inp)
    _check(inp, played)
    last_round = max(inp.round_numbers, default=0)
    final_players: set[str] = set()
    if inp.final is not None:
        final = [t for t in inp.rounds if t.table == inp.final.table and t.round == last_round]
        if not final:
            raise TournamentError(
                f"final: table {inp.final.table} is not a table of the last round"
            )
        if inp.final.winner not in final[0].scores:
            raise TournamentError(f"final: {inp.final.winner} did not play table {inp.final.table}")
        final_players = set(final[0].scores)
    by_round: dict[int, list[int]] = defaultdict(list)
    for rounds in played.values():
        for r, tables in rounds.items():
            by_round[r].extend(s for _, s in tables)
    preregistered = {e.id: e.preregistered for e in inp.players}
    totals: dict[str, float] = {}
    details: dict[str, dict[str, Any]] = {}
    for pid in inp.player_ids:
        rounds = played.get(pid, {})
        entries: list[dict[str, Any]] = [
            {"round": r, "table": t.table, "score": s, "counted": True}
            for r in sorted(rounds)
            for t, s in rounds[r]
        ]
        # D special rules: "no person should be able to score more individual scores than the
        # number of rounds ... will have to choose which of their two games ... must be taken
        # into account".
        for tt in inp.two_tables:
            if tt.player == pid and len(entries) > ROUNDS:
                for e in entries:
                    if e["round"] == tt.round and e["table"] != tt.counts:
                        e["counted"] = False
        scores = [float(e["score"]) for e in entries if e["counted"]]
        withdrawal = next((w for w in inp.withdrawals if w.player == pid), None)
        bonus_w: int | None = None
        if withdrawal is not None:
            # D 2: "no points will be scored, except for the voluntary withdrawal bonus"; it
            # stands as that round's score among the weighted ones (our reading).
            bonus_w = first_tercile(by_round[withdrawal.round])
            scores.append(float(bonus_w))
        weighted = truncate(aggregation.edc2023(scores))
        rounds_played = len(rounds)
        # D 3: "If they have played at least 2 rounds, a person will add a bonus equal to the
        # number of rounds played"
        participation = rounds_played if rounds_played >= 2 else 0
        # D 3: "+1 point for pre-registration and participation in both rounds 1 and 4"
        prereg = int({1, ROUNDS} <= preregistered[pid] and 1 in rounds and ROUNDS in rounds)
        absences = [a for a in inp.absences if a.player == pid and a.registered]
        penalties = ABSENCE_PENALTY * len(absences)
        misconduct = False
        lose_bonuses = bool(absences)
        for pen in inp.penalties:
            if pen.player != pid:
                continue
            if pen.reason == MISCONDUCT:
                misconduct = True
                continue
            penalties += FIXED_PENALTIES.get(pen.reason, pen.points or 0.0)
            lose_bonuses = lose_bonuses or pen.reason == "refusal"
        bonuses = 0 if lose_bonuses else participation + prereg
        subtotal = weighted + bonuses + penalties
        final_bonus = 0
        winner = inp.final is not None and inp.final.winner == pid
        if pid in final_players and not lose_bonuses:
            # D 3: "+15% of his tournament score" (base: everything before the final's own
            # bonuses, never below 0), truncated; "+1000 points" for the winner.
            final_bonus = truncate(FINAL_SHARE * max(subtotal, 0.0))
            if winner:
                final_bonus += int(FINAL_WIN)
        total = subtotal + final_bonus
        if misconduct:
            total = min(penalties, 0.0)  # "All positives points" lost: the penalties stay
        totals[pid] = float(total)
        details[pid] = {
            "scores": entries,
            "withdrawal_bonus": bonus_w,
            "weighted": weighted,
            "rounds_played": rounds_played,
            "participation": participation,
            "preregistration": prereg,
            "bonuses_lost": lose_bonuses,
            "penalties": penalties,
            "final_bonus": final_bonus,
            "final_winner": winner,
            "misconduct": misconduct,
        }
    return ranked(totals, details)
