"""Told at once (issue 30): when a retreat or adjustment phase opens, each player with
something to do gets a DM at once (their dislodged units and where each may go, or the builds
or removals they owe and where), with the builder's button; the table message names who must
act. Under Stab! (hidden movement, rule 3) the table names no one: who owes a retreat or an
adjustment tells of hidden units; the DMs still go."""

from __future__ import annotations

import asyncio

from bot.core.model import Phase, PhaseKind, Power
from bot.discord_app.builder import open_view
from bot.discord_app.format import mention, power_name
from bot.discord_app.posting import Poster
from bot.service import Event, GameStatus, ServiceError
from bot.service.orders.builder import say


def _after_moves(event: Event) -> bool:
    return event.phase is not None and Phase.parse(event.phase).kind is not PhaseKind.MOVEMENT


def _acting(event: Event, game: GameStatus) -> list[tuple[Power, str]]:
    """(power, user) of the players with something to do, from the window's first event
    (its payload names the powers to order; a later window's does not: no second DM)."""
    powers = event.payload.get("to_order")
    if not powers or not _after_moves(event):
        return []
    out = []
    for value in powers:
        power = Power.of(str(value))
        user = game.players.get(power)
        if user:
            out.append((power, user))
    return out


def act_line(event: Event, game: GameStatus) -> str:
    """The table's line naming who must act ("" for a movement phase or under Stab!)."""
    acting = _acting(event, game)
    if not acting or game.hidden:
        return ""
    who = ", ".join(f"{power_name(p, game.lang, game.variant)} ({mention(u)})" for p, u in acting)
    return "\n" + say("table_act", game.lang, who=who)


async def _to_act(notifier: Poster, game: GameStatus, power: Power, phase: str) -> list[str]:
    try:
        return await notifier.bot.service.builder.to_act(game.id, power, phase)
    except ServiceError:  # the game ended or moved on meanwhile: nothing to tell now
        return []


async def tell_to_act(notifier: Poster, event: Event, game: GameStatus) -> None:
    """The DMs: one per player with something to do, exactly once (the event's key)."""
    acting = _acting(event, game)
    texts = [await _to_act(notifier, game, p, str(event.phase)) for p, _ in acting]
    sent = await asyncio.gather(
        *(
            notifier.dm(
                user,
                "\n".join(lines),
                f"{event.key}:act",
                view=open_view(game.id, user, game.lang),
                event=event,
            )
            for (_, user), lines in zip(acting, texts, strict=True)
            if lines
        )
    )
    users = [user for (_, user), lines in zip(acting, texts, strict=True) if lines]
    for user, ok in zip(users, sent, strict=True):
        if not ok:
            await notifier.tell_dm_closed(game, user, event)
