"""Stab! (issue 14) over the stored game: what one user may see of an adjudicated phase.

The viewer is chosen here from who asks, never passed in: the GM sees everything, a player
their power's view (the public report, their private report, a map of their units and of
what the report revealed), anyone else the public view. Once the game is over the whole
history opens to all. Deterministic: a redelivered message says and draws the same.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass

from bot.core.model import Phase, PhaseKind, Position, Power
from bot.core.orders import Order
from bot.core.outcome import OrderResult
from bot.core.records.jsonio import position_from_json
from bot.core.stab.views import GM, Sight
from bot.service.errors import NotFoundError
from bot.service.hidden import stab as hidden
from bot.service.storage import codec
from bot.service.storage.rows import PlayedPhase
from bot.service.table import GameCtx, Table


async def hidden_mode(table: Table, game_id: int, ctx: GameCtx) -> str:
    """ "" for a game without hidden movement, else its retreat mode (rule 4)."""
    if not ctx.rules.hidden_movement:
        return ""
    row = await table.game_row(game_id)
    return hidden.retreat_mode(json.loads(row.options_json or "{}"))


async def reveal_preferences(table: Table, phase_id: int, ctx: GameCtx) -> dict[Power, list[str]]:
    """Rule 2: the order each power asked its surplus hold supports revealed in (`REVEAL`
    lines of the set that stands, in the game's nomenclature)."""
    standing = await table.standing(phase_id)
    return {
        p: found
        for p, row in standing.items()
        if (found := hidden.reveal_order(row.text, ctx.game_map, ctx.lang))
    }


@dataclass(frozen=True, slots=True)
class HiddenReplay:
    """A replay as one viewer may see it: one frame (board, orders, results) and its sight
    per adjudicated phase, for `renderer.render_gif(frames, sights=sights)`."""

    frames: list[tuple[Position, list[Order], list[OrderResult]]]
    sights: list[Sight]


@dataclass(frozen=True, slots=True)
class HiddenView:
    """One viewer's view of one phase: the lines they are told and their map."""

    phase_id: int
    phase: str
    viewer: str  # "gm", "public", or the power's name
    lines: list[str]
    png: bytes | None


def _settled(rows: list[PlayedPhase], i: int, mode: str) -> PlayedPhase | None:
    """The retreat phase settled with movement row `i` (conditional retreats, rule 4): the
    skipped row right after it, of the same season."""
    if mode != hidden.CONDITIONAL or i + 1 >= len(rows):
        return None
    nxt = rows[i + 1]
    here, then = Phase.parse(rows[i].phase), Phase.parse(nxt.phase)
    same = then.year == here.year and then.season is here.season
    if nxt.status == "skipped" and then.kind is PhaseKind.RETREAT and same:
        return nxt
    return None


class HiddenViews:
    def __init__(self, table: Table) -> None:
        self.table = table

    async def viewer(self, game_id: int, user: str) -> Power | str | None:
        row = await self.table.game_row(game_id)
        if row.gm == user or row.status == "over":
            return GM  # "When the game ends the full history opens to all" (issue 14)
        mine = await self.table.storage.power_of(game_id, user)
        return Power(mine) if mine else None

    async def view(
        self, game_id: int, user: str, phase_id: int | None = None, *, palette: str = ""
    ) -> HiddenView:
        """What `user` may see of an adjudicated phase (the latest by default) of a Stab!
        game. NotFoundError if there is no such phase."""
        row = await self.table.game_row(game_id)
        ctx = await self.table.load_ctx(game_id)
        mode, rows, found = await self._done(game_id, ctx, phase_id)
        r = rows[found[-1]]
        played = await self._played(ctx, mode, rows, found[-1])
        viewer = await self.viewer(game_id, user)
        lines = hidden.view_lines(played, viewer, ctx.game_map, ctx.lang)
        palette = palette or str(json.loads(row.meta_json).get("palette") or "default")
        png = await asyncio.to_thread(
            hidden.draw, self.table.engine, ctx.game_map, played, viewer, ctx.lang, palette
        )
        name = viewer.value if isinstance(viewer, Power) else viewer or "public"
        return HiddenView(r.id, r.phase, name, lines, png)

    async def replay(self, game_id: int, user: str) -> HiddenReplay:
        """Every adjudicated phase of a Stab! game as `user` may see it (each phase's map of
        `view`), for an animated replay. The board after the last phase is not a frame: a
        viewer sees a board only through a phase's report. NotFoundError if none yet."""
        ctx = await self.table.load_ctx(game_id)
        mode, rows, found = await self._done(game_id, ctx, None)
        viewer = await self.viewer(game_id, user)
        frames: list[tuple[Position, list[Order], list[OrderResult]]] = []
        sights: list[Sight] = []
        for i in found:
            played = await self._played(ctx, mode, rows, i)
            position, seen = hidden.seen_board(ctx.game_map, played, viewer)
            frames.append((position, list(seen.orders), list(seen.results)))
            sights.append(seen)
        return HiddenReplay(frames, sights)

    async def _done(
        self, game_id: int, ctx: GameCtx, phase_id: int | None
    ) -> tuple[str, list[PlayedPhase], list[int]]:
        """The game's retreat mode, its played rows and the indexes of the adjudicated ones
        (only `phase_id`'s if given); NotFoundError if none or not a Stab! game."""
        mode = await hidden_mode(self.table, game_id, ctx)
        rows = await self.table.storage.played_phases(game_id, adjudicated_only=True)
        found = [
            i
            for i, r in enumerate(rows)
            if r.result is not None
            and r.status == "done"
            and (phase_id is None or r.id == phase_id)
        ]
        if not mode or not found:
            raise NotFoundError.of("no_phase", ctx.lang, game=game_id)
        return mode, rows, found

    async def _played(
        self, ctx: GameCtx, mode: str, rows: list[PlayedPhase], i: int
    ) -> hidden.Played:
        """Row `i` played again from what is stored: its board, orders, outcome, report."""
        r = rows[i]
        assert r.result is not None
        settled_row = _settled(rows, i, mode)
        position = position_from_json(json.loads(r.position_json), ctx.game_map)
        orders = codec.orders_from_json(json.loads(r.result.orders_json))
        outcome = codec.outcome_from_json(json.loads(r.result.outcome_json))
        settled = None
        if settled_row is not None and settled_row.result is not None:
            settled = codec.outcome_from_json(json.loads(settled_row.result.outcome_json))
        prepared = hidden.prepare(position, orders)
        nmr = hidden.nmr_powers(position, orders, ctx.game_map)
        prefs = await reveal_preferences(self.table, r.id, ctx)
        report = hidden.report_of(prepared, outcome, settled, nmr, ctx.game_map, ctx.lang, prefs)
        return hidden.Played(prepared.position, prepared.orders, outcome, settled, report)
