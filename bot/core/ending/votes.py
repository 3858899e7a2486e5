"""End-game votes as pure state: proposals, secret ballots, results without the voters.

A game keeps one `VoteBook`; every operation returns a new book (frozen dataclasses). The
rules come from a `VotePolicy`, built from the preset's `[votes]` table (`policy_for_rules`);
the seeds' procedures, as the presets write them:

- `edc2023` (edc-2023 section E, "End Game Request"): a vote ends the game (a draw of all
  survivors); each player may request one once per game; never during the Fall adjudication
  (from the first Fall orders read through the adjustments); at most one per season (Spring /
  Fall); none in the last year; unanimity; a player who opposes ends the vote at once.
- `house` (house-rules IX): draws with or without all survivors (the others are eliminated)
  and concessions to one player; abstentions allowed; votes are due with the next orders and
  may be revised until then; an uncast vote counts against; the counts are published, never
  the voters nor the author; a player may vote on their own proposal; the GM may refuse
  repetitive or humorous proposals.

`public_record()` is what the table and the game's record show; `to_state()` (with ballots
and author) is for the service's private store, so that a vote survives a restart.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from types import MappingProxyType
from typing import Any, NotRequired, TypedDict

from bot.core.catalogue import text
from bot.core.map import GameMap
from bot.core.messages import Message, msg, render
from bot.core.model import ModelError, Phase, PhaseKind, Power, Season
from bot.core.rules import RuleSet


class VoteError(ValueError):
    """A proposal or ballot the rules do not allow; `.message` is for the player (English),
    `.localized(lang)` in the game's language."""

    def __init__(self, message: str | Message) -> None:
        super().__init__(str(message))
        self.message = str(message)
        self.note = message if isinstance(message, Message) else None

    def localized(self, lang: str, game_map: GameMap | None = None) -> str:
        return render(self.note, lang, game_map) if self.note is not None else self.message


class VoteKind(StrEnum):
    DRAW = "draw"
    CONCEDE = "concede"


class Ballot(StrEnum):
    YES = "yes"
    NO = "no"
    ABSTAIN = "abstain"


class VoteStatus(StrEnum):
    OPEN = "open"
    PASSED = "passed"
    FAILED = "failed"
    REFUSED = "refused"  # the GM declined to hold it (house-rules IX(5))


class VoteCounts(TypedDict):
    yes: int
    no: int  # an uncast ballot counts against
    abstain: int


class VoteRecord(TypedDict):
    """A vote as anyone may see it: no author, no voter (house-rules IX(4))."""

    id: int
    kind: str  # VoteKind
    powers: list[str]
    opened: str  # phase
    status: str  # VoteStatus
    closed: NotRequired[str]
    counts: NotRequired[VoteCounts]  # where the rules publish them
    note: NotRequired[str]


@dataclass(frozen=True, slots=True)
class VotePolicy:
    name: str
    kinds: frozenset[VoteKind]
    non_dias_draws: bool  # a draw may name fewer than all survivors
    once_per_player: bool  # edc-2023 E: "only once per game"
    one_per_season: bool  # edc-2023 E: "only one vote requested per season (Spring / Fall)"
    closed_in_fall_adjudication: bool  # edc-2023 E: from the Fall orders read to adjustments
    closed_in_last_year: bool  # edc-2023 E: "There cannot be a vote the last year."
    opposition_ends_at_once: bool  # edc-2023 E: one "no" and the game resumes
    abstentions: bool  # house IX(1), IX(2)
    revisable: bool  # house IX(4): "players may submit revised votes"
    publish_counts: bool  # house IX(4) Alternative B
    concede_target_votes_yes: bool  # house IX(1): held to have voted for the proposal
    gm_may_refuse: bool  # house IX(5)


def policy_for_rules(rules: RuleSet) -> VotePolicy:
    """The vote procedure of a rule set: its preset's `[votes]` table and `non_dias_draws`."""
    v = rules.votes
    kinds = {k for k, on in ((VoteKind.DRAW, v.draws), (VoteKind.CONCEDE, v.concessions)) if on}
    return VotePolicy(
        name=rules.name,
        kinds=frozenset(kinds),
        non_dias_draws=rules.non_dias_draws,
        once_per_player=v.once_per_player,
        one_per_season=v.one_per_season,
        closed_in_fall_adjudication=v.closed_in_fall_adjudication,
        closed_in_last_year=v.closed_in_last_year,
        opposition_ends_at_once=v.opposition_ends_at_once,
        abstentions=v.abstentions,
        revisable=v.revisable,
        publish_counts=v.publish_counts,
        concede_target_votes_yes=v.concede_target_votes_yes,
        gm_may_refuse=v.gm_may_refuse,
    )


