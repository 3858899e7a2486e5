from tests.cogs.conftest import Table


async def test_game_is_created_joined_and_started(table: Table) -> None:
    game_id = await table.create_started_game()
    status = await table.service.status(game_id)
    assert status.status == "active"
    assert len(status.players) == 7
