"""End-game votes: edc-2023 section E ("End Game Request") and house-rules IX."""

from __future__ import annotations

import json

import pytest

from bot.core.ending.votes import (
    Ballot,
    Moment,
    VoteBook,
    VoteError,
    VoteKind,
    VoteStatus,
    policy_for_rules,
)
from bot.core.model import Phase, Power
from bot.core.presets import load_rules
from tests.standard import STANDARD, announce

# The procedures the presets' [votes] tables write (data/rules/*.toml).
EDC2023 = policy_for_rules(load_rules("edc2023"))
HOUSE = policy_for_rules(load_rules("house"))

A, E, F, G, I, R, T = (
    Power.AUSTRIA,
    Power.ENGLAND,
    Power.FRANCE,
    Power.GERMANY,
    Power.ITALY,
    Power.RUSSIA,
    Power.TURKEY,
)
ALL = frozenset(STANDARD.powers)
S1903 = Moment(Phase.parse("S1903M"))
F1903 = Moment(Phase.parse("F1903M"))


def edc_book(last_year: int | None = 1907) -> VoteBook:
    return VoteBook(EDC2023, last_year=last_year)


# --- edc2023 -------------------------------------------------------------------------------


def test_edc_unanimity_passes_once_everyone_agrees() -> None:
    # edc-2023 E: "the vote is secret, and unanimity prevails."
    book, vote = edc_book().propose(F, VoteKind.DRAW, moment=S1903, survivors=[A, F, G])
    assert vote.powers == (A, F, G)  # a draw of all survivors
    for p in (A, F):
        book, vote = book.cast(vote.id, p, Ballot.YES, moment=S1903)
        assert vote.is_open
    book, vote = book.cast(vote.id, G, Ballot.YES, moment=S1903)
    assert vote.status is VoteStatus.PASSED
    assert vote.closed == S1903.phase


def test_edc_one_opponent_ends_the_vote_at_once() -> None:
    # edc-2023 E: "If a person publicly opposes the vote, the vote is deemed negative, and
    # the game resumes immediately."
    book, vote = edc_book().propose(F, VoteKind.DRAW, moment=S1903, survivors=ALL)
    book, vote = book.cast(vote.id, T, Ballot.NO, moment=S1903)
    assert vote.status is VoteStatus.FAILED
    assert book.open_vote is None
    with pytest.raises(VoteError, match="closed"):
        book.cast(vote.id, A, Ballot.YES, moment=S1903)


def test_edc_each_player_requests_once_per_game() -> None:
    # edc-2023 E: "Each person can request a vote to end the game only once per game"
    book, vote = edc_book().propose(F, VoteKind.DRAW, moment=S1903, survivors=ALL)
    book, _ = book.cast(vote.id, T, Ballot.NO, moment=S1903)
    later = Moment(Phase.parse("S1904M"))
    with pytest.raises(VoteError, match="already requested"):
        book.propose(F, VoteKind.DRAW, moment=later, survivors=ALL)
    book, vote = book.propose(G, VoteKind.DRAW, moment=later, survivors=ALL)
    assert vote.author is G


def test_edc_one_vote_per_season() -> None:
    # edc-2023 E: "There can only be one vote requested per season (Spring / Fall)."
    book, vote = edc_book().propose(F, VoteKind.DRAW, moment=S1903, survivors=ALL)
    book, _ = book.cast(vote.id, T, Ballot.NO, moment=S1903)
    summer = Moment(Phase.parse("S1903R"))  # the Spring retreats are still Spring
    with pytest.raises(VoteError, match="this season"):
        book.propose(G, VoteKind.DRAW, moment=summer, survivors=ALL)
    book, vote = book.propose(G, VoteKind.DRAW, moment=F1903, survivors=ALL)
    assert vote.is_open


def test_edc_no_vote_during_the_fall_adjudication() -> None:
    # edc-2023 E: "at any time outside of the adjudiction of Fall Phase Orders and Retreats
    # (as soon as the first Orders are read, the adjudiction goes on until the adjustments)"
    book = edc_book()
    for moment in (
        Moment(Phase.parse("F1903M"), orders_read=True),
        Moment(Phase.parse("F1903R")),
        Moment(Phase.parse("W1903A")),
    ):
        with pytest.raises(VoteError, match="Fall orders"):
            book.propose(F, VoteKind.DRAW, moment=moment, survivors=ALL)
    # Fall negotiation (orders not read yet) is open; so is the Spring reading.
    book.propose(F, VoteKind.DRAW, moment=F1903, survivors=ALL)
    book.propose(F, VoteKind.DRAW, moment=Moment(S1903.phase, orders_read=True), survivors=ALL)


def test_edc_no_vote_in_the_last_year() -> None:
    # edc-2023 E: "There cannot be a vote the last year." (7 years: 1901-1907)
    with pytest.raises(VoteError, match="last year"):
        edc_book(1907).propose(
            F, VoteKind.DRAW, moment=Moment(Phase.parse("S1907M")), survivors=ALL
        )
    book, _ = edc_book(1907).propose(
        F, VoteKind.DRAW, moment=Moment(Phase.parse("F1906M")), survivors=ALL
    )
    assert book.open_vote is not None


