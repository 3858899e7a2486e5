"""/tournament: a whole tournament on one server (issue 15; seed edc-2023 B, D, E, G). The
creator is the tournament director; the service (bot.service.tournaments.service) decides and
refuses, this cog only reads the options, creates each table's thread and posts."""

from __future__ import annotations

import datetime as dt
import io
import json
import logging
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.core import catalogue
from bot.core.presets import list_presets
from bot.core.scoring import SYSTEMS
from bot.core.tournament import aggregation
from bot.discord_app.embed_posts import feed_post
from bot.discord_app.interactions import (
    Refusal,
    guild_only_check,
    locale_lang,
    send,
    think,
    user_key,
)
from bot.service import clock_names
from bot.service.tournaments.export import export_document, tables_csv
from bot.service.tournaments.service import Tournaments
from bot.service.tournaments.state import snapshot, standings
from bot.service.tournaments.texts import tt
from cogs.tournament.post import (
    NamedParley,
    names_of,
    power_label,
    seating_lines,
    standings_post,
    status_lines,
)

log = logging.getLogger("parley.discord")

LANGUAGES = [
    app_commands.Choice(name=catalogue.meta(code).name, value=code)
    for code in catalogue.languages()
]
REQUESTS = [
    app_commands.Choice(name="Withdraw this round", value="withdraw"),
    app_commands.Choice(name="Play two tables", value="two_tables"),
    app_commands.Choice(name="No request", value="none"),
]
THREAD_ARCHIVE_MINUTES: Literal[1440] = 1440


def _choices(names: list[str], current: str) -> list[app_commands.Choice[str]]:
    typed = current.strip().lower()
    return [app_commands.Choice(name=n, value=n) for n in names if typed in n.lower()][:25]


