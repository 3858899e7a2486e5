"""What the notifier posts as embeds (issue 31): for each announcement, the message heads
(the content: a notification's preview, and what a reader hears first) and the embeds, one
list a message. A game whose meta says `text_only` gets the plain text as before (the same
facts; `/history` and `/export` give them as text too)."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from bot.core.catalogue import meta
from bot.core.map import load_map
from bot.discord_app import announce
from bot.discord_app.embeds import (
    Embed,
    FeedFacts,
    FeedRow,
    feed_embeds,
    messages,
    opening_embeds,
    over_embeds,
    results_embeds,
    vote_embeds,
)
from bot.service import Event, EventKind, GameStatus, TableService
from bot.service.games.record import final_standings, game_record

log = logging.getLogger(__name__)

Posts = list[list[Embed]] | None


def numbered(head: str, n: int) -> list[str]:
    """Each message's head: `head`, then `head (2/3)` when there are several."""
    return [head] if n <= 1 else [f"{head} ({k}/{n})" for k in range(1, n + 1)]


def text_only(game: GameStatus) -> bool:
    return bool(game.meta.get("text_only"))


def results_post(
    game: GameStatus, event: Event, lines: list[str], public: Sequence[str] | None = None
) -> tuple[list[str], Posts]:
    """The results (`public`: a Stab! phase's public report, else the game's outcome)."""
    if text_only(game):
        return lines, None
    try:
        found = announce.result_text_lines(game, event) if public is None else list(public)
        facts = announce.results_facts(game, event, found)
        made = results_embeds(facts, load_map(game.variant), game.lang)
    except Exception:  # a bug in an embed must not hold back the results: the text goes
        log.exception("game %s: results as text, not embeds", game.id)
        return lines, None
    return lines[:1], messages(made)


def opening_post(game: GameStatus, event: Event) -> Posts:
    if text_only(game):
        return None
    try:
        facts = announce.opening_facts(game, event)
        return messages(opening_embeds(facts, load_map(game.variant), game.lang))
    except Exception:  # (the opening's sentence goes alone)
        log.exception("game %s: opening without its embed", game.id)
        return None


def vote_post(game: GameStatus, event: Event, lines: list[str]) -> tuple[list[str], Posts]:
    if text_only(game):
        return lines, None
    opened = event.kind is EventKind.VOTE_OPENED
    try:
        facts = announce.vote_facts(game, event, opened=opened)
        made = vote_embeds(facts, game.lang)
    except Exception:
        log.exception("game %s: vote as text, not embeds", game.id)
        return lines, None
    return lines[:1], messages(made)


async def over_post(
    svc: TableService, game: GameStatus, event: Event, lines: list[str], *, chart: bool
) -> tuple[list[str], Posts]:
    if text_only(game):
        return lines, None
    try:
        found = final_standings(await game_record(svc, game.id))
    except Exception:  # the announcement goes without the table rather than not at all
        log.exception("game %s: no standings for the end embed", game.id)
        found = None
    try:
        facts = announce.over_facts(game, event, found, chart)
        made = over_embeds(facts, load_map(game.variant), game.lang)
    except Exception:
        log.exception("game %s: the end as text, not embeds", game.id)
        return lines, None
    return lines[:1], messages(made)


def feed_post(
    snap_id: int, name: str, lang: str, after: int, rows: Sequence[tuple[int, str, float]]
) -> list[list[Embed]]:
    """The tournament feed's standings after round `after`: (rank, player id, total) best
    first; players as mentions (an embed's mention pings no one)."""
    decimal = meta(lang).decimal
    shown = tuple(
        FeedRow(rank, f"<@{p}>" if p.isdigit() else p, f"{round(total, 2):g}".replace(".", decimal))
        for rank, p, total in rows
    )
    return messages(feed_embeds(FeedFacts(snap_id, name, after, shown), lang))
