"""`parley doctor`: what a host checks before trusting the bot, one line per finding.

- Discord: the token is accepted (GET /users/@me); the intents are those the README asks for
  (none privileged; Message Content only with `--message-content`: the application's flags,
  GET /oauth2/applications/@me); the machine's clock against the `Date` of Discord's reply.
- Each running game's channels (GET /channels, /guilds, /guilds/{id}/members/{bot}): the bot
  can see, post, attach files and embeds in the table and spectator channels, read the
  table's history, and manage the press channel's permissions; each missing permission named
  with its game.
- The database answers, its migrations are current, its file system has room; with
  `--backups DIR`, the newest backup's age.

Plain REST with the bot token (aiohttp), not a gateway session: it runs beside the bot.
Findings are "ok", "warning" (worth a look) or "PROBLEM" (exit status 1).
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Any

import aiohttp

from bot.hosting import permissions as perm
from bot.service.storage.probe import DbProbe, RunningGame, probe

OK, WARNING, PROBLEM = "ok", "warning", "PROBLEM"
MESSAGE_CONTENT = (1 << 18) | (1 << 19)  # GATEWAY_MESSAGE_CONTENT (_LIMITED): app flags
CLOCK_WARN, CLOCK_PROBLEM = 2.0, 10.0  # seconds off Discord's clock (Date: whole seconds)
ROOM = 256 * 2**20  # free space below this (or below the database's size) is a problem
BACKUP_MAX_AGE = 26 * 3600.0  # a daily backup, with an hour or two of slack


@dataclass(frozen=True, slots=True)
class Finding:
    level: str  # OK | WARNING | PROBLEM
    text: str

    def line(self) -> str:
        return f"{self.level:7} {self.text}"


@dataclass
class Options:
    token: str
    db: str | None = None
    message_content: bool = False
    backups: Path | None = None
    backup_max_age: float = BACKUP_MAX_AGE
    now: Callable[[], float] = time.time
    max_games: int | None = None  # at start-up: the first ones only (REST calls are paced)


def failed(findings: list[Finding]) -> bool:
    return any(f.level == PROBLEM for f in findings)


async def diagnose(opts: Options) -> list[Finding]:
    """Every check; the database first (it names the games whose channels are checked)."""
    found: list[Finding] = []
    db = await probe(opts.db)
    found += database_findings(db)
    if opts.backups is not None:
        found.append(backup_finding(opts.backups, opts.backup_max_age, opts.now()))
    if not opts.token:
        found.append(Finding(PROBLEM, "DISCORD_TOKEN is not set: Discord not checked"))
        return found
    async with Rest(opts.token) as rest:
        found += await discord_findings(rest, opts)
        if rest.me is not None:
            games = db.games[: opts.max_games] if opts.max_games is not None else db.games
            try:
                for game in games:
                    found += await game_findings(rest, game)
            except (aiohttp.ClientError, TimeoutError, OSError) as exc:
                found.append(Finding(PROBLEM, f"Discord stopped answering ({exc!r})"))
            if len(games) < len(db.games):
                more = len(db.games) - len(games)
                found.append(Finding(WARNING, f"{more} more games not checked: parley doctor"))
    return found


# -- the database ------------------------------------------------------------------------------


def mib(n: int) -> str:
    return f"{n / 2**20:,.0f} MiB"


def running(n: int) -> str:
    return f"{n} game running" if n == 1 else f"{n} games running"


def database_findings(db: DbProbe) -> list[Finding]:
    if db.error is not None:
        return [Finding(PROBLEM, f"database {db.where} does not answer: {db.error}")]
    out = [Finding(OK, f"database {db.where} answers ({running(len(db.games))})")]
    if db.newer:
        out.append(
            Finding(
                PROBLEM,
                f"database has migration {db.newer[-1]}, newer than this Parley "
                f"({max(db.known, default=0)}): upgrade Parley",
            )
        )
    elif db.missing:
        names = ", ".join(f"{n:04d}" for n in db.missing)
        out.append(
            Finding(
                PROBLEM,
                f"migrations not applied: {names} (this Parley's; `parley run` applies them "
                "at start: restart the bot after the upgrade)",
            )
        )
    else:
        out.append(Finding(OK, f"migrations current ({max(db.applied, default=0):04d})"))
    size = db.size or 0
    if db.free is None:
        out.append(
            Finding(
                WARNING,
                f"room for the database: not visible from here (size {mib(size)}); "
                "watch the server's disk",
            )
        )
    elif db.free < max(ROOM, size):
        out.append(
            Finding(
                PROBLEM,
                f"only {mib(db.free)} free beside the database ({mib(size)}): a backup or a "
                "busy evening may fill the disk, and then nothing is saved",
            )
        )
    else:
        out.append(Finding(OK, f"{mib(db.free)} free beside the database ({mib(size)})"))
    return out


def backup_finding(folder: Path, max_age: float, now: float) -> Finding:
    try:
        files = [p for p in folder.iterdir() if p.is_file()]
    except OSError as exc:
        return Finding(PROBLEM, f"backups: cannot read {folder} ({exc.strerror or exc})")
    if not files:
        return Finding(PROBLEM, f"backups: none in {folder}")
    newest = max(files, key=lambda p: p.stat().st_mtime)
    age = now - newest.stat().st_mtime
    level = OK if age <= max_age else PROBLEM
    return Finding(level, f"last backup {newest.name}, {age / 3600:.1f} h old")


# -- Discord ---------------------------------------------------------------------------------


class Rest:
    """GETs on Discord's REST API with the bot token; 429s waited for as they ask."""

    def __init__(self, token: str) -> None:
        import discord.http  # noqa: PLC0415 - (its base URL: the tests' fake Discord patches it)

        self.base = discord.http.Route.BASE
        self.headers = {"Authorization": f"Bot {token}", "User-Agent": "Parley doctor"}
        self.session: aiohttp.ClientSession | None = None
        self.me: dict[str, Any] | None = None
        self.date: float | None = None  # Discord's clock, from the first reply's Date
        self._cache: dict[str, tuple[int, Any]] = {}

    async def __aenter__(self) -> Rest:
        self.session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=20))
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self.session is not None:
            await self.session.close()

    async def cached(self, path: str) -> tuple[int, Any]:
        """A server's roles and the bot's membership: read once for all its channels."""
        if path not in self._cache:
            self._cache[path] = await self.get(path)
        return self._cache[path]

    async def get(self, path: str) -> tuple[int, Any]:
        assert self.session is not None
        for _ in range(5):
            async with self.session.get(self.base + path, headers=self.headers) as resp:
                if self.date is None and "Date" in resp.headers:
                    self.date = parsedate_to_datetime(resp.headers["Date"]).timestamp()
                try:
                    body = await resp.json(content_type=None)
                except ValueError:  # (an empty or non-JSON body: a proxy's error page)
                    body = None
                if resp.status != 429:
                    return resp.status, body
                await asyncio.sleep(float((body or {}).get("retry_after", 1.0)))
        return 429, None


