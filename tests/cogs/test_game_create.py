"""/game create with the settings a GM needs: a custom clock, years, scoring; the summary of
the chosen settings is posted to the table; a bad setting is refused and creates nothing."""

from __future__ import annotations

from tests.cogs.conftest import Table


async def test_settings_are_summarised_at_the_table(table: Table) -> None:
    options = {
        "name": "Lyon",
        "clock": "casual",
        "times": "negotiation: 10m writing: 2m reading: 3m",
        "years": 5,
        "scoring": "carnage",
    }
    reply = await table.command(table.gm, "game create", options)
    assert not reply.ephemeral
    text = reply.content
    assert "negotiation 10m, writing 2m, reading 3m" in text
    assert "after 5 game years" in text
    assert "scoring: carnage" in text
    assert "rules: datc" in text


async def test_french_summary(table: Table) -> None:
    options = {"name": "Lyon", "clock": "edc2023", "language": "fr"}
    reply = await table.command(table.gm, "game create", options)
    assert "Réglages de **Lyon**" in reply.content
    assert "négociation 8m" in reply.content


async def test_a_bad_clock_text_is_refused_and_creates_nothing(table: Table) -> None:
    reply = await table.command(table.gm, "game create", {"times": "negociaton: 10m"})
    assert reply.ephemeral
    assert "did you mean 'negotiation'?" in reply.content
    assert await table.service.list_games() == []


async def test_a_colour_blind_table_gets_colour_blind_maps(table: Table) -> None:
    reply = await table.command(
        table.gm, "game create", {"name": "Lyon", "clock": "edc2023", "palette": "colorblind"}
    )
    assert "colour-blind" in reply.content
    [game] = await table.service.list_games()
    assert game.meta["palette"] == "colorblind"
