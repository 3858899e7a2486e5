"""Stab! at a French and an English table on the fake Discord (issue 35): placement and
conditional retreats sent by DM in the game's nomenclature are saved; the public report at the
table, each player's DM (public and private report) and the GM's DM write every place in it
and every power by its name; `/game create variant:stab` says Stab! is chosen with rules:."""

from __future__ import annotations

import pytest

from bot.core.model import Power
from tests.bot.service.recording import RecordingEngine
from tests.bot.service.test_stab_names import ENGLISH_SPRING, FRENCH_SPRING, SPRING_READS
from tests.cogs.conftest import Table

SPRING = 8 * 60 + 60  # edc2023: 8' negotiation, 1' writing
SAVED = {"fr": "Enregistré", "en": "Saved"}


def as_embedded(line: str) -> str:
    """A results line as the results embed's field shows it (bot/discord_app/embeds.py):
    `A PIE - TOU; (échec)` -> ✗ `A PIE - TOU` (échec); a success -> • `A MUN - BOU`."""
    order, _, mark = line.partition("; ")
    return f"✗ `{order}` {mark}" if mark else f"• `{order}`"


@pytest.mark.parametrize(("lang", "sets"), [("fr", FRENCH_SPRING), ("en", ENGLISH_SPRING)])
async def test_a_stab_spring_reads_and_speaks_the_games_names(
    table: Table, lang: str, sets: dict[Power, str]
) -> None:
    fake = table.fake
    await table.shutdown()
    await table.boot(engine=RecordingEngine(draw=True))
    options = {"name": "Stab", "clock": "edc2023", "rules": "stab", "retreats": "conditional"}
    reply = await table.command(table.gm, "game create", {**options, "language": lang})
    game_id = int(reply.content.split("(#")[1].split(")")[0])
    for power, user in table.players.items():
        await table.command(user, "game join", {"power": power.value})
    await table.command(table.gm, "game start")
    await table.settle()
    for power, text in sets.items():
        user = table.players[power]
        before = len(fake.state.dms_to(user.id))
        await fake.send_dm(user, text)
        ack = await fake.dm_reply(user, before)
        assert SAVED[lang] in ack.content, ack.content
    dms = {p: len(fake.state.dms_to(u.id)) for p, u in table.players.items()}
    gm_dms = len(fake.state.dms_to(table.gm.id))
    posted = len(fake.state.messages_in(table.table.id))
    await table.advance(SPRING)
    await fake.wait_for(lambda: fake.state.files_in(table.table.id))
    await table.advance(1)

    reads = SPRING_READS[lang]
    public = [m.text() for m in fake.state.messages_in(table.table.id)[posted:]]
    lines = "\n".join(public).splitlines()
    for line in reads["public"]:
        assert as_embedded(line) in lines, (line, public)
    for power in (Power.FRANCE, Power.GERMANY, Power.ITALY):
        got = fake.state.dms_to(table.players[power].id)[dms[power] :]
        told = "\n".join(m.text() for m in got).splitlines()
        for line in reads[power]:
            assert line in told, (line, told)
    gm = "\n".join(m.text() for m in fake.state.dms_to(table.gm.id)[gm_dms:])
    if lang == "fr":  # not one English place or power id among the French ones
        for english in ("A MAR", "A BUR", "RUH", "FRANCE", "GERMANY", "ITALY"):
            assert english not in gm, english
    else:
        assert "**Private report for Germany**" in gm
    assert (await table.service.status(game_id)).phase == "F1901M"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("lang", "says"),
    [
        ("en", "'stab' is a rule set, not a variant: choose it with rules:stab"),
        ("fr", "« stab » est un jeu de règles, pas une variante : choisissez-le avec règles:stab"),
    ],
)
async def test_variant_stab_points_to_the_rules_option(table: Table, lang: str, says: str) -> None:
    reply = await table.command(
        table.gm, "game create", {"name": "S", "variant": "stab", "language": lang}
    )
    assert reply.ephemeral
    assert says in reply.content, reply.content
    assert await table.service.list_games() == []  # type: ignore[union-attr]
    unknown = await table.command(table.gm, "game create", {"variant": "nowhere"})
    assert "Unknown variant 'nowhere'" in unknown.content
