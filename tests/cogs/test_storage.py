"""Storage trouble seen from Discord: a damaged game tells its GM, a full disk tells the
player their orders were NOT saved; the other games and the bot go on."""

from __future__ import annotations

import sqlite3

from bot.core.model import Power
from tests.cogs.conftest import Table


async def test_a_game_damaged_while_the_bot_was_down_is_reported_to_its_gm(table: Table) -> None:
    broken = await table.create_started_game(name="Vienna")
    healthy = await table.create_started_game(name="Trieste")
    await table.settle()
    await table.kill()
    con = sqlite3.connect(table.db)
    con.execute("UPDATE phases SET position_json = '{not json' WHERE game_id = ?", (broken,))
    con.commit()
    con.close()
    gm_dms = len(table.fake.state.dms_to(table.gm.id))
    await table.boot()
    await table.settle()
    notice = await table.fake.dm_reply(table.gm, gm_dms)
    assert f"game **Vienna** (#{broken}) is stopped" in notice.content
    assert "The other games go on" in notice.content
    assert table.service is not None
    assert (await table.service.status(healthy)).broken is None
    germany = table.players[Power.GERMANY]
    before = len(table.fake.state.dms_to(germany.id))
    await table.fake.send_dm(germany, f"#{broken}\nA MUN - RUH")
    reply = await table.fake.dm_reply(germany, before)
    assert f"game #{broken} cannot be read" in reply.content
    await table.fake.send_dm(germany, f"#{healthy}\nA MUN - RUH")
    reply = await table.fake.dm_reply(germany, before + 1)
    assert "A MUN - RUH" in reply.content


async def test_a_full_disk_tells_the_player_the_orders_were_not_saved(table: Table) -> None:
    game_id = await table.create_started_game()
    await table.settle()
    assert table.service is not None
    store = table.service.storage.store
    pages = (await store.fetchone("PRAGMA page_count"))[0]
    await store.fetchone(f"PRAGMA max_page_count = {pages}")
    germany = table.players[Power.GERMANY]
    seen = len(table.fake.state.dms_to(germany.id))
    for _ in range(300):  # every accepted set is kept: the file fills up
        await table.fake.send_dm(germany, f"#{game_id}\nA MUN - RUH\nF KIE - DEN")
        reply = await table.fake.dm_reply(germany, seen)
        seen = len(table.fake.state.dms_to(germany.id))
        if "NOT saved" in reply.content:
            break
    assert "NOT saved" in reply.content
    assert "Traceback" not in reply.content
