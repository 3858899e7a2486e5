"""Stab! (issue 14) at a table on the fake Discord: placement by DM with the Spring 1901
orders, then every message and every picture grepped for the hidden board. The renderer is
the real one behind a recording engine (tests/bot/service/recording.py): what it was GIVEN
to draw is checked, not guessed from pixels."""

from __future__ import annotations

from bot.core.model import Power
from tests.bot.service.recording import RecordingEngine
from tests.cogs.conftest import Table

PLACE_AND_ORDER = {
    Power.ENGLAND: "A YOR\nA WAL\nF CLY\nA YOR - LON",  # unopposed: hidden
    Power.FRANCE: "A PIC\nA PAR\nF BRE\nA PIC - BEL",  # bounces with Germany: revealed
    Power.GERMANY: "A RUH\nA MUN\nF KIE\nA RUH - BEL",
    Power.ITALY: "A VEN\nA ROM\nF NAP",
    Power.AUSTRIA: "A VIE\nA BUD\nF TRI",
    Power.RUSSIA: "A MOS\nA WAR\nF SEV\nF STP/SC",
    Power.TURKEY: "A CON\nA SMY\nF ANK",
}
REVEALED = {"PIC", "RUH"}
SPRING = 8 * 60 + 60  # edc2023: 8' negotiation, 1' writing


def units_of(power: Power) -> set[str]:
    """`A YOR`, ... : the units a power placed (and where they started the phase)."""
    return {line for line in PLACE_AND_ORDER[power].splitlines() if len(line.split()) == 2}


def hidden_from(viewer: Power | None) -> set[str]:
    """Unit texts a viewer must never read: other powers' units the report did not name."""
    return {
        u
        for p in PLACE_AND_ORDER
        if p is not viewer
        for u in units_of(p)
        if u.split()[1].split("/")[0] not in REVEALED
    } | {"A LON"}  # where England's army went


