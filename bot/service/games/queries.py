"""Read-only views of games: status, phases, results, orders, history, audit."""

from __future__ import annotations

import json
import logging
from typing import Any

from bot.core.model import (
    Position,
    Power,
)
from bot.core.writing.advice import to_order_powers
from bot.service.errors import (
    NotFoundError,
    PermissionDeniedError,
    StoreUnavailableError,
)
from bot.service.games.unreadable import unreadable_reason
from bot.service.games.values import (
    AuditEntry,
    GameStatus,
    PhaseInfo,
    PhaseResults,
    Submission,
)
from bot.service.hidden import stab as hidden
from bot.service.storage import codec
from bot.service.table import (
    Table,
    parse_power,
)

log = logging.getLogger(__name__)


class Queries:
    """What anyone may read of a game (secrecy: orders only once adjudicated, else one's own)."""

    def __init__(self, table: Table) -> None:
        self.table = table

    async def status(self, game_id: int) -> GameStatus:
        row = await self.table.storage.game(game_id)
        if row is None:
            raise NotFoundError.of("no_game", game=game_id)
        try:
            players = await self.table.players(self.table.storage, game_id)
            meta = json.loads(row.meta_json or "{}")
            if not isinstance(meta, dict):
                raise TypeError(f"meta is a {type(meta).__name__}")
        except (ValueError, TypeError) as exc:
            self.table.broken.setdefault(game_id, unreadable_reason(game_id, exc))
            players, meta = {}, {}
        base: dict[str, Any] = {
            "id": game_id,
            "name": row.name,
            "gm": row.gm,
            "variant": row.variant,
            "rules": row.rules,
            "clock": row.clock_name,
            "lang": row.lang,
            "status": row.status,
            "press_open": row.press_open,
            "players": players,
            "end_reason": row.end_reason,
            "meta": meta,
        }
        empty: dict[str, Any] = {
            "phase": None,
            "phase_id": None,
            "phase_status": None,
            "window": None,
            "opens_at": None,
            "writing_at": None,
            "deadline": None,
            "submitted": [],
            "ready": [],
            "to_order": [],
            "centers": {},
            "units": {},
            "early_adjudication": False,
        }
        if game_id in self.table.broken:
            return GameStatus(**base, **empty, broken=self.table.broken[game_id])
        try:
            ctx = await self.table.load_ctx(game_id)
            ph = await self.table.current_phase(game_id)
            position = self.table.position_of(ph) if ph else None
        except StoreUnavailableError:
            raise  # the storage, not this game
        except Exception as exc:  # noqa: BLE001 - one damaged game must not stop the others
            why = unreadable_reason(game_id, exc)
            if game_id not in self.table.broken:
                log.error("game %s cannot be read: %s", game_id, why)
            self.table.broken[game_id] = why
            return GameStatus(**base, **empty, broken=why)
        secret = ctx.rules.hidden_movement and row.status != "over"
        if ph is None or position is None:
            return GameStatus(**base, **{**empty, "early_adjudication": ctx.early}, hidden=secret)
        standing = await self.table.standing(ph.id)
        ready = await self.table.storage.ready_powers(ph.id)
        return GameStatus(
            **base,
            phase=ph.name,
            phase_id=ph.id,
            phase_status=ph.status,
            window=ph.window,
            opens_at=ph.opens_at,
            writing_at=ph.writing_at,
            deadline=ph.deadline,
            submitted=sorted(standing),
            ready=[Power(p) for p in ready],
            to_order=to_order_powers(position, ctx.game_map),
            centers={
                p: len(position.centers_of(p)) for p in position.powers() if position.centers_of(p)
            },
            # Stab!: the centre totals are public (rule 3), the units are not.
            units={}
            if secret
            else {p: len(position.units_of(p)) for p in position.powers() if position.units_of(p)},
            early_adjudication=ctx.early,
            error=self.table.errors.get(game_id),
            hidden=secret,
        )

    async def list_games(self, *, include_over: bool = False) -> list[GameStatus]:
        ids = await self.table.storage.game_ids(include_over=include_over)
        return [await self.status(gid) for gid in ids]

    async def games_of(self, user: str, *, include_over: bool = False) -> list[GameStatus]:
        """Games where `user` plays or is GM (the bot uses it to pick the game of a DM)."""
        ids = await self.table.storage.game_ids_of(user, include_over=include_over)
        return [await self.status(gid) for gid in ids]

    async def phase_orders(
        self, game_id: int, viewer: str, phase_id: int | None = None
    ) -> dict[Power, list[str]]:
        """Orders of a phase: all of them once adjudicated; before that only the viewer's."""
        await self.table.game_row(game_id)
        ctx = await self.table.load_ctx(game_id)
        if phase_id is None:
            ph = await self.table.current_phase(game_id)
            if ph is None:
                return {}
            phase_id = ph.id
        res = await self.table.storage.result(game_id, phase_id)
        if res is not None and not await self._secret(game_id):
            orders = codec.orders_from_json(json.loads(res.orders_json))
            out: dict[Power, list[str]] = {}
            for o in orders:
                if o.power is not None:
                    out.setdefault(o.power, []).append(
                        self.table.engine.render_order(o, ctx.lang, ctx.game_map)
                    )
            return out
        mine = await self.table.storage.power_of(game_id, viewer)
        if mine is None:
            return {}
        power = Power(mine)
        standing = await self.table.standing(phase_id)
        if power not in standing:
            return {}
        orders = codec.orders_from_json(json.loads(standing[power].orders_json))
        return {power: [self.table.engine.render_order(o, ctx.lang, ctx.game_map) for o in orders]}

    async def history(
        self, game_id: int, viewer: str, *, power: Power | str | None = None
    ) -> list[Submission]:
        """Every submission with its UTC time (disputes). A player sees their own power's;
        the GM sees every power's, but only for phases already adjudicated (secrecy)."""
        row = await self.table.game_row(game_id)
        is_gm = row.gm == viewer
        mine = await self.table.storage.power_of(game_id, viewer)
        own = Power(mine) if mine else None
        if not is_gm and own is None:
            raise PermissionDeniedError.of("not_player", row.lang, game=game_id)
        want = (
            parse_power(power, self.table.engine.load_map(row.variant))
            if power is not None
            else None
        )
        out = []
        for h in await self.table.storage.submissions_of_game(game_id):
            r = h.submission
            p = Power(r.power)
            if want is not None and p is not want:
                continue
            visible = p is own or (is_gm and h.adjudicated)
            if not visible:
                continue
            orders = codec.orders_from_json(json.loads(r.orders_json))
            out.append(
                Submission(
                    r.id,
                    h.phase,
                    p,
                    r.user_id,
                    r.kind,
                    r.text,
                    r.accepted,
                    [o.canonical() for o in orders],
                    json.loads(r.reply_json),
                    r.submitted_at,
                )
            )
        return out

    async def results(self, game_id: int, phase_id: int | None = None) -> PhaseResults | None:
        """Results of an adjudicated phase (the latest if `phase_id` is None); public."""
        await self.table.game_row(game_id)
        ctx = await self.table.load_ctx(game_id)
        row = await self.table.storage.result(game_id, phase_id)
        if row is None:
            return None
        outcome = codec.outcome_from_json(json.loads(row.outcome_json))
        orders = codec.orders_from_json(json.loads(row.orders_json))
        if await self._secret(game_id):  # Stab!: the public map only (hidden_view for more)
            outcome, orders = hidden.sealed(outcome), []
        by_power: dict[Power, list[str]] = {}
        for o in orders:
            if o.power is not None:
                by_power.setdefault(o.power, []).append(
                    self.table.engine.render_order(o, ctx.lang, ctx.game_map)
                )
        return PhaseResults(
            game_id,
            row.phase_id,
            row.phase,
            outcome,
            by_power,
            self.table.result_lines(ctx, outcome),
            row.png,
            row.adjudicated_at,
        )

    async def power_of(self, game_id: int, user: str) -> Power | None:
        """The power `user` plays in the game, if any."""
        power = await self.table.storage.power_of(game_id, user)
        return Power(power) if power else None

    async def phases(self, game_id: int) -> list[PhaseInfo]:
        """Every phase played, in order (rolled-back and skipped ones included, marked)."""
        await self.table.game_row(game_id)
        rows = await self.table.storage.phase_summaries(game_id)
        return [PhaseInfo(r.id, r.phase, r.status, r.adjudicated_at) for r in rows]

    async def position(
        self, game_id: int, phase_id: int | None = None, *, viewer: str | None = None
    ) -> Position:
        """The position a phase of this game is played from (the current one by default);
        public: the board everyone sees. NotFoundError for a phase of another game.
        Stab! while the game runs: the GM (`viewer`) sees it all, a player its own units
        and centres, anyone else no unit and no centre's owner."""
        game = await self.table.game_row(game_id)
        await self.table.load_ctx(game_id)
        row = await (
            self.table.storage.current_phase(game_id)
            if phase_id is None
            else self.table.storage.phase(phase_id)
        )
        if row is None or row.game_id != game_id:
            lang = await self.table.lang_of(game_id)
            raise NotFoundError.of("no_phase", lang, game=game_id)
        position = self.table.position_of(self.table.phase_from_row(row))
        if not await self._secret(game_id) or (viewer is not None and viewer == game.gm):
            return position
        mine = await self.table.storage.power_of(game_id, viewer) if viewer else None
        return hidden.own_view(position, Power(mine)) if mine else Position(position.phase)

    async def _secret(self, game_id: int) -> bool:
        """A Stab! game not over yet: its board is hidden (issue 14)."""
        row = await self.table.game_row(game_id)
        ctx = await self.table.load_ctx(game_id)
        return ctx.rules.hidden_movement and row.status != "over"

    async def audit_log(self, game_id: int, viewer: str) -> list[AuditEntry]:
        await self.table.require_gm(game_id, viewer)
        rows = await self.table.storage.audit(game_id)
        return [AuditEntry(r.id, r.at, r.actor, r.action, json.loads(r.detail_json)) for r in rows]