async def discord_findings(rest: Rest, opts: Options) -> list[Finding]:
    sent = opts.now()
    try:
        status, me = await rest.get("/users/@me")
    except (aiohttp.ClientError, TimeoutError, OSError) as exc:
        return [Finding(PROBLEM, f"Discord cannot be reached ({exc or type(exc).__name__})")]
    out = [clock_finding(rest.date, (sent + opts.now()) / 2)]
    if status == 401:
        return [Finding(PROBLEM, "Discord refused the token (DISCORD_TOKEN)"), *out]
    if status != 200:
        return [Finding(PROBLEM, f"Discord answered {status} to GET /users/@me"), *out]
    rest.me = me
    out.insert(0, Finding(OK, f"token accepted: the bot is {me.get('username')} ({me['id']})"))
    status, app = await rest.get("/oauth2/applications/@me")
    flags = int((app or {}).get("flags") or 0) if status == 200 else 0
    if status != 200:
        out.append(Finding(WARNING, f"intents: cannot read the application ({status})"))
    elif opts.message_content and not flags & MESSAGE_CONTENT:
        out.append(
            Finding(
                PROBLEM,
                "intents: --message-content asks for Message Content, which the application "
                "does not have: enable it in the Developer Portal (Bot page) or leave out "
                "--message-content",
            )
        )
    else:
        extra = " and Message Content" if opts.message_content else " (none privileged)"
        out.append(Finding(OK, f"intents: Guilds, Direct Messages{extra}, as README asks"))
    return out


