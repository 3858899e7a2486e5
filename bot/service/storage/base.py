"""The storage interface: everything the service keeps, behind one typed repository.

`Storage` is what `TableService` holds; `async with storage.tx() as tx:` gives a `Repository`
whose statements run in one transaction (all or nothing, serialised with every other). Reads
may also run on `Storage` itself, outside a transaction. Writes only in a transaction.
Implementations: SQLite (`bot.service.storage.sqlite`, the default) and PostgreSQL
(`bot.service.storage.postgres`); `opening.open_storage` picks one from the target's name.
Both pass `tests/bot/service/storage/` and the whole service suite.
"""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Protocol

from bot.service.storage.boards import BoardRepo
from bot.service.storage.claims import ClaimsRepository, Coordination
from bot.service.storage.drafts import DraftRepo
from bot.service.storage.early import EarlyOrdersRepo
from bot.service.storage.health import HealthRepo
from bot.service.storage.palettes import PaletteRepo
from bot.service.storage.rows import (
    AuditRow,
    DeliveryRow,
    GameRow,
    HistoryRow,
    NewGame,
    NewResult,
    OutboxRow,
    PhaseRow,
    PhaseSummary,
    PlayedPhase,
    ResultRow,
    SubmissionRow,
)
from bot.service.storage.tournaments import TournamentRepository


