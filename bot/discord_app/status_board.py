"""The status board (issue 31): one message per game in its table channel, posted when the
game starts (pinned when the bot may pin), then EDITED, never posted again, whenever what it
shows changes: the phase, the deadline (a Discord timestamp, which counts down by itself),
each power ordered / not yet / ready / in civil disorder (never the orders), the centres,
the press lock, a vote in progress (bot/discord_app/embeds.py `board_embeds`).

Edits are coalesced: a game's board is edited at most once every `interval` seconds, however
many things changed meanwhile, and only when what it shows changed (a digest is kept with the
message id, migration 0016, so a restart neither re-posts nor re-edits an unchanged board).
Its requests go at the lowest priority of the pacer (after results, acknowledgements,
spectators and DMs: bot/discord_app/pacing.py), under discord.py's per-route buckets (edits
to one channel share one) and the shared global rate. A board deleted by someone is posted
again: at once when Discord says so (MESSAGE_DELETE), or at the next edit (404).

`touch(game_id)` asks for a refresh: the notifier after each event, the cog after any
interaction or DM (an order, a ready, a ballot), and at start-up for every running game.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import time
from collections import Counter
from collections.abc import Callable

import discord

from bot.core.map import load_map
from bot.discord_app.announce import board_facts, open_votes
from bot.discord_app.app import Parley
from bot.discord_app.embeds import Embed, board_embeds, problems
from bot.discord_app.pacing import DM, urgency
from bot.service import GameStatus, ServiceError
from bot.service.storage.boards import BoardRow

log = logging.getLogger(__name__)

BOARD = DM + 1  # after everything else the bot sends
INTERVAL = 5.0  # seconds between two edits of one game's board


class StatusBoards:
    """Keeps each game's board current, by coalesced edits."""

    def __init__(
        self,
        bot: Parley,
        *,
        interval: float = INTERVAL,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.bot = bot
        self.interval = interval
        self.clock = clock
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()
        self._last: dict[int, float] = {}
        self._boards: dict[int, int] = {}  # message id -> game id (to notice a deletion)
        self._gone: set[int] = set()  # games whose board was deleted: post it again
        # What was done, per (game, phase): "post" | "edit" (measured by the tests).
        self.done: Counter[tuple[int, str, str]] = Counter()

    def touch(self, game_id: int) -> None:
        """Refresh the game's board soon (once, however often this is called meanwhile)."""
        running = self._tasks.get(game_id)
        if running is not None and not running.done():
            self._again.add(game_id)
            return
        with urgency(BOARD):  # (the task's requests inherit the level)
            self._tasks[game_id] = asyncio.get_running_loop().create_task(self._run(game_id))

    async def close(self) -> None:
        tasks = [t for t in self._tasks.values() if not t.done()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def idle(self) -> None:
        """Wait until no refresh is due (tests)."""
        while any(not t.done() for t in self._tasks.values()):
            await asyncio.gather(*self._tasks.values(), return_exceptions=True)

    async def _run(self, game_id: int) -> None:
        while True:
            wait = self._last.get(game_id, -self.interval) + self.interval - self.clock()
            if wait > 0:
                await asyncio.sleep(wait)
            self._again.discard(game_id)
            try:
                await self.refresh(game_id)
            except asyncio.CancelledError:
                raise
            except (discord.DiscordException, ServiceError, OSError) as exc:
                log.warning("game %s: status board not updated: %s", game_id, exc)
            except Exception:
                log.exception("game %s: status board not updated", game_id)
            self._last[game_id] = self.clock()
            if game_id not in self._again:
                return

    async def refresh(self, game_id: int) -> None:
        """Post or edit the board now, if what it shows changed."""
        svc = self.bot.service
        game = await svc.status(game_id)
        channel = game.meta.get("channel")
        if not channel or game.broken or game.status == "forming":
            return
        payload = await self._payload(game)
        digest = hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()[:32]
        row = await svc.table.storage.status_board(game_id)
        if row is not None and (str(row.channel_id) != str(channel) or game_id in self._gone):
            row = None  # the table moved, or the board was deleted: a new one
        if row is not None:
            self._boards[int(row.message_id)] = game_id
        if row is not None and row.digest == digest:
            return
        embeds = [discord.Embed.from_dict(e) for e in payload]
        place = self.bot.get_partial_messageable(int(channel))
        message_id = None
        if row is not None:
            try:
                await place.get_partial_message(int(row.message_id)).edit(embeds=embeds)
                message_id = row.message_id
                self.done[(game_id, game.phase or "", "edit")] += 1
            except discord.NotFound:
                log.info("game %s: the status board was deleted; posted again", game_id)
        if message_id is None:
            sent = await place.send(embeds=embeds, allowed_mentions=discord.AllowedMentions.none())
            self._gone.discard(game_id)
            message_id = str(sent.id)
            self.done[(game_id, game.phase or "", "post")] += 1
            await self._pin(sent, game_id)
        self._boards[int(message_id)] = game_id
        async with svc.table.storage.tx(durable=False) as tx:
            await tx.set_status_board(
                BoardRow(game_id, str(channel), str(message_id), digest, svc.clock.now())
            )

    async def _payload(self, game: GameStatus) -> list[Embed]:
        votes = open_votes(await self.bot.service.votes(game.id), game)
        payload = board_embeds(board_facts(game, votes), load_map(game.variant), game.lang)
        assert not problems(payload), problems(payload)  # (the builder keeps to the limits)
        return payload

    @staticmethod
    async def _pin(sent: discord.Message, game_id: int) -> None:
        try:
            await sent.pin(reason="Parley: the game's status board")
        except discord.Forbidden:  # no Pin Messages here: the board works unpinned
            log.info("game %s: the status board is not pinned (no right to pin)", game_id)
        except discord.HTTPException as exc:  # e.g. the channel's pins are full
            log.info("game %s: the status board is not pinned: %s", game_id, exc)

    def deleted(self, message_id: int) -> None:
        """A message was deleted: if it was a board, post it again."""
        game_id = self._boards.pop(message_id, None)
        if game_id is not None:
            self._gone.add(game_id)
            self.touch(game_id)