def clock_finding(discord_time: float | None, local: float) -> Finding:
    if discord_time is None:
        return Finding(WARNING, "clock: Discord's reply had no Date header")
    skew = local - discord_time
    # Date has whole seconds: up to 1 s off is the header's rounding, not the clock.
    level = OK if abs(skew) < CLOCK_WARN else WARNING if abs(skew) < CLOCK_PROBLEM else PROBLEM
    if level == OK:
        return Finding(OK, f"clock: within {CLOCK_WARN:.0f} s of Discord's (its Date header)")
    ahead = "ahead of" if skew > 0 else "behind"
    fix = ": deadlines are kept by this clock; run NTP (timedatectl)"
    return Finding(level, f"clock: {abs(skew):.0f} s {ahead} Discord's{fix}")


# -- the games' channels --------------------------------------------------------------------


def channels_of(game: RunningGame) -> list[tuple[str, int, int]]:
    """(role, channel id, permissions needed) for each of the game's channels."""
    out: list[tuple[str, int, int]] = []
    if game.meta.get("channel"):
        out.append(("table", int(game.meta["channel"]), perm.TABLE))
    out += [("press", int(c), perm.PRESS) for c in game.meta.get("press") or []]
    out += [("spectators", int(c), perm.SPECTATORS) for c in game.meta.get("spectators") or []]
    return out


async def game_findings(rest: Rest, game: RunningGame) -> list[Finding]:
    assert rest.me is not None
    me = int(rest.me["id"])
    label = f"game #{game.id} {game.name!r}"
    out = []
    problems = 0
    for role, channel_id, need in channels_of(game):
        status, channel = await rest.get(f"/channels/{channel_id}")
        if status != 200:
            why = "cannot see" if status in (403, 404) else f"Discord answered {status} for"
            out.append(Finding(PROBLEM, f"{label}: {why} its {role} channel {channel_id}"))
            problems += 1
            continue
        name = f"#{channel.get('name', channel_id)}"
        thread = int(channel.get("type", 0)) in (10, 11, 12)
        overwrites = channel.get("permission_overwrites", [])
        if thread and channel.get("parent_id"):
            status, parent = await rest.get(f"/channels/{channel['parent_id']}")
            overwrites = parent.get("permission_overwrites", []) if status == 200 else []
        guild_id = int(channel["guild_id"])
        g_status, guild = await rest.cached(f"/guilds/{guild_id}")
        m_status, member = await rest.cached(f"/guilds/{guild_id}/members/{me}")
        if g_status != 200 or m_status != 200:
            out.append(Finding(PROBLEM, f"{label}: cannot read the server of {name}"))
            problems += 1
            continue
        base = perm.base_permissions(guild, member, me)
        have = perm.channel_permissions(base, overwrites, guild_id, member, me)
        lacking = perm.missing(have, need, thread=thread)
        if lacking:
            problems += 1
            out.append(
                Finding(PROBLEM, f"{label}: {role} channel {name} lacks " + ", ".join(lacking))
            )
    if not problems:
        out.append(Finding(OK, f"{label}: the bot may do its work in its channels"))
    return out


def token_from_env() -> str:
    return os.environ.get("DISCORD_TOKEN", "").strip()


def parse_duration(text: str) -> float:
    """`90s`, `30m`, `6h`, `2d` (or plain seconds) -> seconds; ValueError otherwise."""
    units = {"s": 1, "m": 60, "h": 3600, "d": 86400}
    text = text.strip().lower()
    scale = units.get(text[-1:], 0)
    number = float(text[:-1] if scale else text)
    if number <= 0:
        raise ValueError(text)
    return number * (scale or 1)
