"""A French table: game messages in the game's language, help in the user's locale."""

from __future__ import annotations

from bot.core.model import Power
from tests.cogs.conftest import Table
from tests.cogs.test_table_flow import SPRING, WRITING, maps_in


async def test_a_french_game_speaks_french(table: Table) -> None:
    synced = {c["name"]: c for c in table.fake.state.command_syncs[-1].commands}
    assert synced["game"]["name_localizations"]["fr"] == "partie"
    assert synced["orders"]["description_localizations"]["fr"] == "Vos ordres secrets"

    await table.create_started_game(language="fr")
    await table.advance(SPRING + WRITING)
    await table.fake.wait_for(lambda: maps_in(table, table.table))
    texts = "\n".join(m.text() for m in table.fake.state.messages_in(table.table.id))
    assert "commence" in texts
    assert "Résultats de Printemps 1901" in texts
    assert "🟫 Allemagne" in texts.splitlines()  # the results embed's field, in French
    assert "Ensuite" in texts.splitlines()
    assert "La presse est fermée" in texts


async def test_a_french_user_is_refused_in_french(table: Table) -> None:
    table.outsider.locale = "fr"
    reply = await table.command(table.outsider, "orders show")
    assert reply.ephemeral
    assert "Aucune partie ne correspond" in reply.content


async def test_a_vote_ballot_dm_is_in_the_game_language(table: Table) -> None:
    game_id = await table.create_started_game(language="fr", rules="house")
    await table.settle()
    italy = table.players[Power.ITALY]
    before = len(table.fake.state.dms_to(italy.id))
    proposed = await table.command(table.players[Power.FRANCE], "vote concede", {"power": "RUSSIA"})
    assert "bulletin" in proposed.content, proposed.content
    dm = await table.fake.dm_reply(italy, before)
    assert f"Vienna (#{game_id}) : le vote n° 1 est ouvert, concéder la victoire à Russie" in (
        dm.content
    )
    labels = {c["label"] for row in dm.components for c in row.get("components", [])}
    assert labels == {"Pour", "Contre", "Abstention"}  # house-rules IX: abstentions