def test_edc_vote_ends_the_game_with_all_survivors_only() -> None:
    # edc-2023 E: the request is "to end the game"; no partial draw, no concession.
    with pytest.raises(VoteError, match="all survivors"):
        edc_book().propose(F, VoteKind.DRAW, moment=S1903, survivors=ALL, powers=[F, G])
    with pytest.raises(VoteError, match="only vote"):
        edc_book().propose(F, VoteKind.CONCEDE, moment=S1903, survivors=ALL, powers=[F])


def test_edc_no_abstention_and_no_second_ballot() -> None:
    book, vote = edc_book().propose(F, VoteKind.DRAW, moment=S1903, survivors=ALL)
    with pytest.raises(VoteError, match="no abstention"):
        book.cast(vote.id, A, Ballot.ABSTAIN, moment=S1903)
    book, vote = book.cast(vote.id, A, Ballot.YES, moment=S1903)
    with pytest.raises(VoteError, match="already voted"):
        book.cast(vote.id, A, Ballot.NO, moment=S1903)


def test_edc_unanswered_vote_fails_at_the_deadline() -> None:
    # Unanimity: a player who never answered has not agreed.
    book, vote = edc_book().propose(F, VoteKind.DRAW, moment=S1903, survivors=[A, F])
    book, vote = book.cast(vote.id, F, Ballot.YES, moment=S1903)
    book, closed = book.close_due(S1903.phase)
    assert closed is not None
    assert closed.status is VoteStatus.FAILED


def test_edc_result_is_secret() -> None:
    # edc-2023 E: "the vote is secret": neither counts nor voters nor author are published.
    book, vote = edc_book().propose(F, VoteKind.DRAW, moment=S1903, survivors=[A, F, G])
    book, vote = book.cast(vote.id, G, Ballot.NO, moment=S1903)
    text = announce(vote, EDC2023)
    assert text == "Vote failed: draw between Austria, France, Germany."
    rec = book.public_records()[0]
    assert "counts" not in rec
    assert "author" not in rec
    assert "GERMANY" in rec["powers"]  # a member of the draw, not a voter


# --- house ---------------------------------------------------------------------------------


def house_book() -> VoteBook:
    return VoteBook(HOUSE)


def test_house_abstentions_allowed_and_uncast_counts_against() -> None:
    # house-rules IX(2): unanimous "other than players who ... abstain"; "an uncast vote
    # (other than an abstention) counts as a negative vote and defeats the proposal".
    book, vote = house_book().propose(F, VoteKind.DRAW, moment=S1903, survivors=[A, F, G])
    book, vote = book.cast(vote.id, A, Ballot.YES, moment=S1903)
    book, vote = book.cast(vote.id, F, Ballot.ABSTAIN, moment=S1903)
    assert vote.is_open  # votes are due with the next orders (IX(4))
    _, closed = book.close_due(S1903.phase)
    assert closed is not None
    assert closed.status is VoteStatus.FAILED
    assert announce(closed, HOUSE) == (
        "Vote failed: draw between Austria, France, Germany. For 1, against 1, abstaining 1."
    )
    book, vote = book.cast(vote.id, G, Ballot.YES, moment=S1903)
    _, closed = book.close_due(S1903.phase)
    assert closed is not None
    assert closed.status is VoteStatus.PASSED


def test_house_votes_can_be_revised_until_due() -> None:
    # house-rules IX(4): "players may submit revised votes"; a "no" does not end it at once.
    book, vote = house_book().propose(F, VoteKind.DRAW, moment=S1903, survivors=[A, F])
    book, vote = book.cast(vote.id, A, Ballot.NO, moment=S1903)
    assert vote.is_open
    book, vote = book.cast(vote.id, A, Ballot.YES, moment=S1903)
    book, vote = book.cast(vote.id, F, Ballot.YES, moment=S1903)
    _, closed = book.close_due(S1903.phase)
    assert closed is not None
    assert closed.status is VoteStatus.PASSED


def test_house_counts_published_never_voters_or_author() -> None:
    # house-rules IX(4) Alt. B: "reveal the number of votes for each alternative ... but
    # will not reveal ... the specific vote of any player ... nor the identity of the author"
    book, vote = house_book().propose(F, VoteKind.DRAW, moment=S1903, survivors=[A, F, G])
    for p, b in ((A, Ballot.YES), (F, Ballot.YES), (G, Ballot.NO)):
        book, vote = book.cast(vote.id, p, b, moment=S1903)
    book, vote_closed = book.close_due(S1903.phase)
    rec = book.public_records()[0]
    assert rec["counts"] == {"yes": 2, "no": 1, "abstain": 0}
    blob = json.dumps(rec)
    assert "author" not in blob
    assert "ballots" not in blob
    assert "voters" not in blob
    assert vote_closed is not None
    assert "France" not in announce(vote_closed, HOUSE).split(":")[0]