async def test_a_stab_spring_on_discord_leaks_nothing(table: Table) -> None:
    fake = table.fake
    await table.shutdown()
    engine = RecordingEngine(draw=True)
    await table.boot(engine=engine)
    reply = await table.command(
        table.gm,
        "game create",
        {"name": "Stab", "clock": "edc2023", "rules": "stab", "retreats": "conditional"},
    )
    game_id = int(reply.content.split("(#")[1].split(")")[0])
    settings = "\n".join(m.text() for m in fake.state.messages_in(table.table.id))
    assert "retreats written with the moves" in settings
    for power, user in table.players.items():
        await table.command(user, "game join", {"power": power.value})
    await table.command(table.gm, "game start")
    await table.command(table.gm, "spectate", {"game": game_id}, channel=table.spectators)
    await table.settle()
    for power, text in PLACE_AND_ORDER.items():
        user = table.players[power]
        before = len(fake.state.dms_to(user.id))
        await fake.send_dm(user, text)
        ack = await fake.dm_reply(user, before)
        assert "Saved" in ack.content, ack.content
    engine.drawn.clear()
    dms_before = {p: len(fake.state.dms_to(u.id)) for p, u in table.players.items()}
    gm_before = len(fake.state.dms_to(table.gm.id))
    posted_before = len(fake.state.guild_messages())  # (the settings' example: A YOR, F CLY)
    await table.advance(SPRING)
    await fake.wait_for(lambda: fake.state.files_in(table.spectators.id))
    await table.advance(1)

    # The table and the spectators: the public report and the public map, nothing else.
    for channel in (table.table, table.spectators):
        text = "\n".join(m.text() for m in fake.state.messages_in(channel.id))
        assert "A PIC - BEL" in text
        assert "A RUH - BEL" in text
        assert [f.filename for f in fake.state.files_in(channel.id)] == ["map.png"]
    for msg in fake.state.guild_messages()[posted_before:]:
        for unit in hidden_from(None):
            assert unit not in msg.text(), f"{unit!r} leaked in {msg.content!r}"
        for f in msg.files:
            assert f.filename == "map.png"  # (the bot gives its files no alt text)

    # Each player, by DM: the report, their units, their map; nothing of the others.
    for power, user in table.players.items():
        after = fake.state.dms_to(user.id)[dms_before[power] :]
        text = "\n".join(m.text() for m in after)
        assert "Private report for" in text, (power, text)
        assert "Public report" in text
        assert sum(len(m.files) for m in after) == 1
        for unit in hidden_from(power) - ({"A LON"} if power is Power.ENGLAND else set()):
            assert unit not in text, f"{unit!r} leaked to {power.value}: {text!r}"
    england = "\n".join(m.text() for m in fake.state.dms_to(table.players[Power.ENGLAND].id))
    assert "Your units: A LON, A WAL, F CLY" in england

    # The GM: everything.
    gm = "\n".join(m.text() for m in fake.state.dms_to(table.gm.id)[gm_before:])
    assert "GM view" in gm
    assert "A YOR - LON" in gm

    # Every picture of the phase: the GM's has the whole board; each other one only the
    # revealed units and one power's own.
    boards = [set(d.units) for d in engine.drawn]
    everyone = {u.split()[1][:3] for p in PLACE_AND_ORDER for u in units_of(p)}
    assert boards.count(everyone) == 1  # the GM's map
    for board in boards:
        if board == everyone:
            continue
        others = board - REVEALED
        mine = [p for p in PLACE_AND_ORDER if others <= {u.split()[1][:3] for u in units_of(p)}]
        assert mine, f"a map was given units of several powers: {board}"
    for drawn in engine.drawn:
        if set(drawn.units) != everyone:
            assert len(set(drawn.centres.values())) <= 1  # own centres at most

    # /history and /replay for a player show their view; /export waits for the end.
    replay = await table.command(table.players[Power.ITALY], "replay", {"game": game_id})
    assert [f.filename for f in replay.files] == [f"parley-{game_id}.gif"]
    svc = table.service
    assert svc is not None
    italy = await svc.hidden_replay(game_id, str(table.players[Power.ITALY].id))
    public = await svc.hidden_replay(game_id, str(table.outsider.id))
    gm_sees = await svc.hidden_replay(game_id, str(table.gm.id))
    on_board = [{u.location.province for u in pos.units.values()} for pos, _, _ in italy.frames]
    assert on_board == [{"VEN", "ROM", "NAP"} | REVEALED]  # one phase: own units + the report
    assert [{u.location.province for u in p.units.values()} for p, _, _ in public.frames] == [
        REVEALED
    ]
    assert {u.location.province for u in gm_sees.frames[0][0].units.values()} == everyone
    assert len(italy.sights) == len(italy.frames)
    export = await table.command(table.outsider, "export", {"game": game_id})
    assert "hidden until the game ends" in export.content
    mine = await table.command(table.players[Power.ITALY], "history", {"game": game_id})
    assert "A YOR" not in mine.content

    # A GM's correction names a unit and where it stands: to the GM alone.
    gm_dms = len(fake.state.dms_to(table.gm.id))
    await table.command(table.gm, "gm edit", {"change": "remove A VEN", "game": game_id})
    await table.settle()
    assert any("A VEN" in m.text() for m in fake.state.dms_to(table.gm.id)[gm_dms:])
    assert not any("A VEN" in m.text() for m in fake.state.guild_messages())

    # Fall: France takes Belgium; Italy lost A VEN. The Winter's table reminder names no one:
    # who owes adjustments tells units against centres (rule 3); the DMs remind them alone.
    france = table.players[Power.FRANCE]
    svc = table.service
    assert svc is not None
    status = await svc.status(game_id)
    await table.advance(status.opens_at - table.clock.now() + 1)  # the results' reading ends
    status = await svc.status(game_id)
    await table.advance(status.writing_at - table.clock.now() + 1)  # edc2023: writing only
    before = len(fake.state.dms_to(france.id))
    await fake.send_dm(france, "A PIC - BEL")
    assert "Saved" in (await fake.dm_reply(france, before)).content
    await table.advance(status.deadline - table.clock.now() + 3)
    status = await svc.status(game_id)
    assert status.phase == "W1901A", status.phase
    if status.opens_at is not None and status.opens_at > table.clock.now():
        await table.advance(status.opens_at - table.clock.now() + 1)
        status = await svc.status(game_id)
    posted = len(fake.state.messages_in(table.table.id))
    dms = len(fake.state.dms_to(france.id))
    await table.advance(status.deadline - table.clock.now() - 5)  # the 10" reminder
    reminder = [m.text() for m in fake.state.messages_in(table.table.id)[posted:]]
    assert any("reminded by DM" in m for m in reminder), reminder
    for power in ("France", "Italy", "Russia", "Germany"):
        assert not any(power in m for m in reminder), reminder
    assert any("Reminder" in m.text() for m in fake.state.dms_to(france.id)[dms:])