@app_commands.guild_only()
class TournamentCog(
    commands.GroupCog, group_name="tournament", description="Run a tournament: rounds, tables"
):
    def __init__(self, bot: NamedParley) -> None:
        self.bot = bot
        self._tours: Tournaments | None = None
        super().__init__()

    async def cog_load(self) -> None:
        if getattr(self.bot, "service", None) is not None:
            self.tours.round_done.append(self._post_standings)

    @property
    def tours(self) -> Tournaments:
        if self._tours is None:  # hooks itself on the service's events
            self._tours = Tournaments(self.bot.service)
        return self._tours

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return await guild_only_check(interaction)

    async def _tid(self, interaction: discord.Interaction, given: int | None) -> int:
        """The `tournament` option, else the newest one of this channel (or of the channel
        a table thread belongs to)."""
        if given is not None:
            return given
        channel = interaction.channel
        ids = [str(interaction.channel_id)]
        parent = getattr(channel, "parent_id", None)
        if parent:
            ids.append(str(parent))
        for cid in ids:
            found = await self.tours.here(cid)
            if found:
                return found[0].id
        raise Refusal(tt("reply.no_tournament_here", locale_lang(interaction)))

    async def _remember(self, tid: int, user: discord.User | discord.Member) -> None:
        """An entrant's display name as they enter: the standings name them by it (the bot
        has no members intent to look it up later)."""
        await self.tours.remember_name(tid, user_key(user), user.display_name)

    # --- the tournament -----------------------------------------------------------------

    @app_commands.command(name="create", description="Create a tournament in this channel")
    @app_commands.describe(
        name="Name of the tournament",
        rules="Rule set of the tables (edc2023, datc, ...)",
        clock="Round clock (edc2023, ...)",
        scoring="Table scoring system",
        aggregation="Tournament rules: edc2023, sum, best-N, wdc2019, wdc2025",
        language="Language of the tournament",
        gms="Table GMs (mentions), in table order",
    )
    @app_commands.choices(language=LANGUAGES)
    async def create(  # noqa: PLR0917 - one parameter per slash-command option
        self,
        interaction: discord.Interaction,
        name: str,
        rules: str = "edc2023",
        clock: str = "edc2023",
        scoring: str = "edc2023",
        aggregation: str = "edc2023",
        language: app_commands.Choice[str] | None = None,
        gms: str = "",
    ) -> None:
        lang = language.value if language else locale_lang(interaction)
        named = [w.strip("<@!>") for w in gms.split() if w.strip("<@!>").isdigit()]
        row = await self.tours.create(
            user_key(interaction.user),
            name=name,
            guild_id=str(interaction.guild_id or ""),
            channel_id=str(interaction.channel_id or ""),
            rules=rules,
            clock=clock,
            scoring=scoring,
            aggregation=aggregation,
            lang=lang,
            gms=named,
        )
        text = tt("reply.created", lang, name=row.name, id=row.id, director=f"<@{row.director}>")
        await send(interaction, [text], ephemeral=False)

    @create.autocomplete("rules")
    async def _rules(
        self, _interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return _choices(list_presets(), current)

    @create.autocomplete("clock")
    async def _clocks(
        self, _interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return _choices(clock_names(), current)

    @create.autocomplete("scoring")
    async def _scoring(
        self, _interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return _choices(sorted(SYSTEMS), current)

    @create.autocomplete("aggregation")
    async def _aggregation(
        self, _interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return _choices(["edc2023", *aggregation.NAMES], current)

    @app_commands.command(name="schedule", description="Set a round's start (UTC) (director)")
    @app_commands.describe(
        round="Round number", start="Start, UTC: YYYY-MM-DD HH:MM", tournament="Tournament #"
    )
    async def schedule(
        self,
        interaction: discord.Interaction,
        round: app_commands.Range[int, 1, 20],
        start: str,
        tournament: int | None = None,
    ) -> None:
        tid = await self._tid(interaction, tournament)
        lang = (await self.tours.get(tid)).lang
        try:
            when = dt.datetime.strptime(start.strip(), "%Y-%m-%d %H:%M").replace(tzinfo=dt.UTC)
        except ValueError:
            raise Refusal(tt("reply.bad_time", lang, value=start)) from None
        await self.tours.schedule(tid, user_key(interaction.user), round, when.timestamp())
        await send(interaction, [tt("reply.scheduled", lang, round=round, at=start)])

    # --- entries ------------------------------------------------------------------------

    @app_commands.command(name="preregister", description="Announce the rounds you will play")
    @app_commands.describe(rounds="Round numbers, e.g. 1,2,3,4", tournament="Tournament #")
    async def preregister(
        self, interaction: discord.Interaction, rounds: str, tournament: int | None = None
    ) -> None:
        tid = await self._tid(interaction, tournament)
        lang = (await self.tours.get(tid)).lang
        numbers = rounds.replace(",", " ").split()
        if not numbers or not all(w.isdigit() and int(w) > 0 for w in numbers):
            raise Refusal(tt("reply.bad_rounds", lang, value=rounds))
        got = await self.tours.preregister(
            tid, user_key(interaction.user), [int(w) for w in numbers]
        )
        await self._remember(tid, interaction.user)
        await send(interaction, [tt("reply.preregistered", lang, rounds=", ".join(map(str, got)))])

    @app_commands.command(name="register", description="Confirm you play the next round")
    @app_commands.describe(tournament="Tournament #")
    async def register(
        self, interaction: discord.Interaction, tournament: int | None = None
    ) -> None:
        tid = await self._tid(interaction, tournament)
        n = await self.tours.register(tid, user_key(interaction.user))
        await self._remember(tid, interaction.user)
        await send(interaction, [tt("reply.registered", (await self.tours.get(tid)).lang, round=n)])

    @app_commands.command(name="checkin", description="Check in for the next round")
    @app_commands.describe(
        player="Check in someone else (director)",
        absent="Check out instead",
        tournament="Tournament #",
    )
    async def checkin(
        self,
        interaction: discord.Interaction,
        player: discord.User | None = None,
        absent: bool = False,
        tournament: int | None = None,
    ) -> None:
        tid = await self._tid(interaction, tournament)
        who = user_key(player or interaction.user)
        by = user_key(interaction.user)
        if absent:
            n = await self.tours.check_out(tid, who, by=by)
            key = "reply.checked_out"
        else:
            n = await self.tours.check_in(tid, who, by=by)
            await self._remember(tid, player or interaction.user)
            key = "reply.checked_in"
        lang = (await self.tours.get(tid)).lang
        await send(interaction, [tt(key, lang, user=f"<@{who}>", round=n)], ephemeral=False)

    @app_commands.command(name="request", description="Volunteer to withdraw or play two tables")
    @app_commands.describe(kind="What you offer for the next round", tournament="Tournament #")
    @app_commands.choices(kind=REQUESTS)
    async def request(
        self,
        interaction: discord.Interaction,
        kind: app_commands.Choice[str],
        tournament: int | None = None,
    ) -> None:
        tid = await self._tid(interaction, tournament)
        n = await self.tours.request(tid, user_key(interaction.user), kind.value)
        lang = (await self.tours.get(tid)).lang
        await send(interaction, [tt(f"reply.request_{kind.value}", lang, round=n)])

    @app_commands.command(name="count", description="Choose which of your two tables counts")
    @app_commands.describe(round="Round", table="Table number", tournament="Tournament #")
    async def count(
        self,
        interaction: discord.Interaction,
        round: app_commands.Range[int, 1, 20],
        table: app_commands.Range[int, 1, 200],
        tournament: int | None = None,
    ) -> None:
        tid = await self._tid(interaction, tournament)
        await self.tours.choose_count(tid, user_key(interaction.user), round, table)
        lang = (await self.tours.get(tid)).lang
        await send(interaction, [tt("reply.count", lang, round=round, table=table)])

    # --- the director -------------------------------------------------------------------

    @app_commands.command(name="apart", description="Never seat two players together (director)")
    @app_commands.describe(first="A player", second="Another player", tournament="Tournament #")
    async def apart(
        self,
        interaction: discord.Interaction,
        first: discord.User,
        second: discord.User,
        tournament: int | None = None,
    ) -> None:
        tid = await self._tid(interaction, tournament)
        a, b = user_key(first), user_key(second)
        await self.tours.keep_apart(tid, user_key(interaction.user), a, b)
        lang = (await self.tours.get(tid)).lang
        await send(interaction, [tt("reply.kept_apart", lang, a=f"<@{a}>", b=f"<@{b}>")])

    @app_commands.command(name="name", description="An entrant's name in the standings (director)")
    @app_commands.describe(
        player="The entrant",
        name="Their name in the standings and exports (empty: their display name)",
        tournament="Tournament #",
    )
    async def rename(
        self,
        interaction: discord.Interaction,
        player: discord.User,
        name: str = "",
        tournament: int | None = None,
    ) -> None:
        tid = await self._tid(interaction, tournament)
        who = user_key(player)
        shown = await self.tours.set_name(tid, user_key(interaction.user), who, name)
        key = "reply.named" if shown else "reply.unnamed"
        if not shown:  # their display name again: as it is now
            await self._remember(tid, player)
        lang = (await self.tours.get(tid)).lang
        await send(interaction, [tt(key, lang, user=f"<@{who}>", name=shown)], ephemeral=False)

    @app_commands.command(name="penalty", description="Give a penalty, EDC D 4 (director)")
    @app_commands.describe(
        player="The player",
        reason="refusal, contest, late, misconduct, or your own reason",
        points="Negative points (for your own reason)",
        tournament="Tournament #",
    )
    async def penalty(
        self,
        interaction: discord.Interaction,
        player: discord.User,
        reason: str,
        points: float | None = None,
        tournament: int | None = None,
    ) -> None:
        tid = await self._tid(interaction, tournament)
        who = user_key(player)
        got = await self.tours.penalty(tid, user_key(interaction.user), who, reason, points)
        lang = (await self.tours.get(tid)).lang
        shown = "-" if got is None else f"{got:g}"
        text = tt("reply.penalty", lang, user=f"<@{who}>", points=shown, reason=reason)
        await send(interaction, [text], ephemeral=False)

    @app_commands.command(name="seat", description="Propose the next round's seating (director)")
    @app_commands.describe(seed="Another draw (a number)", tournament="Tournament #")
    async def seat(
        self, interaction: discord.Interaction, seed: int = 0, tournament: int | None = None
    ) -> None:
        tid = await self._tid(interaction, tournament)
        await think(interaction, ephemeral=False)
        snap = await self.tours.seat(tid, user_key(interaction.user), seed=seed)
        await send(interaction, seating_lines(snap, snap.next_round()), ephemeral=False)

    @app_commands.command(name="swap", description="Swap two players' seats (director)")
    @app_commands.describe(
        first="A player", second="Another player (or a standby)", tournament="Tournament #"
    )
    async def swap(
        self,
        interaction: discord.Interaction,
        first: discord.User,
        second: discord.User,
        tournament: int | None = None,
    ) -> None:
        tid = await self._tid(interaction, tournament)
        snap = await self.tours.swap(
            tid, user_key(interaction.user), user_key(first), user_key(second)
        )
        await send(interaction, seating_lines(snap, snap.next_round()), ephemeral=False)

    @app_commands.command(
        name="latecomer", description="A latecomer replaces a player on two tables (director)"
    )
    @app_commands.describe(
        player="The latecomer",
        replaces="The player on two tables",
        table="The table they leave (their choice)",
        tournament="Tournament #",
    )
    async def latecomer(
        self,
        interaction: discord.Interaction,
        player: discord.User,
        replaces: discord.User,
        table: int,
        tournament: int | None = None,
    ) -> None:
        tid = await self._tid(interaction, tournament)
        late, doubler = user_key(player), user_key(replaces)
        seat = await self.tours.latecomer(tid, user_key(interaction.user), late, doubler, table)
        await self._remember(tid, player)
        lang = (await self.tours.get(tid)).lang
        text = tt(
            "reply.latecomer",
            lang,
            late=f"<@{late}>",
            doubler=f"<@{doubler}>",
            table=table,
            power=power_label(seat.power, lang, seat.variant),
            coefficient=f"{seat.coefficient:.4g}",
            season=seat.season,
        )
        await send(interaction, [text], ephemeral=False)

    @app_commands.command(name="final", description="Final table: your place, then your country")
    @app_commands.describe(
        place="Step 1: when you choose your country (1 = first)",
        country="Step 2: your country",
        player="For another finalist (director)",
        tournament="Tournament #",
    )
    async def final(
        self,
        interaction: discord.Interaction,
        place: app_commands.Range[int, 1, 7] | None = None,
        country: str | None = None,
        player: discord.User | None = None,
        tournament: int | None = None,
    ) -> None:
        tid = await self._tid(interaction, tournament)
        lang = (await self.tours.get(tid)).lang
        who = user_key(player or interaction.user)
        by = user_key(interaction.user)
        if (place is None) == (country is None):
            raise Refusal(tt("reply.final_usage", lang))
        if place is not None:
            nxt = await self.tours.final_slot(tid, who, place, by=by)
            text = tt("reply.final_slot", lang, user=f"<@{who}>", place=place)
        else:
            nxt = await self.tours.final_country(tid, who, country or "", by=by)
            text = tt("reply.final_country", lang, user=f"<@{who}>", country=country)
        text += " " + (tt("reply.final_next", lang, user=f"<@{nxt}>") if nxt else "")
        await send(interaction, [text.strip()], ephemeral=False)

    @app_commands.command(name="start", description="Start the round: one thread per table")
    @app_commands.describe(tournament="Tournament #")
    async def start(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        tid = await self._tid(interaction, tournament)
        by = user_key(interaction.user)
        snap = await snapshot(self.bot.service.storage, tid)
        self.tours.require_director(snap, by)
        await think(interaction, ephemeral=False)
        running = snap.running()  # a start cut short resumes
        n = running.round_no if running else snap.next_round()
        channels: dict[int, str] = {}
        for t in snap.tables_of(n):
            if t.game_id is not None:
                continue
            # A public thread per table in the tournament channel: spectators read it.
            made = await self.bot.http.start_thread_without_message(
                int(snap.row.channel_id),
                name=f"{snap.row.name} R{n} T{t.table_no}"[:100],
                auto_archive_duration=THREAD_ARCHIVE_MINUTES,
                type=11,
            )
            channels[t.table_no] = str(made["id"])
        snap = await self.tours.start_round(tid, by, channels)
        for t in snap.tables_of(n):
            if t.game_id is not None and t.thread_id:
                await self.bot.table_created(int(t.thread_id), t.game_id)
        text = tt("reply.started", snap.lang, round=n, tables=len(snap.tables_of(n)))
        threads = [f"{t.table_no}: <#{t.thread_id}>" for t in snap.tables_of(n)]
        await send(interaction, [text, *threads], ephemeral=False)

    @app_commands.command(name="result", description="Time is called: a table's centres")
    @app_commands.describe(
        table="Table number",
        centres="Each country's centres, e.g. France 7, England 5",
        tournament="Tournament #",
    )
    async def result(
        self,
        interaction: discord.Interaction,
        table: app_commands.Range[int, 1, 200],
        centres: str,
        tournament: int | None = None,
    ) -> None:
        tid = await self._tid(interaction, tournament)
        await think(interaction, ephemeral=False)
        points = await self.tours.record_result(tid, user_key(interaction.user), table, centres)
        lang = (await self.tours.get(tid)).lang
        shown = ", ".join(f"<@{p}> {v:g}" for p, v in sorted(points.items(), key=lambda x: -x[1]))
        await send(
            interaction, [tt("reply.result", lang, table=table, scores=shown)], ephemeral=False
        )

    @app_commands.command(name="status", description="The round clock and every table")
    @app_commands.describe(tournament="Tournament #")
    async def status(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        tid = await self._tid(interaction, tournament)
        lang = (await self.tours.get(tid)).lang
        await send(interaction, status_lines(await self.tours.status(tid), lang))

    @app_commands.command(name="standings", description="The standings (picture, CSV, JSON)")
    @app_commands.describe(tournament="Tournament #")
    async def standings(
        self, interaction: discord.Interaction, tournament: int | None = None
    ) -> None:
        tid = await self._tid(interaction, tournament)
        await think(interaction, ephemeral=False)
        snap = await snapshot(self.bot.service.storage, tid)
        text, files = await standings_post(self.bot, snap)
        await interaction.followup.send(
            text, files=files, allowed_mentions=discord.AllowedMentions.none()
        )

    @app_commands.command(name="export", description="The tournament and its games (JSON, CSV)")
    @app_commands.describe(tournament="Tournament #")
    async def export(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        tid = await self._tid(interaction, tournament)
        await think(interaction)
        snap = await snapshot(self.bot.service.storage, tid)
        names = names_of(self.bot, snap, snap.players())
        doc = await export_document(self.bot.service, snap, names)
        body = json.dumps(doc, ensure_ascii=False, indent=1).encode()
        files = [
            discord.File(io.BytesIO(body), filename=f"tournament-{tid}.json"),
            discord.File(
                io.BytesIO(tables_csv(snap, names).encode()), filename=f"tournament-{tid}.csv"
            ),
        ]
        await interaction.followup.send(
            tt("reply.export", snap.lang, name=snap.row.name), files=files, ephemeral=True
        )

    # --- after each round ---------------------------------------------------------------

    async def _post_standings(self, tid: int, n: int) -> None:
        """Posted in the tournament channel once a round's last table is over."""
        snap = await snapshot(self.bot.service.storage, tid)
        text, files = await standings_post(self.bot, snap)
        channel = self.bot.get_partial_messageable(int(snap.row.channel_id))
        rows = [(r.rank, r.player, r.total) for r in standings(snap)]
        posts = feed_post(tid, snap.row.name, snap.lang, n, rows)  # (many players: several)
        for i, embeds in enumerate(posts):
            await channel.send(
                text if i == 0 else None,
                files=files if i == 0 else [],
                embeds=[discord.Embed.from_dict(e) for e in embeds],
                allowed_mentions=discord.AllowedMentions.none(),
            )
        await self.tours.mark_posted(tid, n)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Standings of a round that ended while the bot was down are posted now."""
        for tid, n in await self.tours.unposted():
            try:
                await self._post_standings(tid, n)
            except discord.HTTPException as exc:
                log.warning("standings of tournament %s round %s not posted: %s", tid, n, exc)