@dataclass(frozen=True, slots=True)
class Moment:
    """Where the game stands when something is asked: the phase, and for a movement phase
    whether its orders are being read (adjudicated) already."""

    phase: Phase
    orders_read: bool = False

    @property
    def in_fall_adjudication(self) -> bool:
        # edc-2023 E: "as soon as the first Orders are read, the adjudiction goes on until
        # the adjustments phase" - Fall orders read, Fall retreats, Winter adjustments.
        p = self.phase
        if p.season is Season.WINTER:
            return True
        return p.season is Season.FALL and (p.kind is PhaseKind.RETREAT or self.orders_read)


@dataclass(frozen=True, slots=True)
class Tally:
    yes: int
    no: int
    abstain: int
    uncast: int


@dataclass(frozen=True, slots=True)
class Vote:
    id: int
    kind: VoteKind
    powers: tuple[Power, ...]  # the draw's members, or the one power a win is conceded to
    author: Power
    voters: frozenset[Power]  # the players remaining in the game when it was proposed
    opened: Phase
    ballots: Mapping[Power, Ballot] = field(default_factory=lambda: MappingProxyType({}))
    status: VoteStatus = VoteStatus.OPEN
    closed: Phase | None = None
    note: str = ""  # the GM's reason for a refusal

    def __post_init__(self) -> None:
        object.__setattr__(self, "ballots", MappingProxyType(dict(self.ballots)))

    @property
    def is_open(self) -> bool:
        return self.status is VoteStatus.OPEN

    def tally(self) -> Tally:
        counts = dict.fromkeys(Ballot, 0)
        for b in self.ballots.values():
            counts[b] += 1
        return Tally(
            counts[Ballot.YES],
            counts[Ballot.NO],
            counts[Ballot.ABSTAIN],
            len(self.voters) - len(self.ballots),
        )

    def describe(self, lang: str, game_map: GameMap) -> str:
        names = ", ".join(game_map.power_name(p, lang) for p in self.powers)
        kind = "concede" if self.kind is VoteKind.CONCEDE else "draw"
        return text("core", f"vote_table.{kind}", lang, names=names)

    def public_record(self, policy: VotePolicy) -> VoteRecord:
        """The game record's entry: no voter, no author (house-rules IX(4))."""
        rec: VoteRecord = {
            "id": self.id,
            "kind": self.kind.value,
            "powers": [p.value for p in self.powers],
            "opened": str(self.opened),
            "status": self.status.value,
        }
        if self.closed is not None:
            rec["closed"] = str(self.closed)
        if policy.publish_counts and self.status in (VoteStatus.PASSED, VoteStatus.FAILED):
            t = self.tally()
            rec["counts"] = {"yes": t.yes, "no": t.no + t.uncast, "abstain": t.abstain}
        if self.note:
            rec["note"] = self.note
        return rec

    def to_state(self) -> dict[str, Any]:
        """Everything, for the service's private store (restart-safe); never shown."""
        return {
            "id": self.id,
            "kind": self.kind.value,
            "powers": [p.value for p in self.powers],
            "author": self.author.value,
            "voters": sorted(p.value for p in self.voters),
            "opened": str(self.opened),
            "ballots": {p.value: b.value for p, b in sorted(self.ballots.items())},
            "status": self.status.value,
            "closed": str(self.closed) if self.closed else None,
            "note": self.note,
        }

    @classmethod
    def from_state(cls, d: Mapping[str, Any]) -> Vote:
        try:
            return cls(
                id=int(d["id"]),
                kind=VoteKind(d["kind"]),
                powers=tuple(Power(p) for p in d["powers"]),
                author=Power(d["author"]),
                voters=frozenset(Power(p) for p in d["voters"]),
                opened=Phase.parse(d["opened"]),
                ballots={Power(p): Ballot(b) for p, b in d["ballots"].items()},
                status=VoteStatus(d["status"]),
                closed=Phase.parse(d["closed"]) if d.get("closed") else None,
                note=str(d.get("note", "")),
            )
        except (KeyError, ValueError, TypeError, ModelError) as exc:
            raise VoteError(f"bad stored vote: {exc}") from None