class Repository(
    TournamentRepository,
    ClaimsRepository,
    EarlyOrdersRepo,
    PaletteRepo,
    DraftRepo,
    BoardRepo,
    HealthRepo,
    Protocol,
):
    """The statements on games, players, phases, submissions, results, outbox, audit, votes."""

    # --- games --------------------------------------------------------------------

    async def game(self, game_id: int) -> GameRow | None: ...

    async def game_ids(
        self, *, statuses: tuple[str, ...] = (), include_over: bool = True
    ) -> list[int]:
        """Games by id; `statuses` keeps only those, `include_over=False` leaves out ended ones."""
        ...

    async def game_ids_of(self, user: str, *, include_over: bool) -> list[int]:
        """Games where `user` plays or is GM."""
        ...

    async def add_game(self, game: NewGame) -> int:
        """A forming game; without a name it is called `game-<id>`."""
        ...

    async def start_game(self, game_id: int, at: float, phase_id: int) -> None: ...

    async def set_current_phase(self, game_id: int, phase_id: int) -> None: ...

    async def reopen_game(self, game_id: int, phase_id: int) -> None:
        """After a rollback: `phase_id` is current and an ended game runs again."""
        ...

    async def pause_game(self, game_id: int, at: float) -> None: ...

    async def resume_game(self, game_id: int) -> None: ...

    async def end_game(self, game_id: int, at: float, reason: str) -> None: ...

    async def set_press_open(self, game_id: int, press_open: bool) -> None: ...

    async def set_meta_json(self, game_id: int, meta_json: str) -> None: ...

    # --- players ------------------------------------------------------------------

    async def players(self, game_id: int) -> dict[str, str]:
        """power -> user, by power."""
        ...

    async def power_of(self, game_id: int, user: str) -> str | None: ...

    async def user_of(self, game_id: int, power: str) -> str | None: ...

    async def add_player(self, game_id: int, power: str, user: str, at: float) -> None: ...

    async def remove_user(self, game_id: int, user: str) -> None: ...

    async def remove_power(self, game_id: int, power: str) -> None: ...

    # --- phases -------------------------------------------------------------------

    async def phase(self, phase_id: int) -> PhaseRow | None: ...

    async def current_phase(self, game_id: int) -> PhaseRow | None: ...

    async def last_done_before(self, game_id: int, phase_id: int) -> PhaseRow | None:
        """The latest adjudicated phase before `phase_id`."""
        ...

    async def line_of_play(self, game_id: int) -> list[tuple[str, str]]:
        """(phase, position_json) of the phases in the game's line of play, in order."""
        ...

    async def phase_summaries(self, game_id: int) -> list[PhaseSummary]: ...

    async def played_phases(self, game_id: int, *, adjudicated_only: bool) -> list[PlayedPhase]:
        """The game as played (rolled-back rows left out), with results; `adjudicated_only`:
        the done and skipped phases only."""
        ...

    async def add_phase(  # noqa: PLR0917
        self,
        game_id: int,
        phase: str,
        position_json: str,
        status: str,
        window: str,
        opens_at: float | None,
        at: float,
    ) -> int: ...

    async def open_phase(
        self, phase_id: int, window: str, opens_at: float, writing_at: float, deadline: float
    ) -> bool:
        """pending -> open; False if it was not pending."""
        ...

    async def start_writing(self, phase_id: int) -> bool:
        """negotiation -> writing in an open phase; False if it was not."""
        ...

    async def close_phase(self, phase_id: int, at: float) -> None:
        """Orders frozen: the phase is to be adjudicated."""
        ...

    async def mark_phase_done(self, phase_id: int) -> None: ...

    async def mark_phase_final(self, phase_id: int) -> None:
        """The game ended in this phase (unless it was already adjudicated)."""
        ...

    async def roll_back_from(self, game_id: int, phase_id: int) -> None: ...

    async def deadline_now(self, phase_id: int, at: float) -> None:
        """Everyone is ready: the open phase's deadline is now."""
        ...

    async def set_opens_at(self, phase_id: int, at: float) -> None: ...

    async def set_position(self, phase_id: int, position_json: str) -> None:
        """A GM's board edit: the phase (not yet adjudicated) starts from this position."""
        ...

    async def shift_phase(self, phase_id: int, seconds: float) -> None:
        """Every time of the phase moves by `seconds` (a resumed pause)."""
        ...

    async def extend_phase(self, phase_id: int, seconds: float, window: str) -> None:
        """The current window gets `seconds` more: "pending" (reading), "negotiation" or
        "writing"."""
        ...

    # --- submissions and ready marks ----------------------------------------------

    async def standing(self, phase_id: int) -> list[SubmissionRow]:
        """The latest accepted submission of each power in a phase."""
        ...

    async def add_submission(  # noqa: PLR0917
        self,
        phase_id: int,
        power: str,
        user: str,
        kind: str,
        text: str,
        accepted: bool,
        orders_json: str,
        reply_json: str,
        at: float,
    ) -> int: ...

    async def submissions_of_game(self, game_id: int) -> list[HistoryRow]: ...

    async def ready_powers(self, phase_id: int) -> list[str]: ...

    async def set_ready(self, phase_id: int, power: str, at: float | None) -> None:
        """Mark `power` ready at `at`, or not ready (None)."""
        ...

    # --- results ------------------------------------------------------------------

    async def result(self, game_id: int, phase_id: int | None) -> ResultRow | None:
        """The results of a phase of this game, or (None) of its latest adjudicated phase."""
        ...

    async def add_result(self, result: NewResult) -> None: ...

    # --- outbox (events to deliver) -----------------------------------------------

    async def add_event(  # noqa: PLR0917
        self,
        key: str,
        game_id: int,
        kind: str,
        payload_json: str,
        phase_id: int | None,
        at: float,
        delivered_at: float | None = None,
    ) -> None:
        """Once per key (a repeat is ignored); `delivered_at`: recorded as already handled."""
        ...

    async def pending_events(self) -> list[OutboxRow]: ...

    async def has_pending_events(self) -> bool: ...

    async def event_keys(self, game_id: int, phase_id: int, kind: str) -> set[str]: ...

    async def event_payload(self, key: str) -> str | None: ...

    async def count_attempt(self, event_id: int) -> None: ...

    async def mark_delivered(self, event_id: int, at: float) -> None: ...

    # --- deliveries per (event, destination) -------------------------------------------

    async def begin_delivery(
        self, event_id: int, dest: str, game_id: int, after: str | None, at: float
    ) -> bool:
        """Record that `event_id` is being posted to `dest`; False if it already was."""
        ...

    async def delivery(self, event_id: int, dest: str) -> DeliveryRow | None: ...

    async def record_post(  # noqa: PLR0917
        self, event_id: int, dest: str, part: int, message_id: str, at: float, last: bool
    ) -> None:
        """One posted message; `last` also marks the destination delivered."""
        ...

    async def claimed_messages(self, message_ids: list[str]) -> set[str]:
        """Those of `message_ids` recorded for some delivery."""
        ...

    async def delivery_dests(self, event_id: int) -> list[str]:
        """The destinations of an event, in the order they were begun."""
        ...

    # --- audit --------------------------------------------------------------------

    async def add_audit(
        self, game_id: int, at: float, actor: str, action: str, detail_json: str
    ) -> int: ...

    async def audit(self, game_id: int) -> list[AuditRow]: ...

    # --- votes --------------------------------------------------------------------

    async def votebook(self, game_id: int) -> str | None:
        """The game's vote book state (JSON), if it has one."""
        ...

    async def save_votebook(self, game_id: int, state_json: str, at: float) -> None: ...


class Storage(Repository, Coordination, Protocol):
    """A repository with transactions and a life cycle."""

    @property
    def path(self) -> Path:
        """Where the data lives (for messages)."""
        ...

    def tx(self, *, durable: bool = True) -> AbstractAsyncContextManager[Repository]:
        """One transaction; `durable=False` may be undone by a power cut (never by a crash):
        only for writes that are harmless to redo."""
        ...

    async def close(self) -> None: ...
