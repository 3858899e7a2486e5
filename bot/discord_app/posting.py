"""What the notifier's helper modules need of it (issue 33): a small protocol, so that
`builder_notice`, `channels` and `hidden`, which the notifier calls with itself, depend on this
and not on `bot.discord_app.notifier` (which imports them: an import circle).
`DiscordNotifier` implements it; mypy checks that where the notifier passes itself. Which
channels everyone may see (`public_channels`) is here too: the notifier and `hidden` both
post there."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol

import discord

from bot.discord_app.app import Parley
from bot.discord_app.embeds import Embed
from bot.discord_app.pacing import TABLE
from bot.service import Event, GameStatus


class Poster(Protocol):
    """Posts and DMs, each exactly once per event (see `bot.discord_app.notifier`)."""

    @property
    def bot(self) -> Parley: ...

    async def post(
        self,
        channel_id: int | None,
        lines: Sequence[str],
        key: str,
        *,
        png: bytes | None = None,
        mentions: discord.AllowedMentions | None = None,
        filename: str = "map.png",
        view: discord.ui.View | None = None,
        event: Event | None = None,
        embeds: Sequence[Sequence[Embed]] | None = None,
    ) -> None: ...

    async def dm(
        self,
        user: str,
        text: str,
        key: str,
        *,
        view: discord.ui.View | None = None,
        event: Event | None = None,
        png: bytes | None = None,
    ) -> bool: ...

    async def tell_dm_closed(self, game: GameStatus, user: str, event: Event) -> None: ...

    async def each_channel(
        self, jobs: Sequence[Callable[[], Awaitable[None]]], *, first: int = TABLE
    ) -> None: ...


def public_channels(game: GameStatus) -> list[int]:
    """The table channel and the spectator channels: what everyone may see."""
    channels = [game.meta.get("channel"), *game.meta.get("spectators", [])]
    return [int(c) for c in dict.fromkeys(channels) if c]
