"""A simulated EDC weekend on the fake Discord (issue 15, "Done when"): 49 players, 4 rounds,
a final table. The director runs it with /tournament; players check in and the finalists
choose their places and countries with it; every table is a game in its own thread on one
round clock; time is called with the centres of each board (/tournament result); the
standings are posted after each round as a picture, CSV and JSON; the export has it all."""

from __future__ import annotations

import asyncio
import csv
import io
import json
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from PIL import Image

from bot.client import ParleyBot
from bot.core.map import load_map
from bot.service import FakeClock, TableService
from tests.fake_discord import FakeChannel, FakeDiscord, FakeUser

PLAYERS = 49


class Weekend:
    def __init__(self, fake: FakeDiscord, channel: FakeChannel, td: FakeUser) -> None:
        self.fake, self.channel, self.td = fake, channel, td
        self.players: list[FakeUser] = []
        self.service: TableService | None = None
        self.bot: ParleyBot | None = None

    async def command(self, user: FakeUser, name: str, options: dict | None = None):
        record = await self.fake.slash(user, name, options or {}, channel=self.channel)
        return await self.fake.reply_to(record, within=20)

    @property
    def tours(self):
        assert self.bot is not None
        return self.bot.get_cog("TournamentCog").tours  # type: ignore[union-attr]

    def key(self, user: FakeUser) -> str:
        return str(user.id)


@pytest.fixture
async def weekend(tmp_path: Path) -> AsyncIterator[Weekend]:
    async with FakeDiscord() as fake:
        guild = fake.add_guild("EDC 2023", ["tournament"])
        w = Weekend(fake, fake.state.channel_named("tournament"), fake.state.owner)
        w.players = [fake.add_user(f"player{i:02d}") for i in range(PLAYERS)]
        fake.join(guild, *w.players)
        w.service = await TableService.open(
            tmp_path / "parley.db", clock=FakeClock(), run=False, render=False
        )
        w.bot = ParleyBot(w.service, guild_ready_timeout=0.05)
        await w.bot.login(fake.token)
        task = asyncio.create_task(w.bot.connect())
        await asyncio.wait_for(w.bot.wait_until_ready(), 10)
        try:
            yield w
        finally:
            await w.bot.close()
            await asyncio.wait_for(task, 5)
            await w.service.close()


def _centres(rng: random.Random, powers: list[str], total: int) -> str:
    """A board when time is called: every centre owned, nobody at 18 (no solo)."""
    counts = dict.fromkeys(powers, 0)
    for _ in range(total - 4):  # a few centres stay neutral
        p = rng.choice([p for p in powers if counts[p] < 12])
        counts[p] += 1
    return ", ".join(f"{p.title()} {n}" for p, n in counts.items())


async def _play_round(w: Weekend, n: int, rng: random.Random) -> None:
    assert w.service is not None
    tables = [t for t in (await _snap(w)).tables if t.round_no == n]
    games = [t.game_id for t in tables]
    # One clock for the round: every table has the same writing deadline.
    deadlines = {(await w.service.status(g)).deadline for g in games}
    assert len(deadlines) == 1
    assert None not in deadlines
    for t in tables:
        powers = [p.value for p in load_map(t.variant).powers]
        total = len(load_map(t.variant).supply_centers)
        board = _centres(rng, powers, total)
        reply = await w.command(w.td, "tournament result", {"table": t.table_no, "centres": board})
        assert f"Table {t.table_no} is over" in reply.content


async def _snap(w: Weekend):
    from bot.service.tournaments.state import snapshot  # noqa: PLC0415

    return await snapshot(w.tours.storage, 1)


def _standings_posts(w: Weekend) -> list:
    return [
        m
        for m in w.fake.state.messages_in(w.channel.id)
        if m.interaction_id is None and "standings after round" in m.content
    ]


