"""A game's own channels on a casual server (`/game create channels:auto`), kept by the bot.

The bot makes a category named after the game with the table channel, a public press channel
and one private channel per power (its player and the GM; spectators and other players never),
all by permission overwrites (Discord: Create Guild Channel needs Manage Channels, overwrites
need Manage Roles). What it made is kept in the game's meta "casual": {"category", "table",
"press", "private": {POWER: channel}, "holders": {POWER: user}, "stab", "revealed"}.

`sync_access` gives each power's channel, its press threads and the right to talk in the public
press to whoever holds the power now, and takes them from whoever held it before: the game's
start, a replacement (one step: the old player's overwrites go, the new one's come) and press
reopening all call it; overwrites are idempotent, so a repeated event does no harm. `reveal`
at the game's end makes every channel read-only and opens the private channels to every
player, except under Stab! (hidden movement) where they stay closed until the GM opens them
(`/press reveal`): a power's channel may hold what its player wrote about their hidden units.
"""

from __future__ import annotations

import contextlib
import logging
import re
import unicodedata
from typing import Any, Final

import discord

from bot.core.map import load_map
from bot.core.model import Power
from bot.discord_app.app import Parley
from bot.discord_app.format import chunks, mention, power_name, stamp
from bot.discord_app.posting import Poster
from bot.service import Event, EventKind, GameStatus
from bot.service.clock.schedule import ct
from bot.service.games.access import BOT

log = logging.getLogger(__name__)

VIEW = 1 << 10
SEND = 1 << 11
READ_HISTORY = 1 << 16
ATTACH = 1 << 15
EMBED = 1 << 14
SEND_IN_THREADS = 1 << 38
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
MANAGE_CHANNELS = 1 << 4
MANAGE_ROLES = 1 << 28
TALK = SEND | SEND_IN_THREADS
PLAYER = VIEW | SEND | READ_HISTORY | ATTACH | EMBED
BOT_SELF = PLAYER | SEND_IN_THREADS | MANAGE_ROLES | MANAGE_CHANNELS
ROLE: Final = 0
MEMBER: Final = 1
TEXT: Final = 0
CATEGORY: Final = 4
NEEDED = {"Manage Channels": MANAGE_CHANNELS, "Manage Roles": MANAGE_ROLES}


def missing(permissions: int) -> list[str]:
    """The permissions `channels:auto` needs that the bot lacks (Discord's names)."""
    return [name for name, bit in NEEDED.items() if not permissions & bit]


