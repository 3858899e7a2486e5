"""A French table: game messages in the game's language, help in the user's locale."""

from __future__ import annotations

from tests.cogs.conftest import Table
from tests.cogs.test_table_flow import SPRING, WRITING, maps_in


async def test_a_french_game_speaks_french(table: Table) -> None:
    synced = {c["name"]: c for c in table.fake.state.command_syncs[-1].commands}
    assert synced["game"]["name_localizations"]["fr"] == "partie"
    assert synced["orders"]["description_localizations"]["fr"] == "Vos ordres secrets"

    await table.create_started_game(language="fr")
    await table.advance(SPRING + WRITING)
    await table.fake.wait_for(lambda: maps_in(table, table.table))
    texts = "\n".join(m.content for m in table.fake.state.messages_in(table.table.id))
    assert "commence" in texts
    assert "Résultats de Printemps 1901" in texts
    assert "Allemagne :" in texts.splitlines()  # stabbeurfou 4 notation, in French
    assert "La presse est fermée" in texts


async def test_a_french_user_is_refused_in_french(table: Table) -> None:
    table.outsider.locale = "fr"
    reply = await table.command(table.outsider, "orders show")
    assert reply.ephemeral
    assert "Aucune partie ne correspond" in reply.content
