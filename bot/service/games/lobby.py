"""The lobby: creating games, taking and leaving seats, starting, meta data."""

from __future__ import annotations

import json
import logging
import random
from typing import Any

from bot.core import catalogue
from bot.core.messages import OneOf
from bot.core.model import (
    Position,
    Power,
)
from bot.core.records.jsonio import position_to_json
from bot.service.clock.presets import load_clock
from bot.service.errors import (
    InvalidStateError,
    PermissionDeniedError,
    ServiceError,
)
from bot.service.events import EventKind
from bot.service.games import access
from bot.service.games.palettes import check_palette
from bot.service.games.queries import Queries
from bot.service.games.settings import check_scoring
from bot.service.games.values import (
    GameStatus,
)
from bot.service.hidden import stab as hidden
from bot.service.storage.rows import NewGame
from bot.service.table import (
    Table,
    cached_rules,
    dumps,
    parse_power,
)
from bot.service.texts import named

log = logging.getLogger(__name__)


class Lobby:
    """Games before and at their start: create, seats, start, the bot's free data."""

    def __init__(self, table: Table, queries: Queries) -> None:
        self.table = table
        self.queries = queries

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
        """`stab_retreats`: under a hidden-movement preset (Stab!), how retreats are
        ordered (rule 4): "phase" (a separate retreat phase, the default) or "conditional"
        (written with the movement orders)."""
        if lang not in catalogue.languages():
            raise ServiceError.of("unknown_lang", value=lang, known=OneOf(catalogue.languages()))
        try:
            preset = load_clock(clock)
            if clock_overrides:
                preset = preset.with_overrides(clock_overrides)
            if (meta or {}).get("scoring"):
                check_scoring(str((meta or {})["scoring"]))
            if (meta or {}).get("palette"):
                check_palette(str((meta or {})["palette"]))
        except ServiceError as exc:
            exc.lang = lang  # the new game's language
            raise
        game_map = self.table.engine.load_map(variant)
        rule_set = cached_rules(self.table.engine, rules)
        options: dict[str, Any] = {"first_year": game_map.start.phase.year}
        if rule_set.hidden_movement:
            if stab_retreats not in (None, *hidden.RETREAT_MODES):
                known = OneOf(hidden.RETREAT_MODES)
                raise ServiceError.of(
                    "unknown_retreat_mode", lang, value=stab_retreats, known=known
                )
            options[hidden.OPTION] = stab_retreats or hidden.PHASE
        if early_adjudication is not None:
            options["early_adjudication"] = early_adjudication
        now = self.table.clock.now()
        new = NewGame(
            name,
            gm,
            variant,
            rules,
            preset.name,
            dumps(preset.to_json()),
            lang,
            dumps(options),
            dumps(meta or {}),
            now,
        )
        async with self.table.storage.tx() as tx:
            gid = await tx.add_game(new)
            await self.table.audit(
                tx,
                gid,
                now,
                gm,
                "create",
                clock=preset.name,
                rules=rules,
                lang=lang,
                variant=variant,
                overrides=clock_overrides or {},
            )
        return await self.queries.status(gid)

    async def join(self, game_id: int, user: str, power: Power | str | None = None) -> Power:
        """Take a power (by name, or None / "random" for a random free one) in a forming game.
        After the start only the GM seats a player (`replace_player`)."""
        row = await self.table.game_row(game_id)
        if row.status == "over":
            raise InvalidStateError.of("game_over", row.lang, game=game_id)
        ctx = await self.table.load_ctx(game_id)
        now = self.table.clock.now()
        async with self.table.storage.tx() as tx:
            # Checked in the transaction: a start committed meanwhile is seen.
            state = await tx.game(game_id)
            if state is None or state.status != "forming":
                raise InvalidStateError.of("join_started", ctx.lang, game=game_id)
            taken = await self.table.players(tx, game_id)
            if user in taken.values():
                mine = next(p for p, u in taken.items() if u == user)
                raise InvalidStateError.of(
                    "already_play", ctx.lang, power=named(ctx.game_map, mine), game=game_id
                )
            free = [p for p in ctx.game_map.powers if p not in taken]
            if not free:
                raise InvalidStateError.of("all_taken", ctx.lang, game=game_id)
            if power is None or (isinstance(power, str) and power.lower() == "random"):
                chosen = random.choice(free)
            else:
                chosen = parse_power(power, ctx.game_map)
                if chosen in taken:
                    raise InvalidStateError.of(
                        "power_taken", ctx.lang, power=named(ctx.game_map, chosen), game=game_id
                    )
                if chosen not in ctx.game_map.powers:
                    raise InvalidStateError.of("power_not_in_variant", ctx.lang, power=chosen)
            await tx.add_player(game_id, chosen.value, user, now)
            await self.table.audit(tx, game_id, now, user, "join", power=chosen.value)
        return chosen

    async def assign(self, game_id: int, gm: str, user: str, power: Power | str) -> Power:
        """GM: give `power` to `user` (moving them from another power if they had one)."""
        row = await self.table.require_gm(game_id, gm)
        game_map = self.table.engine.load_map(row.variant)
        chosen = parse_power(power, game_map)
        now = self.table.clock.now()
        async with self.table.storage.tx() as tx:
            holder = await tx.user_of(game_id, chosen.value)
            if holder is not None and holder != user:
                raise InvalidStateError.of(
                    "played_by_other", row.lang, power=named(game_map, chosen)
                )
            await tx.remove_user(game_id, user)
            await tx.add_player(game_id, chosen.value, user, now)
            await self.table.audit(tx, game_id, now, gm, "assign", power=chosen.value, user=user)
        return chosen

    async def leave(self, game_id: int, user: str) -> Power:
        """Leave a game; once it has started the power is left in civil disorder (its standing
        orders stay) until the GM seats someone. Refused once the game is over: the record
        keeps who played what."""
        row = await self.table.game_row(game_id)
        if row.status == "over":
            raise InvalidStateError.of("game_over", row.lang, game=game_id)
        power = await self.table.player_power(game_id, user)
        now = self.table.clock.now()
        async with self.table.storage.tx() as tx:
            await tx.remove_user(game_id, user)
            await self.table.audit(tx, game_id, now, user, "leave", power=power.value)
        return power

    async def start_game(self, game_id: int, gm: str) -> GameStatus:
        row = await self.table.require_gm(game_id, gm)
        if row.status != "forming":
            raise InvalidStateError.of("already_started", row.lang, game=game_id)
        ctx = await self.table.load_ctx(game_id)
        now = self.table.clock.now()
        async with self.table.storage.tx() as tx:
            players = {p.value: u for p, u in (await self.table.players(tx, game_id)).items()}
            start = ctx.game_map.start
            if ctx.rules.hidden_movement:  # Stab! rule 1: the units are placed in Spring 1901
                start = Position(start.phase, {}, start.centers)
            pid = await tx.add_phase(
                game_id,
                str(start.phase),
                dumps(position_to_json(start)),
                "pending",
                "reading",
                now,
                now,
            )
            await tx.start_game(game_id, now, pid)
            await self.table.audit(tx, game_id, now, gm, "start", players=players)
            await self.table.emit(
                tx,
                f"{game_id}:started",
                game_id,
                EventKind.GAME_STARTED,
                now,
                {"players": players, "clock": ctx.clock.name, "rules": ctx.rules_name},
                pid,
            )
        await self.table.reschedule(game_id)
        return await self.queries.status(game_id)

    async def set_meta(self, game_id: int, key: str, value: Any, *, by: str) -> None:
        """Free key-value data for the bot (channel ids...), kept with the game. `by` asks:
        the GM (any key), a player ("spectators"), or the bot itself (`access.BOT`: only
        its own bookkeeping, "press_lock"); anyone else PermissionDeniedError."""
        row = await self.table.game_row(game_id)
        players = set((await self.table.players(self.table.storage, game_id)).values())
        refusal = access.meta_refusal(key, by, gm=row.gm, players=players)
        if refusal is not None:
            raise PermissionDeniedError.of(refusal, row.lang, game=game_id)
        async with self.table.storage.tx() as tx:
            if by != access.BOT:  # the bot's own bookkeeping is not a decision to audit
                await self.table.audit(tx, game_id, self.table.clock.now(), by, "meta", key=key)
            now_row = await tx.game(game_id)
            meta = json.loads(now_row.meta_json or "{}") if now_row else {}
            meta[key] = value
            await tx.set_meta_json(game_id, dumps(meta))
