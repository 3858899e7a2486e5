"""Parley's table service: games, secret orders, the phase clock, adjudication, events and
recovery, on SQLite. No Discord here: the bot, the demo and the tests all drive this API.

Rooms (a package per domain, one module per concern, in layers: a package reads only those
below it, tests/test_rooms.py; `TableService` in service.py is a thin facade over them;
docs/architecture.md follows one order through them)
    errors.py, texts.py, observe.py   the errors, the service's words, what it reports
    clock/            time: clocks.py, presets.py (the clock presets), schedule.py (deadlines at
                      a fixed local time in an IANA zone), rounds.py (a tournament round's
                      times), lateness.py (when a set is in time)
    storage/          the only SQL: `Storage`/`Repository` protocols (base.py) returning frozen
                      rows (rows.py), the SQLite implementation (sqlite.py), the connection,
                      file checks and migrations (connection.py, dbfile.py, migrations/);
                      PostgreSQL (postgres.py, migrations_pg/), the choice (opening.py),
                      `parley db copy` (copy.py), the JSON of typed orders (codec.py)
    engine.py, events.py   the seam to the core (parse, adjudicate, render); typed events
    table.py          the shared kernel: storage, clock, engine, per-game settings, locks and
                      due times, and the small steps every part takes (rows, audit, events)
    hidden/           Stab!: stab.py (what each viewer may know), views.py
    delivery/         outbox.py (events to the notifier after each commit, in order per game),
                      deliveries.py (what was posted where), ratelimit.py
    games/            lobby.py (create_game, join, assign, leave, start_game, set_meta),
                      queries.py (status, list_games, games_of, history, results, position,
                      audit_log), values.py (what the service returns), settings.py, access.py,
                      board.py, votes.py, missed.py, abbreviations.py, palettes.py, record.py
                      (/export), unreadable.py
    orders/           secret.py (submit, submit_for, clear_orders, my_orders, set_ready; the
                      advice on a set is pure: bot.core.writing.advice, secret.py words it),
                      intake.py, stab_sets.py, labels.py, early.py, order_map.py, builder.py
    phases/           phase_machine.py (open -> writing -> adjudicating -> done, reminders, the
                      end of a game), scheduler.py (recovery at start-up, due times, the loop,
                      next_due, run_due), gm.py (pause, resume, extend, adjudicate_now,
                      rollback, replace_player, end_game), absences.py (`Absences(svc)`),
                      compute.py, workers.py, lifeline.py (the work off the event loop)
    tournaments/      tournaments over many games (`Tournaments(svc)` in service.py), above the
                      facade: entries, seating, results, standings, export; it sees game
                      events through `outbox.hooks`

Opening
    svc = await TableService.open(path=None, *, clock=None, notifier=None, engine=None,
                                  executor=None, render=True, run=True, init_db=False,
                                  metrics=None, storage=None)
        path: SQLite file, or a postgresql:// URL (default `$PARLEY_DB` or ./parley.db);
        migrated at start-up.
        Raises StoreError (corrupt/foreign/newer database, an existing empty file unless
        `init_db`, a file held by another Parley [`<db>.lock`], a file that cannot be
        written: nothing is written to it) or ConfigError (missing map, rule or clock
        preset). `run=True` starts the scheduler (deadlines, reminders, delivery) on the
        running loop. `await svc.close()` at exit.
        clock: SystemClock() by default; FakeClock for tests (`advance(s)`, `set(t)`) and
        then `await svc.run_due()` (does what is due, delivers events); ScaledClock(factor).
        executor: None or "thread" (threads), "process" (a pool of worker processes the
        service owns, bot/service/phases/workers.py: adjudicating and drawing use every core; a
        broken pool restarts, the phase computed in a thread meanwhile; `parley run`'s
        default on two CPUs or more), or any concurrent.futures.Executor.
        metrics: called after each adjudication with {"adjudicate", "render", "compute"}
        (seconds; bench/deadline.py). storage: an opened `Storage` instead of the SQLite
        file at `path` (another backend; the crash tests wrap the SQLite one).
        A game whose rows cannot be read is reported in `status(id).broken` and its
        operations raise CorruptGameError; the other games run; its GM gets a game_broken
        event (payload why), the operator an ERROR log.
        Later storage failures (disk full, read-only, I/O error) raise StoreUnavailableError
        (a StoreError; `.message`: "nothing was saved") and log an ERROR.

Users are opaque strings (a Discord user id as str). Times are UTC epoch seconds (float).
Powers are `bot.core.model.Power` (a str enum; names in English or French are accepted).

Games
    await svc.create_game(gm, *, name="", clock="casual"|"edc2023"|..., rules="datc"|
        "edc2023"|"house"|"stabbeurfou"|..., lang="en"|"fr", variant="standard",
        clock_overrides={"fall_movement": {"negotiation": "10m"}, "years": 3,
        "reminders": ["5m"], "early_adjudication": True}, early_adjudication=None,
        meta={...}, stab_retreats=None|"phase"|"conditional") -> GameStatus
        (stab_retreats: under a hidden-movement preset, Stab! rule 4, fixed at creation;
        clock_overrides {"schedule": parse_schedule(text).to_json()}: deadlines at a fixed
        local time, bot.service.clock.schedule)
    await svc.join(game_id, user, power=None|"random"|Power|"france") -> Power
        (forming games only: after the start only the GM seats someone, replace_player)
    await svc.assign(game_id, gm, user, power) -> Power          (GM)
    await svc.leave(game_id, user) -> Power    (after the start the power is in civil
        disorder, its standing orders stay; refused once the game is over)
    await svc.start_game(game_id, gm) -> GameStatus              (GM)
    await svc.status(game_id) -> GameStatus    (phase, window, deadline, press_open, players,
        submitted [who, never what], ready, to_order, centers, units, broken...)
    await svc.list_games(include_over=False) / await svc.games_of(user) -> list[GameStatus]
    await svc.set_meta(game_id, key, value, by=user)   (free data for the bot: channel ids,
        ...; `by` the GM: any key, a player: "spectators", `bot.service.games.access.BOT` (the
        default): only the bot's own "press_lock"; else PermissionDeniedError)
    clock_names() (bot.service.clock.clocks), and bot.core.presets.list_presets() for autocomplete.

Orders (secret)
    await svc.submit(game_id, user, text, merge=False) -> SubmitReply(accepted, phase, power,
        orders [canonical readings in the game's language], errors, warnings, message, ...)
        A set with an unreadable order, an order for another power's unit (by the board at
        submission; rules with `proxy_orders` a/b allow it), or refused by the rule set
        (Stabbeurfou), is not saved and the previous orders stand. After the deadline:
        LateSubmissionError (nothing saved). More than 100 orders or 20,000 characters:
        ServiceError, nothing saved (`bot.service.orders.intake`); the set is read in a thread.
    await svc.clear_orders(game_id, user) -> SubmitReply
    await svc.my_orders(game_id, user) -> OrdersView(orders, submitted_at, warnings)
    await svc.set_ready(game_id, user, ready=True) -> bool (True: adjudicated early)
    await svc.phase_orders(game_id, viewer, phase_id=None) -> {Power: [orders]}
        (everyone's once the phase is adjudicated, else only the viewer's own)
    await svc.history(game_id, viewer, power=None) -> list[Submission] (own power; the GM
        sees all powers of adjudicated phases)
    await svc.results(game_id, phase_id=None) -> PhaseResults | None (outcome, lines, png)
    await svc.phases(game_id) -> list[PhaseInfo(id, phase, status, adjudicated_at)]
    await svc.power_of(game_id, user) -> Power | None
    await svc.position(game_id, phase_id=None, *, viewer=None) -> Position (the board a phase
        is played from, the current one by default; public; NotFoundError for another game's
        phase; Stab!: the GM `viewer` sees it all, a player its own units, others nothing)

Stab!, hidden movement (a preset with `hidden_movement`; bot.service.hidden: stab, views)
    While the game runs (`status.hidden`): sets are read against the player's own units
    (Spring 1901: placement lines first; conditional retreats `F PIC R BEL` if chosen);
    results_ready carries nothing of the board (payload "stab": {"phase_id"}, its png the
    public map); results() is sealed (no orders, no results), position() by viewer,
    phase_orders() one's own, status().units empty. Once over, everything opens.
    await svc.hidden_view(game_id, user, phase_id=None) -> HiddenView(phase_id, phase,
        viewer ["gm" | "public" | power], lines, png): what `user` may see of an adjudicated
        phase (the GM, and anyone once the game is over: everything)

End-game votes (bot.core.ending.votes; the rule set's policy: edc2023 section E, house IX, default)
    await svc.propose_vote(game_id, user, "draw"|"concede", powers=()) -> public record
        (a bot.core.ending.votes.VoteRecord: id, kind, powers, opened, status, closed, counts
        where published; never the author nor the voters)
    await svc.cast_ballot(game_id, user, vote_id, "yes"|"no"|"abstain") -> public record
    await svc.refuse_vote(game_id, gm, vote_id, reason) -> public record  (GM, house IX(5))
    await svc.votes(game_id) -> list of public records
    VoteRefusedError (an InvalidStateError) carries the rule's reason. Open votes are decided
    at the next deadline (uncast = against); edc2023 decides at once on a "no" or the last
    "yes". A passed vote ends the game (game_over reason "draw" | "concession"), instead of
    the adjudication when decided at a deadline (house IX(4)).

GM / tournament director (PermissionDeniedError for anyone else; all audited)
    pause(game_id, gm), resume(game_id, gm), extend(game_id, gm, seconds) -> deadline,
    adjudicate_now(game_id, gm), rollback(game_id, gm) -> phase reopened,
    replace_player(game_id, gm, power, user), submit_for(game_id, gm, power, text),
    end_game(game_id, gm, reason), audit_log(game_id, gm) -> list[AuditEntry],
    set_deadline(game_id, gm, at) -> deadline (earlier or later; the writing window keeps
    its length), edit_board(game_id, gm, "remove A PAR" | "place F BRE France" |
    "centre BEL Germany|none") [house VIII(2)/(3)], declare_draw(game_id, gm) -> survivors
    [house IX(2): only while the draw_available warning stands], missed_orders(game_id, gm)
    -> list[MissedOrders] (NMR per player and power, rolled-back phases left out; EDC D),
    set_abbreviations(game_id, gm, power, "wmed = WES; ...") -> {ABBR: location}
    [gm-order-correction I(1): kept in meta "abbreviations", expanded in that player's sets].
    rollback undoes only the last adjudication, and only before the next phase's first
    order (EDC E, stabbeurfou 4.E.6).

Events: implement `Notifier.notify(event: Event) -> None` (async). `Event` has id, key
(unique), attempt (> 0: an earlier delivery may have gone through just before a crash),
nonce(*parts) (a stable 25-char nonce per message: pass it to `channel.send(nonce=...)`,
discord.py then sets enforce_nonce and Discord drops the repeat), game_id, kind (EventKind:
game_started, window_opened, reminder_due, results_ready [payload lines/centers/next_phase/deadline;
.png bytes and .outcome], press_locked, press_unlocked, game_paused, game_resumed,
deadline_changed, phase_rolled_back, player_replaced, vote_opened, vote_closed [payload
record, text], draw_available [house IX(2)], board_edited [payload edit, phase],
abbreviations_agreed [payload power, abbreviations],
orders_missed [for the GM: powers, users without orders at the adjudication],
game_broken [payload why: a stored row cannot be read; for the GM],
game_over [payload reason: "solo" | "year limit" | "stalemate" | "draw" | "concession" |
the GM's text, winner,
centers, explanation]), phase, payload, created_at. Payload times are UTC epoch seconds
(window_opened: window "negotiation"|"writing", writing_at, deadline, press_open, to_order;
reminder_due: powers and users still without orders, seconds_left).
An event is marked delivered only when notify returns; if it raises (Discord not connected
yet, a 5xx) it is retried about 5 s later, in order within each game. Raise
TransientDeliveryError for an outage (one WARNING line); anything else is logged as an ERROR.
Delivery never holds the clock: the next phase opens from the adjudication time.

Deliveries (posting exactly once): `svc.deliveries` (bot.service.delivery.deliveries) records, per
event and destination (an opaque channel key), the message ids posted, with the
destination's delivered mark in the same transaction as the last one:
    await svc.deliveries.begin(event.id, event.game_id, dest, after) -> Delivery(message_ids,
        delivered, resumed [an earlier attempt began here: look for an unrecorded post], after)
    await svc.deliveries.posted(event.id, dest, part, message_id, last=bool)
    await svc.deliveries.claimed(message_ids) -> those already recorded for some delivery
    await svc.deliveries.of_event(event.id) -> list[Delivery]

Phase timeline (clock preset, data/clocks/*.toml): a phase opens (window_opened
negotiation, or writing when negotiation is 0) -> writing -> at the deadline the orders
freeze and the phase is adjudicated (results_ready) -> reading (status.phase is already the
next phase, phase_status "pending", window "reading", opens_at = end of reading) -> the next
phase opens. press_locked / press_unlocked come whenever press changes (EDC: locked while
orders are read, during retreats and adjustments).

Errors (all `ServiceError`, `.message` is fit for users): StoreError (StoreUnavailableError),
ConfigError,
NotFoundError, PermissionDeniedError, InvalidStateError, LateSubmissionError,
VoteRefusedError, CorruptGameError (one game unreadable; the others run).
"""