async def test_an_edc_weekend_49_players_4_rounds_and_a_final_table(weekend: Weekend) -> None:
    w = weekend
    assert w.service is not None
    rng = random.Random(2023)
    reply = await w.command(w.td, "tournament create", {"name": "EDC 2023", "language": "en"})
    assert "Tournament EDC 2023 (#1) created" in reply.content
    await w.command(w.td, "tournament apart", {"first": w.players[0], "second": w.players[1]})
    for n in range(1, 5):
        # Check-in: players themselves (some), the director for the rest.
        for i, p in enumerate(w.players):
            if i < 5:
                reply = await w.command(p, "tournament checkin")
                assert f"checked in for round {n}" in reply.content
            else:
                await w.tours.check_in(1, w.key(p), by=w.key(w.td))
        reply = await w.command(w.td, "tournament seat")
        assert f"Proposed seating for round {n}: 7 table(s), 49 seats" in reply.content
        snap = await _snap(w)
        at_table = [{p for p, _ in json.loads(t.seats_json)} for t in snap.tables_of(n)]
        keep = {w.key(w.players[0]), w.key(w.players[1])}
        assert not any(keep <= seated for seated in at_table)  # the director's keep-apart
        if n == 4:
            # B: 28+ players with a strictly positive result after round 3: a final table.
            seating = [m.content for m in w.fake.state.messages_in(w.channel.id)]
            assert any("Final table. Step 1" in text for text in seating[-3:])
            assert snap.round(4).is_final
            await _final_choice(w, snap)
        reply = await w.command(w.td, "tournament start")
        assert f"Round {n} has started: 7 table(s)" in reply.content
        snap = await _snap(w)
        threads = {t.thread_id for t in snap.tables_of(n)}
        assert len(threads) == 7
        assert all(w.fake.state.channels[int(t)].parent_id == w.channel.id for t in threads)
        await w.service.run_due()
        status = await w.command(w.td, "tournament status")
        assert f"Round {n}; the round clock is at S1901M" in status.content
        await _play_round(w, n, rng)
        await w.fake.wait_for(lambda n=n: len(_standings_posts(w)) >= n, within=20)
    posts = _standings_posts(w)
    assert len(posts) == 4
    for m in posts:
        assert sorted(f.filename.rsplit(".", 1)[1] for f in m.files) == ["csv", "json", "png"]
        assert m.embeds[0]["fields"][0]["value"].startswith("**1.** <@")  # the feed embed
    last = posts[-1]
    png = next(f for f in last.files if f.filename.endswith(".png"))
    picture = Image.open(io.BytesIO(png.data))
    assert picture.height > 49 * 20  # a row per player
    table = list(csv.DictReader(io.StringIO(_file(last, "csv").decode())))
    assert len(table) == PLAYERS
    snap = await _snap(w)
    winner = snap.row.final_winner
    assert winner is not None
    assert table[0]["player"] == winner  # +1000: the final table's winner wins the tournament
    doc = json.loads(_file(last, "json"))
    assert doc["standings"][0]["detail"]["final_winner"] is True
    # The export: the tournament file, every seat with its centres and score, every game.
    record = await w.fake.slash(w.td, "tournament export", {}, channel=w.channel)
    reply = await w.fake.reply_to(record, within=30)
    export = json.loads(_file(reply, "json"))
    assert export["tournament"]["final_winner"] == winner
    assert len(export["games"]) == 28
    assert len(export["tables"]) == 4 * PLAYERS
    assert all(r["centers"] is not None and r["score"] is not None for r in export["tables"])
    assert [r["round"] for r in export["file"]["rounds"]] == [1, 2, 3, 4]
    rows = list(csv.DictReader(io.StringIO(_file(reply, "csv").decode())))
    assert len(rows) == 4 * PLAYERS
    # Nobody plays the same country twice (seed E) but at the final table (its own choice).
    seen: dict[str, set[str]] = {}
    repeats = 0
    for r in rows:
        if r["round"] == "4" and r["table"] == "1":
            continue
        repeats += r["power"] in seen.setdefault(r["player"], set())
        seen[r["player"]].add(r["power"])
    assert repeats == 0