def slug(text: str) -> str:
    """A channel name as Discord keeps text channels: lower case, dashes, at most 100."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]+", "-", plain).strip("-")[:100] or "game"


def _ow(target: int | str, kind: int, allow: int = 0, deny: int = 0) -> dict[str, Any]:
    return {"id": str(target), "type": kind, "allow": str(allow), "deny": str(deny)}


async def make_channels(
    bot: Parley,
    guild_id: int,
    *,
    name: str,
    gm: int,
    powers: list[tuple[Power, str]],
    stab: bool,
) -> dict[str, Any]:
    """Create the category and its channels; the meta "casual" of the game. Raises
    discord.Forbidden if Discord refuses (then what was already made is deleted)."""
    me = bot.user.id if bot.user else 0
    made: list[int] = []
    reason = "Parley: a game's channels"
    try:
        category = await bot.http.create_channel(guild_id, CATEGORY, name=name[:100], reason=reason)
        made.append(int(category["id"]))
        parent = int(category["id"])
        public = [_ow(me, MEMBER, BOT_SELF), _ow(gm, MEMBER, PLAYER | TALK)]
        table = await bot.http.create_channel(
            guild_id, TEXT, name="table", parent_id=parent, permission_overwrites=public
        )
        made.append(int(table["id"]))
        # The public press: everyone reads; the players talk (given at the start, sync_access).
        press_ows = [*public, _ow(guild_id, ROLE, 0, TALK | CREATE_PUBLIC_THREADS)]
        press = await bot.http.create_channel(
            guild_id, TEXT, name="press", parent_id=parent, permission_overwrites=press_ows
        )
        made.append(int(press["id"]))
        private: dict[str, str] = {}
        for power, label in powers:
            closed = [*public, _ow(guild_id, ROLE, 0, VIEW)]  # @everyone: not even seen
            channel = await bot.http.create_channel(
                guild_id,
                TEXT,
                name=slug(label),
                parent_id=parent,
                permission_overwrites=closed,
                reason=reason,
            )
            made.append(int(channel["id"]))
            private[power.value] = str(channel["id"])
    except discord.HTTPException:
        for channel_id in reversed(made):  # nothing half-made is left behind
            try:
                await bot.http.delete_channel(channel_id, reason="Parley: set-up failed")
            except discord.HTTPException:
                log.warning("could not delete channel %s after a failed set-up", channel_id)
        raise
    return {
        "category": str(parent),
        "table": str(table["id"]),
        "press": str(press["id"]),
        "private": private,
        "holders": {},
        "stab": stab,
        "revealed": False,
    }


def channel_of(game: GameStatus, power: Power | str) -> int | None:
    casual = game.meta.get("casual") or {}
    value = (casual.get("private") or {}).get(str(getattr(power, "value", power)))
    return int(value) if value else None


def power_at(game: GameStatus, channel_id: int) -> Power | None:
    """The power whose private channel is `channel_id`, if any."""
    casual = game.meta.get("casual") or {}
    for power, channel in (casual.get("private") or {}).items():
        if int(channel) == channel_id:
            return Power(power)
    return None


async def sync_access(bot: Parley, game: GameStatus) -> None:
    """Each power's channel, threads and press voice to its player now; taken from whoever
    held the power before (a replacement). Only what changed is sent; a press voice given
    while the press is locked waits for it to reopen ("press_pending")."""
    casual = dict(game.meta.get("casual") or {})
    if not casual or game.status == "forming":
        return
    holders: dict[str, str] = dict(casual.get("holders") or {})
    pending = set(casual.get("press_pending") or [])
    threads: list[dict[str, Any]] = list(game.meta.get("press_threads") or [])
    press = int(casual["press"])
    talk = game.press_open and not game.meta.get("press_lock")
    current = {p.value: u for p, u in game.players.items()}
    reason = "Parley: a power's player"
    for power, user in current.items():
        old = holders.get(power)
        if old != user:
            gone = old if old and old not in current.values() else None
            await _hand_over(bot, game, power, gone, old, user, threads)
            pending.discard(gone or "")
            pending.add(user)
        if user in pending and talk:
            await bot.http.edit_channel_permissions(
                press, int(user), str(PLAYER | TALK), "0", MEMBER, reason=reason
            )
            pending.discard(user)
    casual["holders"] = current
    casual["press_pending"] = sorted(pending)
    await bot.service.set_meta(game.id, "casual", casual, by=BOT)


async def _hand_over(  # noqa: PLR0917 - one power changing hands
    bot: Parley,
    game: GameStatus,
    power: str,
    gone: str | None,
    old: str | None,
    user: str,
    threads: list[dict[str, Any]],
) -> None:
    """`power` to `user`: its channel and threads; `gone` (who no longer plays) loses them
    and the press voice."""
    channel = channel_of(game, power)
    if gone:
        if channel:
            await _forget(bot, channel, int(gone))
        await _forget(bot, int(game.meta["casual"]["press"]), int(gone))
    for thread in threads:
        if power in thread["powers"]:
            if old:
                await _quietly(bot.http.remove_user_from_thread(int(thread["id"]), int(old)))
            await _quietly(bot.http.add_user_to_thread(int(thread["id"]), int(user)))
    if channel:
        await bot.http.edit_channel_permissions(
            channel, int(user), str(PLAYER), "0", MEMBER, reason="Parley: a power's player"
        )


async def _forget(bot: Parley, channel: int, user: int) -> None:
    await _quietly(bot.http.delete_channel_permissions(channel, user, reason="Parley: replaced"))


async def _quietly(job: Any) -> None:
    with contextlib.suppress(discord.NotFound):  # no overwrite or member: nothing to take
        await job


async def reveal(bot: Parley, game: GameStatus, *, private: bool) -> None:
    """At the end: every channel read-only; with `private`, the powers' channels open to
    every player (read-only too)."""
    casual = dict(game.meta.get("casual") or {})
    if not casual:
        return
    guild = int(game.meta.get("guild") or 0)
    reason = "Parley: the game is over"
    for key in ("category", "table", "press"):
        await bot.http.edit_channel_permissions(
            int(casual[key]), guild, "0", str(TALK), ROLE, reason=reason
        )
    gm = int(game.gm)
    users = {int(u) for u in (*game.players.values(), *(casual.get("holders") or {}).values())}
    users.discard(gm)  # the GM keeps their voice: a closing word stays possible
    read = str(VIEW | READ_HISTORY)
    for user in users:  # a player's own allow would outweigh @everyone's deny
        await bot.http.edit_channel_permissions(int(casual["press"]), user, read, str(TALK), MEMBER)
    holders = casual.get("holders") or {}
    for power, channel in (casual.get("private") or {}).items():
        await bot.http.edit_channel_permissions(
            int(channel), guild, "0", str(VIEW | TALK), ROLE, reason=reason
        )
        readers = users if private else {int(holders[power])} - {gm} if power in holders else set()
        for user in readers:
            await bot.http.edit_channel_permissions(int(channel), user, read, str(TALK), MEMBER)
    casual["revealed"] = casual.get("revealed") or private
    await bot.service.set_meta(game.id, "casual", casual, by=BOT)


def labels(game_powers: list[Power], lang: str, variant: str) -> list[tuple[Power, str]]:
    return [(p, power_name(p, lang, variant)) for p in game_powers]


async def after_event(notifier: Poster, event: Event, game: GameStatus) -> None:
    """A casual game's side of an event (called by the notifier after its own post): the
    reason a deadline moved, the channels' access."""
    why = event.payload.get("absence") if event.kind is EventKind.WINDOW_OPENED else None
    if isinstance(why, dict):  # an approved absence moved this phase's deadline
        line = ct(
            "absence_window",
            game.lang,
            user=mention(str(why["user"])),
            power=power_name(str(why["power"]), game.lang, game.variant),
            end=stamp(float(why["end"])),
            deadline=stamp(event.payload.get("deadline")),
        )
        await notifier.post(game.meta.get("channel"), [line], f"{event.key}:absence", event=event)
    if not game.meta.get("casual"):
        return
    try:
        await _channels_after(notifier, event, game)
    except (discord.Forbidden, discord.NotFound) as exc:
        # Rights taken back or a channel deleted by hand: retrying cannot fix it, and must not
        # hold back the game's later events. The log says what to give back.
        log.error("game %s: cannot update its channels (%s): %s", game.id, event.key, exc)


