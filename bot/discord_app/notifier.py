"""Service events to Discord: the table channel, spectator channels, players' DMs, press locks.

The service marks an event delivered only when `notify` returns, and may deliver it again after
a crash. Each destination (channel, DM) of an event is its own unit of delivery, recorded in
the service (`svc.deliveries`): the message id is recorded right after each post, so a retry
posts only where nothing was recorded, and a failure in one channel never re-posts in another.
Where a post was begun but not recorded (the process died between Discord's reply and the
record, or the reply was lost: any send whose fate is unknown, `uncertain`, issue 36), the
channel's recent history is searched for it before posting again, never after: Discord does
not return nonces on fetched messages, so the bot's own message with the same text after the
delivery began (or its last recorded part), not recorded for anything else, is the one. The
nonce with `enforce_nonce` stays a second guard. Permission overwrites are idempotent by nature.
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import logging
from collections.abc import Awaitable, Callable, Sequence
from datetime import timedelta
from functools import partial
from typing import TYPE_CHECKING, Any, Final

import aiohttp
import discord

from bot.core.map import load_map
from bot.core.model import Phase, PhaseKind
from bot.core.scoring import standings_lines
from bot.discord_app import channels
from bot.discord_app.ballots import ballot_view
from bot.discord_app.builder import open_view
from bot.discord_app.builder_notice import act_line, tell_to_act
from bot.discord_app.embed_posts import (
    numbered,
    opening_post,
    over_post,
    results_post,
    vote_post,
)
from bot.discord_app.embeds import Embed
from bot.discord_app.format import (
    MESSAGE_LIMIT,
    centers_text,
    chunks,
    mention,
    phase_name,
    power_name,
    results_lines,
    stamp,
    window_name,
)
from bot.discord_app.hidden import deliver_hidden
from bot.discord_app.pacing import DM, FEED, RESULTS, TABLE, urgency
from bot.discord_app.posting import public_channels
from bot.discord_app.uncertain import RETRY_AFTER, UncertainSend, uncertain
from bot.i18n import t
from bot.service import Event, EventKind, GameStatus, TransientDeliveryError
from bot.service.games.access import BOT
from bot.service.games.record import final_standings, game_record, year_end_positions
from renderer.chart import centre_chart

if TYPE_CHECKING:
    from bot.discord_app.app import Parley

log = logging.getLogger(__name__)

# Send Messages, Send Messages in Threads, Create Public/Private Threads: what "talking" is.
PRESS_DENY = (1 << 11) | (1 << 38) | (1 << 35) | (1 << 36)
MEMBER_OVERWRITE: Final = 1
CANNOT_DM = 50007
# A retry looks for an unrecorded post from this long before its delivery began (clock skew).
LOOKBACK = timedelta(seconds=10)
HISTORY = 100  # messages searched after that point
# Errors that pass: Discord down or slow. discord.py already retried 500/502/504 (not 503).
TRANSIENT = (discord.DiscordServerError, discord.RateLimited, aiohttp.ClientError, OSError)
# A post that may have been created (UncertainSend: a 5xx or a broken exchange).
UNSURE = (UncertainSend, discord.DiscordServerError, aiohttp.ClientError, OSError, TimeoutError)


def nonce(*parts: object) -> str:
    """A Discord nonce (at most 25 characters) that is the same for the same event part."""
    digest = hashlib.sha256(":".join(map(str, parts)).encode()).hexdigest()
    return digest[:24]


class DiscordNotifier:
    """The service's `Notifier` for the bot."""

    def __init__(self, bot: Parley) -> None:
        self.bot = bot
        self._dm_channels: dict[str, int] = {}
        # One queue per channel: posts to a channel keep their order across games' lanes,
        # and a slow channel (a feed following every game) delays only itself.
        self._queues: dict[int, asyncio.Lock] = {}
        self.handlers = {
            EventKind.GAME_STARTED: self._started,
            EventKind.WINDOW_OPENED: self._window,
            EventKind.REMINDER_DUE: self._reminder,
            EventKind.RESULTS_READY: self._results,
            EventKind.PRESS_LOCKED: self._press,
            EventKind.PRESS_UNLOCKED: self._press,
            EventKind.GAME_PAUSED: self._paused,
            EventKind.GAME_RESUMED: self._resumed,
            EventKind.DEADLINE_CHANGED: self._deadline,
            EventKind.PHASE_ROLLED_BACK: self._rolled_back,
            EventKind.PLAYER_REPLACED: self._replaced,
            EventKind.VOTE_OPENED: self._vote,
            EventKind.VOTE_CLOSED: self._vote,
            EventKind.DRAW_AVAILABLE: self._draw_available,
            EventKind.ORDERS_MISSED: self._missed,
            EventKind.EARLY_ORDERS_READ: self._early,
            EventKind.BOARD_EDITED: self._edited,
            EventKind.ABBREVIATIONS_AGREED: self._abbreviations,
            EventKind.GAME_OVER: self._over,
            EventKind.GAME_BROKEN: self._broken,
        }

    async def notify(self, event: Event) -> None:
        handler = self.handlers.get(event.kind)
        if handler is None:
            return
        game = await self.bot.service.status(event.game_id)
        board = self.bot.get_cog("StatusBoard")  # (cogs/board: the status board, issue 31)
        if board is not None:
            board.touch(event.game_id)  # type: ignore[attr-defined]
        try:
            await handler(event, game)
            await channels.after_event(self, event, game)  # a casual game's own channels
        except (*TRANSIENT, TimeoutError) as exc:
            # Discord is down or slow: the service delivers the event again later.
            raise TransientDeliveryError(f"{type(exc).__name__}: {exc}") from exc
        except discord.HTTPException:
            raise  # unexpected (a 4xx): retried too, but logged as an error
        except Exception as exc:
            if self.bot.is_closed():  # the bot closed under a post (shutdown): not a bug
                raise TransientDeliveryError(f"bot closed: {type(exc).__name__}") from exc
            # A bug in a message: retrying would hold back every later event of this game.
            log.exception("cannot announce %s; dropped", event.key)

    # -- posting ---------------------------------------------------------------------------

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
    ) -> None:
        """Post lines (split to fit) in a channel; the map (or `png` named `filename`) and
        the `view` (buttons) go with the last part. With the `event`, exactly once per
        channel and `key` (see the module docstring). With `embeds` (one list a message,
        bot/discord_app/embeds.py), `lines[0]` heads each message, numbered if several."""
        if not channel_id:
            return
        channel = self.bot.get_partial_messageable(int(channel_id))
        parts = chunks(lines) if not embeds else numbered(lines[0], len(embeds))

        async def send(i: int) -> discord.Message:
            extra: dict[str, Any] = {}
            if png is not None and i == len(parts) - 1:
                extra["file"] = discord.File(io.BytesIO(png), filename=filename)
            if view is not None and i == len(parts) - 1:
                extra["view"] = view
            if embeds:
                extra["embeds"] = [discord.Embed.from_dict(e) for e in embeds[i]]
            return await channel.send(
                parts[i],
                nonce=nonce(key, channel_id, i),
                allowed_mentions=mentions or discord.AllowedMentions.none(),
                **extra,
            )

        queue = self._queues.setdefault(int(channel_id), asyncio.Lock())  # FIFO
        try:
            async with queue:
                await self._once(event, f"{channel_id}{_sub(event, key)}", channel, parts, send)
        except (discord.Forbidden, discord.NotFound) as exc:
            # Retrying cannot fix a deleted channel or missing rights: say so in the log.
            log.error("cannot post in channel %s (%s): %s", channel_id, key, exc)

    async def _once(
        self,
        event: Event | None,
        dest: str,
        channel: discord.PartialMessageable,
        parts: Sequence[str],
        send: Callable[[int], Awaitable[discord.Message]],
    ) -> None:
        """Post the parts not recorded yet for (event, dest), recording each message id."""
        if event is None:
            for i in range(len(parts)):
                await send(i)
            return
        deliveries = self.bot.service.deliveries
        after = str(discord.utils.time_snowflake(discord.utils.utcnow() - LOOKBACK))
        record = await deliveries.begin(event.id, event.game_id, dest, after)
        if record.delivered:
            return
        start = len(record.message_ids)
        if record.resumed and start < len(parts):
            since = record.message_ids[-1] if record.message_ids else record.after
            found = await self._unrecorded(channel, parts[start], since)
            if found is not None:
                log.info("%s: found the post to %s made before a restart", event.key, dest)
                await deliveries.posted(event.id, dest, start, found, last=start == len(parts) - 1)
                start += 1
        last = record.message_ids[-1] if record.message_ids else record.after
        for i in range(start, len(parts)):
            kept = await self._send_once(channel, parts[i], partial(send, i), last)
            await deliveries.posted(event.id, dest, i, kept, last=i == len(parts) - 1)
            last = kept

    async def _send_once(
        self,
        channel: discord.PartialMessageable,
        text: str,
        send: Callable[[], Awaitable[discord.Message]],
        since: str | None,
    ) -> str:
        """Post once: after a send whose fate is unknown (a 5xx, a broken or timed-out
        exchange: `uncertain`), the channel's history after `since` is read before posting
        again, at once and whatever the send took (issue 36); a 429 is discord.py's to wait
        out. The id of the message posted (or found)."""
        look = False  # look before sending: after any failed send, until a look succeeds
        for pause in (*RETRY_AFTER, None):
            try:
                if look and (found := await self._unrecorded(channel, text, since)) is not None:
                    log.info("channel %s: the uncertain post went through (%s)", channel.id, found)
                    return found
                look = False
                with uncertain():
                    return str((await send()).id)
            except UNSURE as exc:
                if pause is None:
                    raise  # the outbox tries again later (it looks first too: `resumed`)
                look = True  # (a failed look is made again too, before any send)
                log.info("channel %s: %s; trying again in %g s", channel.id, exc, pause)
            await asyncio.sleep(pause)
        raise AssertionError("unreachable")

    async def _unrecorded(
        self, channel: discord.PartialMessageable, text: str, since: str | None
    ) -> str | None:
        """The id of the bot's message with this text posted after `since` and recorded
        for nothing else: a post that went through before the process died."""
        me = self.bot.user.id if self.bot.user else None
        bound = discord.Object(int(since)) if since else None
        try:
            mine = [
                m
                async for m in channel.history(limit=HISTORY, after=bound, oldest_first=True)
                if m.author.id == me and m.content.strip() == text.strip()
            ]
        except discord.Forbidden as exc:  # no Read Message History: better twice than never
            log.warning("cannot read channel %s to avoid a double post: %s", channel.id, exc)
            return None
        claimed = await self.bot.service.deliveries.claimed([str(m.id) for m in mine])
        return next((str(m.id) for m in mine if str(m.id) not in claimed), None)

    async def dm(
        self,
        user: str,
        text: str,
        key: str,
        *,
        view: discord.ui.View | None = None,
        event: Event | None = None,
        png: bytes | None = None,
    ) -> bool:
        """DM a user (with the `view`'s buttons and the `png` map, if any; a long text in
        several messages); False if their DMs are closed. With the `event`, exactly once per
        user and `key`. DMs wait behind table posts."""
        with urgency(DM):
            return await self._dm(user, text, key, view=view, event=event, png=png)

    async def _dm(
        self,
        user: str,
        text: str,
        key: str,
        *,
        view: discord.ui.View | None,
        event: Event | None,
        png: bytes | None = None,
    ) -> bool:
        try:
            channel_id = self._dm_channels.get(user)
            if channel_id is None:
                data = await self.bot.http.start_private_message(int(user))
                channel_id = self._dm_channels[user] = int(data["id"])
            channel = self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private)
            parts = chunks(text.split("\n")) if len(text) > MESSAGE_LIMIT else [text]

            async def send(i: int) -> discord.Message:
                extra: dict[str, Any] = {}
                if view is not None and i == len(parts) - 1:
                    extra["view"] = view
                if png is not None and i == len(parts) - 1:
                    extra["file"] = discord.File(io.BytesIO(png), filename="map.png")
                return await channel.send(
                    parts[i],
                    nonce=nonce(key, user, *([i] if i else [])),
                    allowed_mentions=discord.AllowedMentions.none(),
                    **extra,
                )

            await self._once(event, f"dm:{user}{_sub(event, key)}", channel, parts, send)
        except discord.Forbidden as exc:
            if exc.code != CANNOT_DM:
                log.warning("DM to %s refused: %s", user, exc)
            return False
        return True

    async def tell_dm_closed(self, game: GameStatus, user: str, event: Event) -> None:
        text = t("event.dm_closed", game.lang, user=mention(user))
        only_them = discord.AllowedMentions(users=[discord.Object(int(user))])
        key = f"{event.key}:dmclosed:{user}"
        await self.post(game.meta.get("channel"), [text], key, mentions=only_them, event=event)

    @staticmethod
    async def each_channel(
        jobs: Sequence[Callable[[], Awaitable[None]]], *, first: int = TABLE
    ) -> None:
        """Each channel's post is its own unit, side by side (a slow channel delays only
        itself): one failing does not stop the others (nor re-post them on the retry: they
        are recorded); the first failure is raised after. The first job (the table
        channel) goes at priority `first`, the others (spectators, feeds) after it."""

        async def run(level: int, job: Callable[[], Awaitable[None]]) -> None:
            with urgency(level):
                await job()

        found = await asyncio.gather(
            *(run(first if i == 0 else FEED, job) for i, job in enumerate(jobs)),
            return_exceptions=True,
        )
        failure = next((r for r in found if isinstance(r, BaseException)), None)
        if failure is not None:
            raise failure

    # -- events ----------------------------------------------------------------------------

    async def _started(self, event: Event, game: GameStatus) -> None:
        lang = game.lang
        players = event.payload.get("players") or {p.value: u for p, u in game.players.items()}
        lines = [t("game.started", lang, name=game.name, id=game.id)]
        lines.extend(
            t("game.player_line", lang, power=power_name(p, lang, game.variant), user=mention(u))
            for p, u in sorted(players.items())
        )
        # Ping the players, and no one else even if the game's name says "@everyone".
        ping = discord.AllowedMentions(users=[discord.Object(int(u)) for u in players.values()])
        await self.post(game.meta.get("channel"), lines, event.key, mentions=ping, event=event)
        # A welcome DM to each player: closed DMs show up now rather than at the deadline.
        users = sorted(players.items())
        welcomes = [
            t(
                "event.welcome",
                lang,
                power=power_name(p, lang, game.variant),
                name=game.name,
                id=game.id,
            )
            for p, _ in users
        ]
        sent = await asyncio.gather(
            *(
                # with the builder's button: orders without typing (issue 30)
                self.dm(u, text, event.key, view=open_view(game.id, u, lang), event=event)
                for (_, u), text in zip(users, welcomes, strict=True)
            )
        )
        for (_, user), ok in zip(users, sent, strict=True):
            if not ok:
                await self.tell_dm_closed(game, user, event)

    async def _window(self, event: Event, game: GameStatus) -> None:
        lang, p = game.lang, event.payload
        phase = phase_name(event.phase, lang)
        if p.get("window") == "negotiation":
            text = t(
                "event.window_negotiation",
                lang,
                phase=phase,
                writing=stamp(p.get("writing_at")),
                deadline=stamp(p.get("deadline")),
            )
        else:
            deadline = p.get("deadline")
            clock = f"<t:{int(deadline)}:T>" if deadline else "—"
            text = t(
                "event.window_writing",
                lang,
                phase=phase,
                deadline=f"<t:{int(deadline)}:R>" if deadline else "—",
                clock=clock,
            )
        text += act_line(event, game)  # a retreat or adjustment: who must act (issue 30)
        msgs = opening_post(game, event)
        await self.post(game.meta.get("channel"), [text], event.key, event=event, embeds=msgs)
        await tell_to_act(self, event, game)

    async def _reminder(self, event: Event, game: GameStatus) -> None:
        lang = game.lang
        phase, deadline = phase_name(event.phase, lang), stamp(event.payload.get("deadline"))
        text = t("event.reminder", lang, name=game.name, id=game.id, phase=phase, deadline=deadline)
        users = [str(u) for u in event.payload.get("users", [])]
        if game.hidden and _after_moves(event.phase):
            # Stab! rule 3: who owes retreats or adjustments tells of hidden units (a
            # dislodgement, units against centres); the DMs below remind them alone.
            public = t("event.reminder_table_hidden", lang, phase=phase, deadline=deadline)
            ping = discord.AllowedMentions.none()
        else:
            # In the table channel: who is late (never what anyone ordered), pinging them.
            waiting = ", ".join(
                f"{power_name(p, lang, game.variant)} ({mention(u)})"
                for p, u in zip(event.payload.get("powers", []), users, strict=False)
            )
            public = t("event.reminder_table", lang, phase=phase, deadline=deadline, powers=waiting)
            ping = discord.AllowedMentions(users=[discord.Object(int(u)) for u in users])
        await self.post(game.meta.get("channel"), [public], event.key, mentions=ping, event=event)
        sent = await asyncio.gather(*(self.dm(u, text, event.key, event=event) for u in users))
        for user, ok in zip(users, sent, strict=True):
            if not ok:
                await self.tell_dm_closed(game, user, event)

    async def _results(self, event: Event, game: GameStatus) -> None:
        if event.payload.get("stab"):  # Stab!: each viewer their own report and map
            await deliver_hidden(self, event, game)
            return
        lines = results_lines(game, event.phase, event.payload, game.lang, event.outcome)
        lines, msgs = results_post(game, event, lines)
        await self.each_channel(
            [
                partial(self.post, c, lines, event.key, png=event.png, event=event, embeds=msgs)
                for c in public_channels(game)
            ],
            first=RESULTS,
        )

    async def _press(self, event: Event, game: GameStatus) -> None:
        lang = game.lang
        locked = event.kind is EventKind.PRESS_LOCKED
        press = [int(c) for c in game.meta.get("press", [])]
        if press:
            jobs = await (self._lock(game, press) if locked else self._unlock(game, press))
            for result in await asyncio.gather(*jobs, return_exceptions=True):
                if isinstance(result, discord.NotFound):
                    continue  # no overwrite to remove, or the channel is gone
                if isinstance(result, discord.Forbidden):
                    log.error("press lock in game %s: missing Manage Roles (%s)", game.id, result)
                elif isinstance(result, BaseException):
                    raise result  # retried by the service
            if not locked:
                await self.bot.service.set_meta(game.id, "press_lock", None, by=BOT)
        window = window_name(event.payload.get("window"), lang)
        if press:
            channels = ", ".join(f"<#{c}>" for c in press)
            key = "event.press_locked" if locked else "event.press_unlocked"
            text = t(key, lang, window=window, channels=channels)
        else:
            key = "event.press_locked_nochannel" if locked else "event.press_unlocked_nochannel"
            text = t(key, lang, window=window)
        await self.post(game.meta.get("channel"), [text], event.key, event=event)

    async def _lock(self, game: GameStatus, press: list[int]) -> list[Awaitable[Any]]:
        """Deny talking to every player in the negotiation channels, keeping what a member
        overwrite already allowed or denied so that unlocking puts it back as it was."""
        lock = game.meta.get("press_lock")
        if not lock:  # (a repeat of this event finds the lock and what it saved)
            saved: dict[str, list[str]] = {}
            for channel in press:
                raw: dict[str, Any] = dict(await self.bot.http.get_channel(channel))
                for ow in raw.get("permission_overwrites", []):
                    if int(ow["type"]) == MEMBER_OVERWRITE:
                        saved[f"{channel}:{ow['id']}"] = [str(ow["allow"]), str(ow["deny"])]
            lock = {"users": sorted(set(game.players.values())), "saved": saved}
            await self.bot.service.set_meta(game.id, "press_lock", lock, by=BOT)
        jobs: list[Awaitable[Any]] = []
        for channel in press:
            for user in lock["users"]:
                allow, deny = lock["saved"].get(f"{channel}:{user}", ["0", "0"])
                jobs.append(
                    self.bot.http.edit_channel_permissions(
                        channel,
                        int(user),
                        str(int(allow) & ~PRESS_DENY),
                        str(int(deny) | PRESS_DENY),
                        MEMBER_OVERWRITE,
                        reason="Parley: press closed",
                    )
                )
        return jobs

    async def _unlock(self, game: GameStatus, press: list[int]) -> list[Awaitable[Any]]:
        lock = game.meta.get("press_lock") or {"users": [], "saved": {}}
        users = sorted(set(lock["users"]) | set(game.players.values()))
        jobs: list[Awaitable[Any]] = []
        reason = "Parley: press open"
        for channel in press:
            for user in users:
                old = lock["saved"].get(f"{channel}:{user}")
                if old is None:
                    job = self.bot.http.delete_channel_permissions(
                        channel, int(user), reason=reason
                    )
                else:
                    job = self.bot.http.edit_channel_permissions(
                        channel, int(user), old[0], old[1], MEMBER_OVERWRITE, reason=reason
                    )
                jobs.append(job)
        return jobs

    async def _paused(self, event: Event, game: GameStatus) -> None:
        await self.post(
            game.meta.get("channel"), [t("event.paused", game.lang)], event.key, event=event
        )

    async def _resumed(self, event: Event, game: GameStatus) -> None:
        text = t("event.resumed", game.lang, deadline=stamp(event.payload.get("deadline")))
        await self.post(game.meta.get("channel"), [text], event.key, event=event)

    async def _deadline(self, event: Event, game: GameStatus) -> None:
        text = t("event.deadline_changed", game.lang, deadline=stamp(event.payload.get("deadline")))
        await self.post(game.meta.get("channel"), [text], event.key, event=event)

    async def _rolled_back(self, event: Event, game: GameStatus) -> None:
        phase = event.payload.get("phase") or event.phase
        text = t("event.rolled_back", game.lang, phase=phase_name(phase, game.lang))
        await self.post(game.meta.get("channel"), [text], event.key, event=event)

    async def _replaced(self, event: Event, game: GameStatus) -> None:
        p: dict[str, Any] = event.payload
        text = t(
            "event.replaced",
            game.lang,
            power=power_name(p.get("power", ""), game.lang, game.variant),
            user=mention(p.get("new_user") or p.get("user", "")),
            old=mention(p.get("old_user", "")),
        )
        await self.post(game.meta.get("channel"), [text], event.key, event=event)

    async def _broken(self, event: Event, game: GameStatus) -> None:
        """To the GM by DM; in the table channel if their DMs are closed."""
        why = str(event.payload.get("why", ""))
        text = t(
            "event.game_broken", game.lang, gm=mention(game.gm), name=game.name, id=game.id, why=why
        )
        if not await self.dm(game.gm, text, event.key):
            only_gm = discord.AllowedMentions(users=[discord.Object(int(game.gm))])
            await self.post(game.meta.get("channel"), [text], event.key, mentions=only_gm)

    async def _abbreviations(self, event: Event, game: GameStatus) -> None:
        """gm-order-correction I(1): an agreed list is "made public to all players"."""
        p: dict[str, Any] = event.payload
        found: dict[str, str] = p.get("abbreviations", {})
        listed = ", ".join(f"`{a}` = {loc}" for a, loc in sorted(found.items())) or "—"
        power = power_name(p.get("power", ""), game.lang, game.variant)
        text = t("event.abbreviations", game.lang, power=power, list=listed)
        await self.post(game.meta.get("channel"), [text], event.key, event=event)

    async def _edited(self, event: Event, game: GameStatus) -> None:
        phase = phase_name(event.phase or "", game.lang)
        edit = str(event.payload.get("edit", ""))
        text = t("event.board_edited", game.lang, phase=phase, edit=edit)
        if game.hidden:  # Stab!: an edit names a unit and where it stands: the GM's alone
            await self.dm(game.gm, text, event.key, event=event)
            return
        await self.post(game.meta.get("channel"), [text], event.key, event=event)

    async def _missed(self, event: Event, game: GameStatus) -> None:
        """For the GM, by DM (house VII(6): the GM follows up an NMR); nothing in the channel,
        the results already show who did not order."""
        p: dict[str, Any] = event.payload
        who = ", ".join(
            f"{power_name(power, game.lang, game.variant)} ({mention(user)})"
            for power, user in zip(p.get("powers", []), p.get("users", []), strict=False)
        )
        phase = phase_name(event.phase or "", game.lang)
        text = t("event.orders_missed", game.lang, gm=mention(game.gm), phase=phase, who=who)
        await self.dm(game.gm, text, event.key, event=event)

    async def _early(self, event: Event, game: GameStatus) -> None:  # noqa: ARG002
        """To the player who sent orders early (house II(5)): what became of them."""
        p: dict[str, Any] = event.payload
        lines = [str(p.get("message", "")), *p.get("orders", []), *p.get("errors", [])]
        await self.dm(str(p.get("user", "")), "\n".join(lines), event.key, event=event)

    async def _over(self, event: Event, game: GameStatus) -> None:
        lang, p = game.lang, event.payload
        lines = [t("game.over", lang, name=game.name, id=game.id, reason=p.get("reason", ""))]
        if p.get("winner"):
            lines.append(t("game.winner", lang, power=power_name(p["winner"], lang, game.variant)))
        if p.get("centers"):
            lines.append(
                t("game.centers", lang, centers=centers_text(p["centers"], lang, game.variant))
            )
        standings, chart = await self._final(game)
        lines.extend(standings)
        lines, msgs = await over_post(self.bot.service, game, event, lines, chart=chart is not None)
        await self.each_channel(
            [
                partial(
                    self.post,
                    c,
                    lines,
                    event.key,
                    png=chart,
                    filename="centres.png",
                    event=event,
                    embeds=msgs,
                )
                for c in public_channels(game)
            ]
        )

    async def _final(self, game: GameStatus) -> tuple[list[str], bytes | None]:
        """The final standings and the centre chart (issue 7), from the game's public record;
        a failure here must not hold back the end-of-game announcement itself."""
        lang = game.lang
        try:
            record = await game_record(self.bot.service, game.id)
            found = final_standings(record)
            lines = (
                standings_lines(found[1], found[0], lang, load_map(game.variant))
                if found is not None
                else []
            )
            history = year_end_positions(record)
            if not history:
                return lines, None
            title = t("game.chart_title", lang, name=game.name, id=game.id)
            chart = await asyncio.to_thread(
                centre_chart, history, game_map=load_map(game.variant), lang=lang, title=title
            )
        except Exception:
            log.exception("game %s: no standings or chart", game.id)
            return [], None
        return lines, chart

    async def _vote(self, event: Event, game: GameStatus) -> None:
        """A vote opened (with the secret ballot buttons, at the table) or decided: the
        service's text says what and the result, never who voted what."""
        record: dict[str, Any] = event.payload.get("record") or {}
        lines = [str(event.payload.get("text", ""))]
        view = None
        if event.kind is EventKind.VOTE_OPENED and record.get("status") == "open":
            lines.append(t("vote.how", game.lang, id=record.get("id", "?")))
            view = ballot_view(game.id, int(record["id"]), game.rules, game.lang)
        table = game.meta.get("channel")
        others = [c for c in public_channels(game) if c != int(table or 0)]
        lines, msgs = vote_post(game, event, lines)
        await self.each_channel(
            [
                partial(self.post, table, lines, event.key, view=view, event=event, embeds=msgs),
                *(
                    partial(self.post, c, lines[:1], event.key, event=event, embeds=msgs)
                    for c in others
                ),
            ]
        )

    async def _draw_available(self, event: Event, game: GameStatus) -> None:
        why = str(event.payload.get("reason", ""))
        text = t("event.draw_available", game.lang, reason=why)
        await self.post(game.meta.get("channel"), [text], event.key, event=event)


def _sub(event: Event | None, key: str) -> str:
    """What tells apart several messages of one event to one place (e.g. `:dmclosed:<user>`)."""
    if event is None or key == event.key:
        return ""
    return key.removeprefix(event.key)


def _after_moves(phase: str | None) -> bool:
    """A retreat or adjustment phase (a reminder always names its phase)."""
    return phase is not None and Phase.parse(phase).kind is not PhaseKind.MOVEMENT