async def _final_choice(w: Weekend, snap) -> None:
    """B's two steps: places from the lowest ranked up, then countries in place order."""
    plan = json.loads(snap.round(4).seating_json)["final"]
    finalists = plan["players"]  # best first
    users = {w.key(u): u for u in w.players}
    for place, p in enumerate(reversed(finalists), start=1):
        reply = await w.command(users[p], "tournament final", {"place": 8 - place})
        assert "will choose their country in place" in reply.content
    powers = [p.value for p in load_map("standard").powers]
    order = list(finalists)  # the best ranked took place 1
    for p, power in zip(order, powers, strict=True):
        reply = await w.command(users[p], "tournament final", {"country": power})
        assert f"plays {power}" in reply.content


def _file(message, ext: str) -> bytes:
    return next(f.data for f in message.files if f.filename.endswith(f".{ext}"))


async def test_a_french_tournament_refuses_in_french_and_posts_its_tables(
    weekend: Weekend,
) -> None:
    w = weekend
    assert w.service is not None
    reply = await w.command(w.td, "tournament create", {"name": "Coupe", "language": "fr"})
    assert "Tournoi Coupe (n° 1) créé" in reply.content
    reply = await w.command(w.td, "tournament schedule", {"round": 1, "start": "demain 19h"})
    assert "AAAA-MM-JJ HH:MM" in reply.content
    reply = await w.command(w.players[0], "tournament seat")
    assert reply.content == "Seul l’arbitre du tournoi peut faire cela."
    for p in w.players[:7]:
        await w.tours.check_in(1, w.key(p), by=w.key(p))
    await w.command(w.td, "tournament seat")
    reply = await w.command(w.td, "tournament start")
    assert "La ronde 1 a commencé : 1 table(s)" in reply.content
    [table] = (await _snap(w)).tables_of(1)
    thread = int(table.thread_id or 0)
    await w.service.run_due()
    await w.service.deliver()
    # The table's thread is the game's channel: the game's own posts go there.
    await w.fake.wait_for(lambda: w.fake.state.messages_in(thread), within=10)
    reply = await w.command(w.td, "tournament result", {"table": 1, "centres": "Prusse 3"})
    assert "Impossible de lire « Prusse 3 »" in reply.content
    await w.command(w.td, "tournament result", {"table": 1, "centres": "Allemagne 9, France 8"})
    await w.fake.wait_for(lambda: _standings_posts_fr(w), within=20)
    [post] = _standings_posts_fr(w)
    assert "Coupe : classement après la ronde 1." in post.content
    assert {f.filename.rsplit(".", 1)[1] for f in post.files} == {"png", "csv", "json"}


def _standings_posts_fr(w: Weekend) -> list:
    return [
        m
        for m in w.fake.state.messages_in(w.channel.id)
        if m.interaction_id is None and "classement après la ronde" in m.content
    ]


async def test_a_latecomer_takes_a_doublers_seat_by_command_in_french(weekend: Weekend) -> None:
    # EDC D: the latecomer replaces a player on two tables, at the table that player leaves,
    # with the coefficient (14-n)/14 (n = 1 in Spring 1901).
    w = weekend
    assert w.service is not None
    await w.command(w.td, "tournament create", {"name": "Coupe", "language": "fr"})
    doubler, late = w.players[0], w.players[20]
    for p in w.players[:13]:
        await w.tours.check_in(1, w.key(p), by=w.key(p))
    await w.tours.request(1, w.key(doubler), "two_tables")
    await w.command(w.td, "tournament seat")
    await w.command(w.td, "tournament start")
    await w.service.run_due()
    options = {"player": late, "replaces": doubler, "table": 2}
    reply = await w.command(w.players[1], "tournament latecomer", options)
    assert reply.content == "Seul l’arbitre du tournoi peut faire cela."
    reply = await w.command(w.td, "tournament latecomer", options)
    assert f"<@{late.id}> remplace <@{doubler.id}> à la table 2" in reply.content
    assert "× 0.9286 (EDC D : (14-n)/14, saison n = 1)" in reply.content
    table = (await _snap(w)).tables_of(1)[1]
    seated = [p for p, _ in json.loads(table.seats_json)]
    assert w.key(late) in seated
    assert w.key(doubler) not in seated