def test_house_author_may_vote_on_own_proposal() -> None:
    # house-rules IX(5) Alternative C: "Players may vote for or against proposals that they
    # submit."
    book, vote = house_book().propose(F, VoteKind.DRAW, moment=S1903, survivors=[A, F])
    book, vote = book.cast(vote.id, F, Ballot.NO, moment=S1903)
    assert vote.ballots[F] is Ballot.NO


def test_house_non_dias_draw_and_concession() -> None:
    # house-rules IX(2): "Draws may or may not include all survivors"; IX(1): wins conceded
    # only to a single player, who "will be held to have voted for the proposal".
    book, vote = house_book().propose(
        A, VoteKind.DRAW, moment=S1903, survivors=[A, F, G], powers=[F, G]
    )
    assert vote.powers == (F, G)
    assert vote.voters == {A, F, G}  # everyone remaining votes, the excluded too
    book, _ = book.close_due(S1903.phase)
    book, vote = book.propose(A, VoteKind.CONCEDE, moment=F1903, survivors=[A, F, G], powers=[G])
    assert vote.ballots == {G: Ballot.YES}
    with pytest.raises(VoteError, match="held to vote"):
        book.cast(vote.id, G, Ballot.NO, moment=F1903)
    with pytest.raises(VoteError, match="exactly one"):
        house_book().propose(A, VoteKind.CONCEDE, moment=S1903, survivors=[A, F], powers=[A, F])


def test_house_gm_may_refuse_repetitive_proposals() -> None:
    # house-rules IX(5): "The GM ... may refuse to conduct votes on repetitive or humorous
    # proposals."
    book, vote = house_book().propose(A, VoteKind.DRAW, moment=S1903, survivors=[A, F])
    book, _ = book.close_due(S1903.phase)
    assert book.is_repeat(VoteKind.DRAW, [A, F])
    assert not book.is_repeat(VoteKind.CONCEDE, [A])
    book, vote = book.propose(A, VoteKind.DRAW, moment=F1903, survivors=[A, F])
    book, vote = book.refuse(vote.id, "repetitive", phase=F1903.phase)
    assert vote.status is VoteStatus.REFUSED
    assert book.public_records()[-1]["note"] == "repetitive"
    with pytest.raises(VoteError, match="cannot refuse"):
        edc_book().refuse(1, "x", phase=S1903.phase)


# --- both ----------------------------------------------------------------------------------


def test_one_open_vote_at_a_time_and_only_players_in_the_game() -> None:
    book, _ = house_book().propose(A, VoteKind.DRAW, moment=S1903, survivors=[A, F])
    with pytest.raises(VoteError, match="already open"):
        book.propose(F, VoteKind.DRAW, moment=S1903, survivors=[A, F])
    with pytest.raises(VoteError, match="still in the game"):
        house_book().propose(T, VoteKind.DRAW, moment=S1903, survivors=[A, F])
    with pytest.raises(VoteError, match="not in the game"):
        house_book().propose(A, VoteKind.DRAW, moment=S1903, survivors=[A, F], powers=[T])
    book, vote = house_book().propose(A, VoteKind.DRAW, moment=S1903, survivors=[A, F])
    with pytest.raises(VoteError, match="do not vote"):
        book.cast(vote.id, T, Ballot.YES, moment=S1903)


def test_state_round_trip_survives_a_restart() -> None:
    book, vote = house_book().propose(A, VoteKind.DRAW, moment=S1903, survivors=[A, F])
    book, vote = book.cast(vote.id, F, Ballot.YES, moment=S1903)
    state = json.loads(json.dumps(book.to_state()))
    again = VoteBook.from_state(state, HOUSE)
    assert again == book
    assert VoteBook.from_state(edc_book(1907).to_state(), EDC2023).last_year == 1907
    with pytest.raises(VoteError, match="bad stored"):
        VoteBook.from_state({"policy": "house", "votes": [{"id": 1}]}, HOUSE)


def test_french_announcement() -> None:
    book, _ = house_book().propose(A, VoteKind.DRAW, moment=S1903, survivors=[A, F])
    _, closed = book.close_due(S1903.phase)
    assert closed is not None
    assert announce(closed, HOUSE, "fr") == (
        "Vote rejeté : nulle entre Autriche, France. Pour 0, contre 2, abstentions 0."
    )


def test_policy_for_rule_sets() -> None:
    assert EDC2023.kinds == {VoteKind.DRAW}
    assert HOUSE.abstentions
    datc = policy_for_rules(load_rules("datc"))
    assert datc.name == "datc"
    assert not datc.non_dias_draws
    # A rule set that allows non-DIAS draws gets them in the default procedure.
    wide = policy_for_rules(load_rules("datc").with_options(name="x", non_dias_draws=True))
    book, vote = VoteBook(wide).propose(
        A, VoteKind.DRAW, moment=S1903, survivors=[A, F], powers=[A]
    )
    assert vote.powers == (A,)
    assert VoteBook.from_state(book.to_state(), wide).policy.non_dias_draws