def announce(vote: Vote, policy: VotePolicy, lang: str, game_map: GameMap) -> str:
    """The table's message: the proposal and its result, never who voted what."""
    what = vote.describe(lang, game_map)
    if vote.status is VoteStatus.OPEN:
        return text("core", "vote_table.open", lang, what=what)
    if vote.status is VoteStatus.REFUSED:
        return text("core", "vote_table.refused", lang, what=what)
    passed = vote.status is VoteStatus.PASSED
    out = text("core", "vote_table.passed" if passed else "vote_table.failed", lang, what=what)
    if policy.publish_counts:
        t = vote.tally()
        out += text(
            "core", "vote_table.counts", lang, yes=t.yes, no=t.no + t.uncast, abstain=t.abstain
        )
    return out


@dataclass(frozen=True, slots=True)
class VoteBook:
    """All votes of one game. `last_year` is the clock preset's last game year, if any."""

    policy: VotePolicy
    votes: tuple[Vote, ...] = ()
    last_year: int | None = None

    @property
    def open_vote(self) -> Vote | None:
        for v in self.votes:
            if v.is_open:
                return v
        return None

    def get(self, vote_id: int) -> Vote:
        for v in self.votes:
            if v.id == vote_id:
                return v
        raise VoteError(msg("vote.no_such", id=vote_id))

    def _replace_vote(self, vote: Vote) -> VoteBook:
        return replace(self, votes=tuple(vote if v.id == vote.id else v for v in self.votes))

    def is_repeat(self, kind: VoteKind, powers: Collection[Power]) -> bool:
        """The same proposal failed or was refused before (the GM may refuse it, IX(5))."""
        key = frozenset(powers)
        return any(
            v.kind is kind and frozenset(v.powers) == key and not v.is_open
            for v in self.votes
            if v.status is not VoteStatus.PASSED
        )

    def propose(
        self,
        author: Power,
        kind: VoteKind,
        *,
        moment: Moment,
        survivors: Collection[Power],
        powers: Collection[Power] = (),
    ) -> tuple[VoteBook, Vote]:
        """Open a vote. `survivors`: the players remaining in the game (they vote).

        A draw with no `powers` includes all survivors; a concession names exactly one power.
        """
        pol = self.policy
        voters = frozenset(survivors)
        if author not in voters:
            raise VoteError(msg("vote.not_in_game_author"))
        if kind not in pol.kinds:
            only_full_draw = pol.kinds == {VoteKind.DRAW} and not pol.non_dias_draws
            raise VoteError(
                msg("vote.only_full_draw", rules=pol.name)
                if only_full_draw
                else msg(f"vote.no_{kind.value}", rules=pol.name)
            )
        if self.open_vote is not None:
            raise VoteError(msg("vote.already_open"))
        named = frozenset(powers)
        for p in named:
            if p not in voters:
                raise VoteError(msg("vote.power_not_in_game", power=p))
        if kind is VoteKind.CONCEDE:
            if len(named) != 1:
                raise VoteError(msg("vote.concede_one"))
        elif not named:
            named = voters
        elif named != voters and not pol.non_dias_draws:
            raise VoteError(msg("vote.draw_all", rules=pol.name))
        last = self.last_year
        if pol.closed_in_last_year and last is not None and moment.phase.year >= last:
            raise VoteError(msg("vote.last_year"))
        if pol.closed_in_fall_adjudication and moment.in_fall_adjudication:
            raise VoteError(msg("vote.fall_reading"))
        if pol.one_per_season:
            season = (moment.phase.year, _vote_season(moment.phase))
            if any((v.opened.year, _vote_season(v.opened)) == season for v in self.votes):
                raise VoteError(msg("vote.one_per_season"))
        if pol.once_per_player and any(v.author is author for v in self.votes):
            raise VoteError(msg("vote.once_per_player"))
        ballots: dict[Power, Ballot] = {}
        if kind is VoteKind.CONCEDE and pol.concede_target_votes_yes:
            # house IX(1): "a player for whom a conceded win is proposed will be held to have
            # voted for the proposal".
            ballots[next(iter(named))] = Ballot.YES
        order = sorted(named)
        vote = Vote(
            id=max((v.id for v in self.votes), default=0) + 1,
            kind=kind,
            powers=tuple(order),
            author=author,
            voters=voters,
            opened=moment.phase,
            ballots=ballots,
        )
        vote = self._settle(vote, moment.phase)
        book = replace(self, votes=(*self.votes, vote))
        return book, vote

    def cast(
        self, vote_id: int, voter: Power, ballot: Ballot, *, moment: Moment
    ) -> tuple[VoteBook, Vote]:
        vote = self.get(vote_id)
        pol = self.policy
        if not vote.is_open:
            raise VoteError(msg("vote.closed", id=vote_id))
        if voter not in vote.voters:
            raise VoteError(msg("vote.not_a_voter"))
        if ballot is Ballot.ABSTAIN and not pol.abstentions:
            raise VoteError(msg("vote.no_abstention", rules=pol.name))
        if vote.kind is VoteKind.CONCEDE and pol.concede_target_votes_yes and voter in vote.powers:
            raise VoteError(msg("vote.concede_target"))
        if voter in vote.ballots and not pol.revisable:
            raise VoteError(msg("vote.already_voted"))
        vote = replace(vote, ballots={**vote.ballots, voter: ballot})
        vote = self._settle(vote, moment.phase)
        return self._replace_vote(vote), vote

    def _settle(self, vote: Vote, phase: Phase) -> Vote:
        """Results that need no deadline: edc-2023 E unanimity is reached or broken at once."""
        if not self.policy.opposition_ends_at_once:
            return vote
        t = vote.tally()
        if t.no:
            return replace(vote, status=VoteStatus.FAILED, closed=phase)
        if t.uncast == 0 and t.yes:
            return replace(vote, status=VoteStatus.PASSED, closed=phase)
        return vote

    def close_due(self, phase: Phase) -> tuple[VoteBook, Vote | None]:
        """Votes are due with the orders (house IX(4)): at the deadline the open vote is
        decided, an uncast vote counting against it (house IX(1), IX(2))."""
        vote = self.open_vote
        if vote is None:
            return self, None
        t = vote.tally()
        passed = t.no == 0 and t.uncast == 0 and t.yes > 0
        vote = replace(
            vote, status=VoteStatus.PASSED if passed else VoteStatus.FAILED, closed=phase
        )
        return self._replace_vote(vote), vote

    def refuse(self, vote_id: int, reason: str, *, phase: Phase) -> tuple[VoteBook, Vote]:
        """The GM declines a repetitive or humorous proposal (house IX(5))."""
        if not self.policy.gm_may_refuse:
            raise VoteError(msg("vote.gm_cannot_refuse", rules=self.policy.name))
        vote = self.get(vote_id)
        if not vote.is_open:
            raise VoteError(msg("vote.closed", id=vote_id))
        vote = replace(vote, status=VoteStatus.REFUSED, closed=phase, note=reason)
        return self._replace_vote(vote), vote

    def public_records(self) -> list[VoteRecord]:
        return [v.public_record(self.policy) for v in self.votes]

    def to_state(self) -> dict[str, Any]:
        return {
            "policy": self.policy.name,
            "non_dias_draws": self.policy.non_dias_draws,
            "last_year": self.last_year,
            "votes": [v.to_state() for v in self.votes],
        }

    @classmethod
    def from_state(cls, d: Mapping[str, Any], policy: VotePolicy) -> VoteBook:
        """The stored book under `policy`, the game's preset's (the stored name is only a
        label: the procedure is the preset's data)."""
        try:
            last = d.get("last_year")
            votes = tuple(Vote.from_state(v) for v in d.get("votes", ()))
        except (KeyError, TypeError) as exc:
            raise VoteError(f"bad stored votes: {exc}") from None
        return cls(policy, votes, None if last is None else int(last))


def _vote_season(phase: Phase) -> Season:
    # The Spring retreats ("Summer") belong to Spring; Winter belongs to Fall.
    return Season.SPRING if phase.season is Season.SPRING else Season.FALL
