"""What people read of a tournament on the fake Discord (issue 35), in English and French:
the standings picture, CSV and JSON and the export name entrants by the display name they
entered with (or the director's name for them), never by user id; a round's deadlines are
announced once, the same in every table's thread, with no "New deadline" after; when the
tables end by themselves, every table's "is over" comes before the standings."""

from __future__ import annotations

import asyncio
import csv
import io
import json
import re
import sys

import pytest

from bot.service import FakeClock
from renderer.standings import StandingLine
from tests.cogs.test_tournament import Weekend, _file, weekend  # noqa: F401 - the fixture

WORDS = {
    "en": {
        "named": "is shown as “Ann Example” in the standings and exports.",
        "head": "standings after round",
        "new": "New deadline",
        "over": "is over",
        "writing": "order writing starts",
    },
    "fr": {
        "named": "apparaît sous le nom « Ann Example » dans le classement et les exports.",
        "head": "classement après la ronde",
        "new": "Nouvelle heure limite",
        "over": "est terminée",
        "writing": "l'écriture des ordres commence",
    },
}


def _posts(w: Weekend, words: str) -> list:
    return [
        m
        for m in w.fake.state.messages_in(w.channel.id)
        if m.interaction_id is None and words in m.content
    ]


async def _round(w: Weekend, lang: str, players: int) -> list[int]:
    """A tournament in `lang`; `players` check in themselves; the round started; its
    tables' thread ids."""
    await w.command(w.td, "tournament create", {"name": "Cup", "language": lang})
    for p in w.players[:players]:
        await w.command(p, "tournament checkin")
    await w.command(w.td, "tournament seat")
    await w.command(w.td, "tournament start")
    assert w.service is not None
    await w.service.run_due()
    await w.service.deliver()
    snap = await post_snapshot(w)
    return [int(t.thread_id or 0) for t in snap.tables_of(1)]


async def post_snapshot(w: Weekend):
    from bot.service.tournaments.state import snapshot  # noqa: PLC0415

    return await snapshot(w.tours.storage, 1)


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_standings_and_exports_name_the_entrants(
    weekend: Weekend,  # noqa: F811
    lang: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    w = weekend
    drawn: list[list[str]] = []
    post = sys.modules["cogs.tournament.post"]  # (as the bot loaded its extension)
    draw = post.standings_png

    def recording(lines: list[StandingLine], **kw) -> bytes:
        drawn.append([line.name for line in lines])
        return draw(lines, **kw)

    monkeypatch.setattr(post, "standings_png", recording)
    ann = w.players[3]
    reply = await w.command(w.td, "tournament create", {"name": "Cup", "language": lang})
    for p in w.players[:7]:
        await w.command(p, "tournament checkin")
    reply = await w.command(w.td, "tournament name", {"player": ann, "name": " Ann   Example "})
    assert WORDS[lang]["named"] in reply.content, reply.content
    reply = await w.command(w.players[0], "tournament name", {"player": ann, "name": "x"})
    assert reply.ephemeral  # the director's alone
    await w.command(w.td, "tournament seat")
    await w.command(w.td, "tournament start")
    assert w.service is not None
    await w.service.run_due()
    board = "France 9, Germany 8" if lang == "en" else "France 9, Allemagne 8"
    await w.command(w.td, "tournament result", {"table": 1, "centres": board})
    await w.fake.wait_for(lambda: _posts(w, WORDS[lang]["head"]), within=20)
    [standings] = _posts(w, WORDS[lang]["head"])
    expected = {"Ann Example"} | {p.username for p in w.players[:7] if p is not ann}
    ids = {str(p.id) for p in w.players[:7]}
    rows = list(csv.DictReader(io.StringIO(_file(standings, "csv").decode())))
    assert {r["name"] for r in rows} == expected
    assert {r["player"] for r in rows} == ids  # the id stays, as the key
    doc = json.loads(_file(standings, "json"))
    assert {r["name"] for r in doc["standings"]} == expected
    assert [set(names) for names in drawn] == [expected]  # the picture's rows
    record = await w.fake.slash(w.td, "tournament export", {}, channel=w.channel)
    export = await w.fake.reply_to(record, within=30)
    assert {r["name"] for r in json.loads(_file(export, "json"))["tables"]} == expected
    seats = list(csv.DictReader(io.StringIO(_file(export, "csv").decode())))
    assert {r["name"] for r in seats} == expected


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_a_rounds_deadlines_are_said_once_alike_at_every_table(
    weekend: Weekend,  # noqa: F811
    lang: str,
) -> None:
    w = weekend
    assert w.service is not None
    clock = w.service.clock
    assert isinstance(clock, FakeClock)
    threads = await _round(w, lang, 14)
    assert len(threads) == 2
    games = [t.game_id for t in (await post_snapshot(w)).tables_of(1)]
    status = await w.service.status(games[0])
    assert status.deadline is not None
    clock.set(status.deadline)
    while {(await w.service.status(g)).phase for g in games} != {"F1901M"}:
        clock.advance(30)  # (the grace for late orders, then the adjudication)
        await w.service.run_due()
    opens = [(await w.service.status(g)).opens_at for g in games]
    clock.set(max(o or 0 for o in opens) + 1)  # edc-2023 B: reading 4'; the fall opens
    await w.service.run_due()
    assert [(await w.service.status(g)).phase for g in games] == ["F1901M", "F1901M"]

    def windows(thread: int) -> list[str]:
        texts = [m.content for m in w.fake.state.messages_in(thread)]
        return [t for t in texts if WORDS[lang]["writing"] in t]

    await w.service.deliver()
    await w.fake.wait_for(lambda: all(len(windows(t)) == 2 for t in threads), within=20)
    clock.advance(10)  # the 5-7 s in which a "New deadline" used to follow
    await w.service.run_due()
    await w.service.deliver()
    await asyncio.sleep(0.2)
    said = []
    for thread in threads:
        texts = [m.content for m in w.fake.state.messages_in(thread)]
        assert not any(WORDS[lang]["new"] in t for t in texts), texts
        assert len(windows(thread)) == 2, texts  # spring and fall, each said once
        said.append([re.findall(r"<t:(\d+):T>", t) for t in windows(thread)])
    assert said[0] == said[1]  # every table: the same writing start and deadline
    fall_writing, fall_deadline = (int(x) for x in said[0][1])
    assert fall_deadline - fall_writing == 60  # the writing minute before the round's deadline


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_every_tables_end_comes_before_the_standings(
    weekend: Weekend,  # noqa: F811
    lang: str,
) -> None:
    w = weekend
    assert w.service is not None
    threads = await _round(w, lang, 14)
    snap = await post_snapshot(w)
    for t in snap.tables_of(1):  # the tables end by themselves (the clock), no result typed
        assert t.game_id is not None
        status = await w.service.status(t.game_id)
        await w.service.end_game(t.game_id, status.gm, "time")
    await w.service.deliver()
    await w.fake.wait_for(lambda: _posts(w, WORDS[lang]["head"]), within=20)
    [standings] = _posts(w, WORDS[lang]["head"])
    for thread in threads:
        over = [m for m in w.fake.state.messages_in(thread) if WORDS[lang]["over"] in m.content]
        assert len(over) == 1
        assert int(over[0].id) < int(standings.id), "the standings came before a table's end"
