"""Missed orders (NMR): each one recorded, told to the GM, counted per player.

house VII(6): "Players failing to submit orders must contact the GM within [24] hours of the
publication of the adjudication, or the GM will arrange for a replacement" - the GM is told at
once. EDC D: "-1 point per delay in submitting order sheets" - the count per player is what a
tournament's penalties are computed from. Records are audit rows (action "nmr"), so no table
of their own; a rolled-back phase's records do not count (the phase is played again).
"""

from __future__ import annotations

import json
from collections.abc import Collection

from bot.core.model import Power
from bot.core.writing.advice import to_order_powers
from bot.service.events import EventKind
from bot.service.games.values import MissedOrders
from bot.service.storage import Repository
from bot.service.table import GameCtx, PhaseState, Table

NMR = "nmr"


async def record_missed(  # noqa: PLR0917 - the adjudication's context
    table: Table,
    tx: Repository,
    game_id: int,
    ctx: GameCtx,
    ph: PhaseState,
    at: float,
    standing: Collection[Power] | None = None,
) -> list[Power]:
    """Audit one "nmr" per player whose power had something to order and sent nothing, and
    tell the GM (one event); returns those powers. `standing`: the powers whose orders
    stand, if the caller read them already (the phase is closed: they cannot change)."""
    players = await table.players(tx, game_id)
    if standing is None:
        standing = set(await table.standing(ph.id, tx))
    missed = [
        p
        for p in to_order_powers(table.position_of(ph), ctx.game_map)
        if p in players and p not in standing
    ]
    for p in missed:
        await table.audit(
            tx,
            game_id,
            at,
            "clock",
            NMR,
            phase=ph.name,
            phase_id=ph.id,
            power=p.value,
            user=players[p],
        )
    if missed:
        await table.emit(
            tx,
            f"{game_id}:{ph.id}:missed",
            game_id,
            EventKind.ORDERS_MISSED,
            at,
            {"powers": [p.value for p in missed], "users": [players[p] for p in missed]},
            ph.id,
        )
    return missed


async def missed_counts(table: Table, game_id: int) -> list[MissedOrders]:
    """Missed orders per (player, power), in the game's line of play, most first."""
    live = {s.id for s in await table.storage.phase_summaries(game_id) if s.status != "rolled_back"}
    found: dict[tuple[str, str], list[str]] = {}
    for row in await table.storage.audit(game_id):
        if row.action != NMR:
            continue
        detail = json.loads(row.detail_json)
        if detail.get("phase_id") in live:
            found.setdefault((detail["user"], detail["power"]), []).append(detail["phase"])
    counts = [MissedOrders(u, Power(p), len(ph), tuple(ph)) for (u, p), ph in found.items()]
    return sorted(counts, key=lambda m: (-m.count, m.power.value, m.user))
