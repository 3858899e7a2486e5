"""Replies to what a player sent by DM (order acknowledgements): short and idempotent (a
nonce per DM and part, sent by discord.py with `enforce_nonce`), so one that fails (Discord
busy, over the global limit) is sent again with backoff; one that finally fails is logged once
at WARNING, never raised out of `on_message` (the orders are saved either way). A try whose
fate is unknown (a 5xx, a dropped connection: `uncertain`) is looked for in the DM's history
after the player's message before the next (issue 36): the nonce alone would not stop a
repeat on a Discord that has forgotten it."""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Sequence
from typing import Any

import aiohttp
import discord

from bot.discord_app.format import chunks
from bot.discord_app.notifier import nonce
from bot.discord_app.uncertain import uncertain

log = logging.getLogger("parley.discord")

BACKOFF = (0.5, 1.0, 2.0, 4.0)  # seconds before each new try
NO_PINGS = discord.AllowedMentions.none()


async def reply(
    channel: discord.abc.Messageable,
    lines: Sequence[str],
    about: int,
    file: discord.File | None = None,
    view: discord.ui.View | None = None,
) -> bool:
    """Send `lines` (split to fit) in `channel`, in answer to message `about`, the `file`
    (the map of the orders) and the `view` (the builder's button) with the last part; False
    if a part could not be sent (logged)."""
    parts = chunks(lines)
    # discord.py closes a file once sent (or not): each try gets its own copy of the bytes
    attached = (file.filename, file.fp.read()) if file is not None else None
    since = about  # where the last part sent (or the player's message) is
    for i, part in enumerate(parts):
        look = False  # after a try whose fate is unknown: is it there already?
        for attempt in range(len(BACKOFF) + 1):
            extra: dict[str, Any] = {}
            if attached is not None and i == len(parts) - 1:
                extra["file"] = discord.File(io.BytesIO(attached[1]), filename=attached[0])
            if view is not None and i == len(parts) - 1:
                extra["view"] = view
            try:
                found = await _posted(channel, part, since) if look else None
                if found is not None:
                    since = found
                    break
                look = False
                # echoes user text: no mentions
                with uncertain():
                    sent = await channel.send(
                        part, allowed_mentions=NO_PINGS, nonce=nonce("reply", about, i), **extra
                    )
                since = sent.id
                break
            except (discord.Forbidden, discord.NotFound) as exc:
                log.warning("reply to message %s not sent: %s", about, exc)
                return False
            except (discord.HTTPException, aiohttp.ClientError, OSError, TimeoutError) as exc:
                look = look or not isinstance(exc, discord.HTTPException) or exc.status >= 500
                if attempt == len(BACKOFF):
                    why = f"{type(exc).__name__}: {exc}"
                    log.warning(
                        "reply to message %s not sent after %s tries: %s", about, attempt + 1, why
                    )
                    return False
                await asyncio.sleep(BACKOFF[attempt])
    return True


async def _posted(channel: discord.abc.Messageable, text: str, since: int) -> int | None:
    """The id of the bot's own message with this text after `since` in this DM, if any."""
    me = getattr(channel, "me", None)
    async for msg in channel.history(after=discord.Object(since), limit=20, oldest_first=True):
        if me is not None and msg.author.id == me.id and msg.content.strip() == text.strip():
            return msg.id
    return None