async def _channels_after(notifier: Poster, event: Event, game: GameStatus) -> None:
    bot = notifier.bot
    if event.kind in (EventKind.GAME_STARTED, EventKind.PLAYER_REPLACED, EventKind.PRESS_UNLOCKED):
        await sync_access(bot, await bot.service.status(game.id))  # (the lock changed meta)
    elif event.kind is EventKind.GAME_OVER:
        stab = bool(game.meta["casual"].get("stab"))
        await reveal(bot, game, private=not stab)
        if stab:  # Stab!: the GM opens the powers' channels when they see fit
            text = ct("stab_kept_closed", game.lang)
            await bot.notifier.dm(game.gm, text, f"{event.key}:casual")


async def set_up(
    bot: Parley,
    interaction: discord.Interaction,
    game: GameStatus,
    *,
    mode: str | None,
    press_given: bool,
    stab: bool,
    summary: list[str],
) -> list[str]:
    """Make the game's channels if asked (or by default where the bot may); the lines to add
    to /game create's reply. Without the permissions: a note naming them, the game as today."""
    lack = missing(interaction.app_permissions.value)
    wanted = mode == "auto" or (mode is None and not press_given and not lack)
    if not wanted or interaction.guild_id is None:
        return []
    if lack:
        return [ct("missing_permission", game.lang, permissions=", ".join(lack))]
    powers = labels(list(load_map(game.variant).powers), game.lang, game.variant)
    try:
        casual = await make_channels(
            bot,
            interaction.guild_id,
            name=game.name or f"Diplomacy {game.id}",
            gm=int(game.gm),
            powers=powers,
            stab=stab,
        )
    except discord.Forbidden:
        needed = ", ".join(NEEDED)
        return [ct("missing_permission", game.lang, permissions=needed)]
    except discord.HTTPException as exc:  # e.g. the server's 500 channels reached
        log.warning("game %s: channels not made: %s", game.id, exc)
        return [ct("channels_failed", game.lang, why=exc.text or exc.status)]
    gm = str(game.gm)
    await bot.service.set_meta(game.id, "channel", int(casual["table"]), by=gm)
    await bot.service.set_meta(game.id, "press", [int(casual["press"])], by=gm)
    await bot.service.set_meta(game.id, "casual", casual, by=gm)
    for channel in (casual["table"], *casual["private"].values()):  # commands resolve there
        await bot.table_created(int(channel), game.id)
    table = bot.get_partial_messageable(int(casual["table"]))
    for part in chunks(summary):  # the game's settings, at its own table
        await table.send(part, allowed_mentions=discord.AllowedMentions.none())
    return [
        ct("channels_made", game.lang, table=f"<#{casual['table']}>", press=f"<#{casual['press']}>")
    ]
