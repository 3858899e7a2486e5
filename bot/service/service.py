"""The table service: one facade over its parts, each in its own module.

    table.py              the shared kernel: storage, clock, engine, per-game settings, locks
    games/lobby.py        create, join, assign, leave, start, meta
    orders/secret.py      secret orders and ready marks
    games/queries.py      status, phases, results, orders of a phase, history, audit, position
    phases/phase_machine  open -> writing -> adjudicating -> done, reminders, end of game
    phases/scheduler.py   recovery at start-up, due times, the loop
    phases/gm.py          GM operations
    delivery/outbox.py    delivery of events to the notifier
    games/votes.py        end-game votes
    storage/              all the SQL (the `Storage` interface, SQLite and PostgreSQL)

Everything durable is in the storage; the parts only cache what they can re-read. A phase row
moves pending (reading of the previous phase) -> open (negotiation, then writing) ->
adjudicating (closed, orders frozen) -> done. Each move is one transaction that also writes
the events announcing it to the outbox; events are delivered after the commit. A process that
dies anywhere restarts from the rows: an `adjudicating` phase is adjudicated again from its
frozen orders (its results row is the idempotence key), a deadline that passed while down
fires once, and undelivered events are delivered.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import Executor
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

from bot.core.ending.votes import VoteRecord
from bot.core.model import Position, Power
from bot.service.clock.clocks import Clock, SystemClock
from bot.service.clock.lateness import GRACE, Receipt
from bot.service.clock.presets import load_clock
from bot.service.delivery.deliveries import Deliveries
from bot.service.delivery.outbox import Outbox
from bot.service.delivery.ratelimit import SharedRate
from bot.service.engine import CoreEngine, Engine, bundled_variants
from bot.service.errors import ConfigError, StoreError, StoreUnavailableError
from bot.service.events import Notifier, NullNotifier
from bot.service.games.lobby import Lobby
from bot.service.games.missed import missed_counts
from bot.service.games.palettes import Palettes
from bot.service.games.queries import Queries
from bot.service.games.settings import GameSettings, game_settings
from bot.service.games.values import (
    AuditEntry,
    GameStatus,
    MissedOrders,
    OrdersView,
    PhaseInfo,
    PhaseResults,
    Submission,
    SubmitReply,
)
from bot.service.games.votes import Votes
from bot.service.hidden.views import HiddenReplay, HiddenView, HiddenViews
from bot.service.orders.builder import Builder
from bot.service.orders.secret import Orders, Seat
from bot.service.phases.gm import GmTools
from bot.service.phases.phase_machine import Metrics, PhaseMachine
from bot.service.phases.scheduler import Scheduler
from bot.service.phases.workers import ComputePool
from bot.service.storage import Storage
from bot.service.storage.opening import open_storage
from bot.service.table import Table

__all__ = [
    "AuditEntry",
    "GameStatus",
    "OrdersView",
    "PhaseInfo",
    "PhaseResults",
    "Submission",
    "SubmitReply",
    "TableService",
]


class TableService:
    """Open with `await TableService.open(path, ...)`; see the package docstring for the API.
    Each method hands over to the part that owns it (module list above)."""

    def __init__(
        self,
        storage: Storage,
        *,
        clock: Clock | None = None,
        notifier: Notifier | None = None,
        engine: Engine | None = None,
        executor: Executor | str | None = None,
        render: bool = True,
        metrics: Metrics | None = None,
        grace: float = GRACE,
    ) -> None:
        self.storage: Storage = storage
        self.clock: Clock = clock or SystemClock()
        self.engine: Engine = engine or CoreEngine()
        # Adjudication and rendering run off the loop: in the default thread pool, in the
        # given executor, or with "process" in a pool of processes (one per CPU) that the
        # service owns: rendering is CPU-bound and a process pool uses every core.
        self._own_executor = isinstance(executor, str)
        if isinstance(executor, str) and executor not in ("process", "thread"):
            raise ConfigError(
                f"unknown executor {executor!r} (use 'process', 'thread' or an Executor)"
            )
        self.executor: Executor | None = None  # "thread": asyncio's default thread pool
        if executor == "process":
            self.executor = ComputePool()
        elif not isinstance(executor, str):
            self.executor = executor
        self.deliveries = Deliveries(storage, self.clock)
        self.table = Table(storage, self.clock, self.engine, grace)
        # The bot's global rate limit, shared with the other processes on this database.
        self.rate = SharedRate(storage, owner=self.table.owner) if storage.shared else None
        self.outbox = Outbox(self.table, notifier or NullNotifier())
        self.voting = Votes(self.table, self.outbox)
        self.machine = PhaseMachine(self.table, self.voting, self.executor, render, metrics)
        self.queries = Queries(self.table)
        self.hidden = HiddenViews(self.table)
        self.scheduler = Scheduler(self.table, self.machine, self.outbox, self.queries)
        self.lobby = Lobby(self.table, self.queries)
        self.orders = Orders(self.table, self.scheduler, self.outbox)
        self.gm = GmTools(self.table, self.machine, self.outbox)
        self.palettes = Palettes(self.table)
        self.builder = Builder(self.table, self.orders)  # issue 30: orders from menus

    @property
    def notifier(self) -> Notifier:
        return self.outbox.notifier

    @notifier.setter
    def notifier(self, notifier: Notifier) -> None:
        self.outbox.notifier = notifier

    # --- life cycle -------------------------------------------------------------------

    @classmethod
    async def open(
        cls,
        path: str | Path | None = None,
        *,
        clock: Clock | None = None,
        notifier: Notifier | None = None,
        engine: Engine | None = None,
        executor: Executor | str | None = None,
        render: bool = True,
        run: bool = True,
        metrics: Metrics | None = None,
        init_db: bool = False,
        storage: Storage | None = None,
        grace: float = GRACE,
    ) -> TableService:
        """Open (and migrate) the database, check the data files, recover, and with `run`
        start the scheduler. Errors: StoreError (bad database), ConfigError (data files).
        `init_db`: an existing empty file may become a new database (else it is refused).
        `storage`: an opened storage to use instead of the SQLite file at `path`.
        `grace`: seconds a phase stays open after its deadline for orders sent before it
        (bot.service.clock.lateness)."""
        engine = engine or CoreEngine()
        # The bundled presets and variants (what /game create offers) must load before anything
        # else happens; each game's own variant is checked with the game (`recover`): a
        # broken one stops only its games.
        for variant in bundled_variants():
            engine.load_map(variant)
        engine.load_rules("datc")
        for name in ("edc2023", "casual"):
            load_clock(name)
        store = storage or await open_storage(path, init=init_db)
        svc = cls(
            store,
            clock=clock,
            notifier=notifier,
            engine=engine,
            executor=executor,
            render=render,
            metrics=metrics,
            grace=grace,
        )
        try:
            await svc.scheduler.recover()
        except StoreUnavailableError as exc:
            svc._stop_executor()
            await store.close()
            raise StoreError(
                f"{store.path} cannot be read at start-up ({exc.__cause__}); nothing was "
                "changed: restore the file from a backup or repair it"
            ) from None
        except BaseException:
            svc._stop_executor()
            await store.close()
            raise
        if run:
            svc.start()
        return svc

    def start(self) -> None:
        """Start the scheduler task (deadlines, reminders, delivery)."""
        self.scheduler.start()

    async def close(self) -> None:
        await self.scheduler.stop()
        self.table.intake.stop()
        self._stop_executor()
        await self.storage.close()

    def _stop_executor(self) -> None:
        """Stop the worker processes if the service started them (`executor="process"`)."""
        if self._own_executor and self.executor is not None:
            self.executor.shutdown(wait=False, cancel_futures=True)

    # --- games --------------------------------------------------------------------

    async def create_game(
        self,
        gm: str,
        *,
        name: str = "",
        clock: str = "casual",
        rules: str = "datc",
        lang: str = "en",
        variant: str = "standard",
        clock_overrides: dict[str, Any] | None = None,
        early_adjudication: bool | None = None,
        meta: dict[str, Any] | None = None,
        stab_retreats: str | None = None,
    ) -> GameStatus:
        return await self.lobby.create_game(
            gm,
            name=name,
            clock=clock,
            rules=rules,
            lang=lang,
            variant=variant,
            clock_overrides=clock_overrides,
            early_adjudication=early_adjudication,
            meta=meta,
            stab_retreats=stab_retreats,
        )

    async def join(self, game_id: int, user: str, power: Power | str | None = None) -> Power:
        return await self.lobby.join(game_id, user, power)

    async def assign(self, game_id: int, gm: str, user: str, power: Power | str) -> Power:
        return await self.lobby.assign(game_id, gm, user, power)

    async def leave(self, game_id: int, user: str) -> Power:
        return await self.lobby.leave(game_id, user)

    async def start_game(self, game_id: int, gm: str) -> GameStatus:
        return await self.lobby.start_game(game_id, gm)

    async def set_meta(self, game_id: int, key: str, value: Any, *, by: str) -> None:
        await self.lobby.set_meta(game_id, key, value, by=by)

    # --- reading ------------------------------------------------------------------

    async def status(self, game_id: int) -> GameStatus:
        return await self.queries.status(game_id)

    async def list_games(self, *, include_over: bool = False) -> list[GameStatus]:
        return await self.queries.list_games(include_over=include_over)

    async def games_of(self, user: str, *, include_over: bool = False) -> list[GameStatus]:
        return await self.queries.games_of(user, include_over=include_over)

    async def phase_orders(
        self, game_id: int, viewer: str, phase_id: int | None = None
    ) -> dict[Power, list[str]]:
        return await self.queries.phase_orders(game_id, viewer, phase_id)

    async def history(
        self, game_id: int, viewer: str, *, power: Power | str | None = None
    ) -> list[Submission]:
        return await self.queries.history(game_id, viewer, power=power)

    async def results(self, game_id: int, phase_id: int | None = None) -> PhaseResults | None:
        return await self.queries.results(game_id, phase_id)

    async def power_of(self, game_id: int, user: str) -> Power | None:
        return await self.queries.power_of(game_id, user)

    async def phases(self, game_id: int) -> list[PhaseInfo]:
        return await self.queries.phases(game_id)

    async def position(
        self, game_id: int, phase_id: int | None = None, *, viewer: str | None = None
    ) -> Position:
        return await self.queries.position(game_id, phase_id, viewer=viewer)

    async def hidden_view(
        self, game_id: int, user: str, phase_id: int | None = None, *, palette: str = ""
    ) -> HiddenView:
        """Stab!: what `user` may see of an adjudicated phase (bot.service.hidden.views)."""
        return await self.hidden.view(game_id, user, phase_id, palette=palette)

    async def hidden_replay(self, game_id: int, user: str) -> HiddenReplay:
        """Stab!: every adjudicated phase as `user` may see it, for a replay GIF."""
        return await self.hidden.replay(game_id, user)

    async def game_settings(self, game_id: int) -> GameSettings:
        return await game_settings(self.table, game_id)

    async def audit_log(self, game_id: int, viewer: str) -> list[AuditEntry]:
        return await self.queries.audit_log(game_id, viewer)

    async def missed_orders(self, game_id: int, gm: str) -> list[MissedOrders]:
        """The GM's count of missed orders (NMR) per player (EDC D, house VII(6))."""
        await self.table.require_gm(game_id, gm)
        return await missed_counts(self.table, game_id)

    # --- orders -------------------------------------------------------------------

    async def submit(
        self,
        game_id: int,
        user: str,
        text: str,
        *,
        merge: bool = False,
        sent_at: float | None = None,
        receipt: Receipt | None = None,
    ) -> SubmitReply:
        return await self.orders.submit(
            game_id, user, text, merge=merge, sent_at=sent_at, receipt=receipt
        )

    def receiving(self, user: str, created_at: float | None) -> AbstractContextManager[Receipt]:
        """`with service.receiving(user, message_time) as receipt:` around the reading of a
        set from its arrival, `submit(..., receipt=receipt)` inside: a phase due to close
        waits for it if it was sent in time (bot.service.clock.lateness.Intake)."""
        return self.table.intake.receiving(user, created_at)

    async def seats(self, user: str) -> list[Seat]:
        """The running games `user` plays in (light: what a DM's reply names)."""
        return await self.orders.seats(user)

    async def seat(self, game_id: int) -> Seat:
        return await self.orders.seat(game_id)

    def follow_gateway(self, fence: Callable[[], Awaitable[None]] | None) -> None:
        """The bot's catch-up with its Discord gateway (bot.discord_app.gateway): with a
        grace, a phase closes once the bot has read what Discord sent before the grace
        ended, however busy it was (bot.service.clock.lateness); None: the grace is fixed."""
        self.table.intake.fence = fence

    async def submit_for(self, game_id: int, gm: str, power: Power | str, text: str) -> SubmitReply:
        return await self.orders.submit_for(game_id, gm, power, text)

    async def clear_orders(self, game_id: int, user: str) -> SubmitReply:
        return await self.orders.clear_orders(game_id, user)

    async def my_orders(self, game_id: int, user: str) -> OrdersView:
        return await self.orders.my_orders(game_id, user)

    async def orders_map(
        self, game_id: int, user: str, *, palette: str = "", quiet: float = 0.0
    ) -> bytes | None:
        return await self.orders.orders_map(game_id, user, palette=palette, quiet=quiet)

    async def set_ready(self, game_id: int, user: str, ready: bool = True) -> bool:
        return await self.orders.set_ready(game_id, user, ready)

    # --- map palettes chosen from Discord (bot.service.games.palettes) -------------------

    async def user_palette(self, user: str) -> str | None:
        return await self.palettes.of_user(user)

    async def set_user_palette(self, user: str, palette: str | None) -> None:
        await self.palettes.set_user(user, palette)

    async def server_palette(self, server: str) -> str | None:
        return await self.palettes.of_server(server)

    async def set_server_palette(self, server: str, palette: str | None) -> None:
        await self.palettes.set_server(server, palette)

    # --- the clock ----------------------------------------------------------------

    async def next_due(self, game_id: int) -> float | None:
        return await self.scheduler.next_due(game_id)

    async def run_due(self) -> int:
        return await self.scheduler.run_due()

    # --- delivery -----------------------------------------------------------------

    async def deliver(self) -> int:
        return await self.outbox.deliver()

    # --- end-game votes -----------------------------------------------------------

    async def propose_vote(
        self, game_id: int, user: str, kind: str, powers: Sequence[Power | str] = ()
    ) -> VoteRecord:
        return await self.voting.propose_vote(game_id, user, kind, powers)

    async def cast_ballot(self, game_id: int, user: str, vote_id: int, ballot: str) -> VoteRecord:
        return await self.voting.cast_ballot(game_id, user, vote_id, ballot)

    async def refuse_vote(self, game_id: int, gm: str, vote_id: int, reason: str) -> VoteRecord:
        return await self.voting.refuse_vote(game_id, gm, vote_id, reason)

    async def votes(self, game_id: int) -> list[VoteRecord]:
        return await self.voting.votes(game_id)

    # --- GM and tournament-director operations ------------------------------------

    async def pause(self, game_id: int, gm: str) -> None:
        await self.gm.pause(game_id, gm)

    async def resume(self, game_id: int, gm: str) -> None:
        await self.gm.resume(game_id, gm)

    async def extend(self, game_id: int, gm: str, seconds: float) -> float | None:
        return await self.gm.extend(game_id, gm, seconds)

    async def adjudicate_now(self, game_id: int, gm: str) -> None:
        await self.gm.adjudicate_now(game_id, gm)

    async def set_abbreviations(
        self, game_id: int, gm: str, power: Power | str, text: str
    ) -> dict[str, str]:
        return await self.gm.set_abbreviations(game_id, gm, power, text)

    async def edit_board(self, game_id: int, gm: str, text: str) -> None:
        await self.gm.edit_board(game_id, gm, text)

    async def set_deadline(self, game_id: int, gm: str, at: float) -> float | None:
        return await self.gm.set_deadline(game_id, gm, at)

    async def declare_draw(self, game_id: int, gm: str) -> list[str]:
        return await self.gm.declare_draw(game_id, gm)

    async def rollback(self, game_id: int, gm: str) -> str:
        return await self.gm.rollback(game_id, gm)

    async def replace_player(self, game_id: int, gm: str, power: Power | str, user: str) -> None:
        await self.gm.replace_player(game_id, gm, power, user)

    async def end_game(self, game_id: int, gm: str, reason: str = "ended by the GM") -> None:
        await self.gm.end_game(game_id, gm, reason)