from bot.service.clock.clocks import FakeClock, ScaledClock, SystemClock
from bot.service.clock.presets import clock_names, load_clock
from bot.service.errors import (
    ConfigError,
    CorruptGameError,
    InvalidStateError,
    LateSubmissionError,
    NotFoundError,
    PermissionDeniedError,
    ServiceError,
    StoreError,
    StoreUnavailableError,
    VoteRefusedError,
)
from bot.service.events import (
    Event,
    EventKind,
    MemoryNotifier,
    Notifier,
    NullNotifier,
    TransientDeliveryError,
)
from bot.service.games.settings import GameSettings, parse_times
from bot.service.service import (
    AuditEntry,
    GameStatus,
    OrdersView,
    PhaseInfo,
    PhaseResults,
    Submission,
    SubmitReply,
    TableService,
)

# Issue 33: what this package's modules may import besides each other (tests/test_rooms.py).
MAY_IMPORT = (
    "bot.core",
    "renderer",
    "bot.service.clock",
    "bot.service.delivery",
    "bot.service.games",
    "bot.service.hidden",
    "bot.service.orders",
    "bot.service.phases",
    "bot.service.storage",
)

__all__ = [
    "AuditEntry",
    "ConfigError",
    "CorruptGameError",
    "Event",
    "EventKind",
    "FakeClock",
    "GameSettings",
    "GameStatus",
    "InvalidStateError",
    "LateSubmissionError",
    "MemoryNotifier",
    "NotFoundError",
    "Notifier",
    "NullNotifier",
    "OrdersView",
    "PermissionDeniedError",
    "PhaseInfo",
    "PhaseResults",
    "ScaledClock",
    "ServiceError",
    "StoreError",
    "StoreUnavailableError",
    "Submission",
    "SubmitReply",
    "SystemClock",
    "TableService",
    "TransientDeliveryError",
    "VoteRefusedError",
    "clock_names",
    "load_clock",
    "parse_times",
]
