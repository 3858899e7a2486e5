"""What the tournament cog posts: the seating, the round's status, and the standings as a
picture (renderer.standings) with CSV and JSON attachments, in the tournament's language."""

from __future__ import annotations

import asyncio
import datetime as dt
import io
import json
from collections.abc import Mapping
from typing import Protocol

import discord

from bot.core.map import load_map
from bot.core.tournament.model import StandingRow
from bot.discord_app.app import Parley
from bot.service.tournaments.export import standings_csv, standings_document
from bot.service.tournaments.rounds import RoundStatus
from bot.service.tournaments.state import Snapshot, seats, standings
from bot.service.tournaments.texts import tt
from renderer.standings import StandingLine, standings_png


class NamedParley(Parley, Protocol):
    """The bot, with the user cache that names players in pictures."""

    def get_user(self, id: int, /) -> discord.User | None: ...


def names_of(bot: NamedParley, snap: Snapshot, players: list[str]) -> dict[str, str]:
    """The names people read (issue 35): the director's or the one kept when the entrant
    entered (`snap.names`), else the bot's cache (it has no members intent), else the id."""
    out = {}
    for p in players:
        user = bot.get_user(int(p)) if p.isdigit() and p not in snap.names else None
        out[p] = snap.names.get(p) or (user.display_name if user is not None else p)
    return out


def power_label(power: str, lang: str, variant: str) -> str:
    if not power:
        return "?"
    return load_map(variant).power_name(load_map(variant).parse_power(power), lang)


def seating_lines(snap: Snapshot, n: int) -> list[str]:
    lang = snap.lang
    tables = snap.tables_of(n)
    players = sum(len(seats(t)) for t in tables)
    lines = [tt("reply.seating_head", lang, round=n, tables=len(tables), players=players)]
    for t in tables:
        seated = ", ".join(f"<@{p}> {power_label(power, lang, t.variant)}" for p, power in seats(t))
        lines.append(
            tt("reply.table_line", lang, table=t.table_no, variant=t.variant, seats=seated)
        )
    r = snap.round(n)
    plan = json.loads(r.seating_json) if r and r.seating_json else {}
    for key in ("withdrawn", "two_tables", "sitting_out"):
        if plan.get(key):
            who = ", ".join(f"<@{p}>" for p in plan[key])
            lines.append(tt(f"reply.{key}", lang, players=who))
    final = plan.get("final")
    if final:
        order = ", ".join(f"<@{p}>" for p in reversed(final["players"]))
        lines.append(tt("reply.final_head", lang, players=order))
    return lines


def status_lines(status: RoundStatus | None, lang: str) -> list[str]:
    if status is None:
        return [tt("reply.no_round", lang)]
    lines = [tt("reply.status_head", lang, round=status.round, phase=status.clock_phase or "-")]
    for t in status.tables:
        deadline = (
            dt.datetime.fromtimestamp(t.deadline, dt.UTC).strftime("%H:%M:%S")
            if t.deadline
            else "-"
        )
        line = tt(
            "reply.status_line",
            lang,
            table=t.table,
            game=t.game_id or "-",
            phase=t.phase or "-",
            status=t.status,
            deadline=deadline,
        )
        if t.behind:
            line += " " + tt("reply.status_behind", lang, n=t.behind)
        lines.append(line)
    return lines


def standings_files(
    snap: Snapshot, rows: list[StandingRow], names: Mapping[str, str], after_round: int
) -> list[discord.File]:
    """The picture, the CSV and the JSON of the standings."""
    lang = snap.lang
    lines = []
    for r in rows:
        counted: dict[int, float] = {}
        for e in r.detail.get("scores", []):
            if e.get("counted", True):
                counted[int(e["round"])] = float(e["score"])
        note = tt("picture.winner", lang) if r.detail.get("final_winner") else ""
        lines.append(StandingLine(r.rank, names.get(r.player, r.player), r.total, counted, note))
    png = standings_png(lines, title=snap.row.name, after_round=after_round, lang=lang)
    doc = json.dumps(standings_document(snap, rows, names), ensure_ascii=False, indent=1)
    stem = f"standings-{snap.id}-r{after_round}"
    return [
        discord.File(io.BytesIO(png), filename=f"{stem}.png"),
        discord.File(io.BytesIO(standings_csv(rows, names).encode()), filename=f"{stem}.csv"),
        discord.File(io.BytesIO(doc.encode()), filename=f"{stem}.json"),
    ]


async def standings_post(bot: NamedParley, snap: Snapshot) -> tuple[str, list[discord.File]]:
    """The message and files of the standings after the last round scored."""
    rows = standings(snap)
    played = [t.round_no for t in snap.tables if t.scores_json is not None]
    after = max(played, default=0)
    names = names_of(bot, snap, [r.player for r in rows])
    text = tt("reply.standings_head", snap.lang, name=snap.row.name, round=after)
    files = await asyncio.to_thread(standings_files, snap, rows, names, after)
    return text, files
