"""End-game votes (bot.core.ending.votes holds the rules; this keeps them and announces them)."""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable, Sequence

from bot.core.ending.endgame import end_by_vote, survivors
from bot.core.ending.votes import (
    Ballot,
    Moment,
    Vote,
    VoteBook,
    VoteError,
    VoteKind,
    VoteRecord,
    announce,
    policy_for_rules,
)
from bot.core.messages import render as render_message
from bot.core.model import (
    Phase,
    Power,
)
from bot.service.delivery.outbox import Outbox
from bot.service.errors import (
    CorruptGameError,
    InvalidStateError,
    VoteRefusedError,
)
from bot.service.events import EventKind
from bot.service.storage import Repository
from bot.service.table import (
    GameCtx,
    PhaseState,
    Table,
    centre_counts,
    dumps,
    parse_power,
)

log = logging.getLogger(__name__)

# One change to a vote book, given the transaction, the current phase, the book and the moment.
Step = Callable[[Repository, PhaseState, VoteBook, Moment], Awaitable[tuple[VoteBook, Vote]]]


class Votes:
    """End-game votes of a game (house IX, edc2023 E): propose, cast, refuse, close at the
    deadline."""

    def __init__(self, table: Table, outbox: Outbox) -> None:
        self.table = table
        self.outbox = outbox

    async def _votebook(self, tx: Repository, game_id: int, ctx: GameCtx) -> VoteBook:
        state = await tx.votebook(game_id)
        policy = policy_for_rules(ctx.rules)
        if state is None:
            years = ctx.clock.years or ctx.rules.end.years
            last = ctx.first_year + years - 1 if years else None
            return VoteBook(policy, (), last)
        try:
            return VoteBook.from_state(json.loads(state), policy)
        except (ValueError, VoteError) as exc:
            raise CorruptGameError(f"game #{game_id}: stored votes unreadable ({exc})") from None

    @staticmethod
    async def _save_book(tx: Repository, game_id: int, book: VoteBook, now: float) -> None:
        await tx.save_votebook(game_id, dumps(book.to_state()), now)

    async def _moment(self, tx: Repository, game_id: int, ph: PhaseState) -> Moment:
        """Where the game stands for the vote rules: during the reading window the moment is
        the phase just adjudicated, its orders read."""

        if ph.status == "pending":
            prev = await tx.last_done_before(game_id, ph.id)
            if prev is not None:
                return Moment(Phase.parse(prev.phase), orders_read=True)
        return Moment(ph.phase, orders_read=ph.status in ("adjudicating", "done"))

    async def _vote_changed(  # noqa: PLR0917 - internal helper
        self,
        tx: Repository,
        game_id: int,
        ctx: GameCtx,
        book: VoteBook,
        vote: Vote,
        now: float,
        ph: PhaseState | None,
    ) -> None:
        """Announce a vote's state; a passed vote ends the game (bot.core.ending.endgame)."""

        kind = EventKind.VOTE_OPENED if vote.is_open else EventKind.VOTE_CLOSED
        await self.table.emit(
            tx,
            f"{game_id}:vote:{vote.id}:{kind.value}",
            game_id,
            kind,
            now,
            {
                "record": vote.public_record(book.policy),
                "text": announce(vote, book.policy, ctx.lang, ctx.game_map),
            },
            ph.id if ph else None,
        )
        if vote.status.value != "passed":
            return
        state = end_by_vote(vote, vote.closed.year if vote.closed else None)
        centers: dict[str, int] = {}
        if ph is not None:
            position = self.table.position_of(ph)
            centers = centre_counts(position)
            await tx.mark_phase_final(ph.id)
        await self.table.finish(
            tx,
            game_id,
            now,
            state.kind.value,
            state.winner.value if state.winner else None,
            centers,
            "vote",
            render_message(state.message, ctx.lang, ctx.game_map)
            if state.message
            else state.reason,
        )

    async def _vote_step(
        self,
        game_id: int,
        actor: str,
        action: str,
        step: Step,
        **detail: str,
    ) -> VoteRecord:
        """One change to the game's votes, in one transaction with its audit entry (never a
        ballot's content) and its events; returns the vote's public record."""
        ctx = await self.table.load_ctx(game_id)
        async with self.table.lock(game_id):
            now = self.table.clock.now()
            async with self.table.storage.tx() as tx:
                ph = await self.table.current_phase(game_id, tx)
                if ph is None:
                    raise InvalidStateError.of("no_phase", ctx.lang, game=game_id)
                book = await self._votebook(tx, game_id, ctx)
                try:
                    book, vote = await step(tx, ph, book, await self._moment(tx, game_id, ph))
                except VoteError as exc:
                    text = exc.localized(ctx.lang, ctx.game_map)
                    raise VoteRefusedError.rendered(exc.message, text, ctx.lang) from None
                await self._save_book(tx, game_id, book, now)
                await self.table.audit(tx, game_id, now, actor, action, vote=vote.id, **detail)
                if action != "vote.ballot" or not vote.is_open:
                    await self._vote_changed(tx, game_id, ctx, book, vote, now, ph)
            await self.table.reschedule(game_id)
        await self.outbox.deliver()
        return vote.public_record(book.policy)

    async def propose_vote(
        self, game_id: int, user: str, kind: str, powers: Sequence[Power | str] = ()
    ) -> VoteRecord:
        """Propose a draw (of all survivors, or of `powers` where the rules allow) or a
        concession (`powers` = the one winner). Returns the public record (no author)."""
        power = await self.table.player_power(game_id, user)
        row, ctx, _ph = await self.table.open_phase_for_orders(game_id)
        try:
            vote_kind = VoteKind(kind)
        except ValueError:
            raise VoteRefusedError.of("unknown_vote", row.lang, kind=kind) from None
        named = [parse_power(p, ctx.game_map) for p in powers]

        async def step(
            tx: Repository, ph: PhaseState, book: VoteBook, moment: Moment
        ) -> tuple[VoteBook, Vote]:
            players = set(await self.table.players(tx, game_id))
            alive = [p for p in survivors(self.table.position_of(ph)) if p in players]
            return book.propose(power, vote_kind, moment=moment, survivors=alive, powers=named)

        return await self._vote_step(game_id, user, "vote.propose", step, kind=vote_kind.value)

    async def cast_ballot(self, game_id: int, user: str, vote_id: int, ballot: str) -> VoteRecord:
        """Vote yes / no / abstain (secret: only the tally is ever published, where the
        rules say so). Returns the vote's public record."""
        power = await self.table.player_power(game_id, user)
        row, _ctx, _ph = await self.table.open_phase_for_orders(game_id)
        try:
            choice = Ballot(ballot)
        except ValueError:
            raise VoteRefusedError.of("unknown_ballot", row.lang, ballot=ballot) from None

        async def step(
            _tx: Repository, _ph: PhaseState, book: VoteBook, moment: Moment
        ) -> tuple[VoteBook, Vote]:
            return book.cast(vote_id, power, choice, moment=moment)

        return await self._vote_step(game_id, user, "vote.ballot", step)

    async def refuse_vote(self, game_id: int, gm: str, vote_id: int, reason: str) -> VoteRecord:
        """GM: decline a repetitive or humorous proposal (house-rules IX(5))."""
        await self.table.require_gm(game_id, gm)

        async def step(
            _tx: Repository, ph: PhaseState, book: VoteBook, _moment: Moment
        ) -> tuple[VoteBook, Vote]:
            return book.refuse(vote_id, reason, phase=ph.phase)

        return await self._vote_step(game_id, gm, "vote.refuse", step, reason=reason)

    async def votes(self, game_id: int) -> list[VoteRecord]:
        """Every vote of the game as its public record (no author, no voter)."""
        await self.table.game_row(game_id)
        ctx = await self.table.load_ctx(game_id)
        async with self.table.storage.tx() as tx:
            book = await self._votebook(tx, game_id, ctx)
        return book.public_records()

    async def close_due(
        self, tx: Repository, game_id: int, ctx: GameCtx, ph: PhaseState, now: float
    ) -> bool:
        """Votes are due with the orders (house IX(4)): at the deadline the open vote is
        decided, an uncast ballot counting against. True if a passed vote ended the game."""
        state = await tx.votebook(game_id)
        if state is None or '"open"' not in state:
            return False
        book = await self._votebook(tx, game_id, ctx)
        book, vote = book.close_due(ph.phase)
        if vote is None:
            return False
        await self._save_book(tx, game_id, book, now)
        await self._vote_changed(tx, game_id, ctx, book, vote, now, ph)
        return bool(vote.status.value == "passed")
