"""A long phase's results posted as embeds on the fake Discord (which refuses what Discord
would): several messages, each head numbered, the map with the last; text_only games."""

from __future__ import annotations

from bot.core.map import load_map
from bot.discord_app.embed_posts import numbered, text_only
from bot.discord_app.embeds import ResultsFacts, messages, results_embeds
from tests.cogs.conftest import Table
from tests.cogs.test_table_flow import SPRING, WRITING, maps_in, send_opening


def _long_results() -> list[list[dict]]:
    game_map = load_map("standard")
    lines = []
    for power in game_map.powers:
        lines.append(f"{game_map.power_name(power, 'en')}:")
        lines += [f"A P{i:03d} s A Q{i:03d} - R{i:03d}; (cut)" for i in range(150)]
    facts = ResultsFacts(1, "Vienna", "Spring 1901 Movement", tuple(lines), {}, "Fall", 0.0)
    return messages(results_embeds(facts, game_map, "en"))


async def test_a_long_phase_goes_over_several_messages(table: Table) -> None:
    assert table.bot is not None
    msgs = _long_results()
    assert len(msgs) > 1
    png = b"\x89PNG\r\n\x1a\n" + b"0" * 64
    await table.bot.notifier.post(
        table.table.id, ["**Results of Spring 1901**"], "long", png=png, embeds=msgs
    )
    posted = [m for m in table.fake.state.messages_in(table.table.id) if m.embeds]
    assert len(posted) == len(msgs)  # none refused (400) by the fake's limits
    assert [m.content for m in posted] == numbered("**Results of Spring 1901**", len(msgs))
    assert [len(m.files) for m in posted] == [0] * (len(msgs) - 1) + [1]
    assert posted[-1].embeds[-1]["image"]["url"] == "attachment://map.png"
    shown = "\n".join(m.text() for m in posted)
    assert shown.count("(cut)") == 150 * 7 + 1  # every order whole (and the legend)


async def test_a_text_only_game_keeps_the_plain_text(table: Table) -> None:
    game_id = await table.create_started_game()
    assert table.service is not None
    await table.service.set_meta(game_id, "text_only", True, by=str(table.gm.id))
    assert text_only(await table.service.status(game_id))
    await send_opening(table)
    await table.advance(SPRING + WRITING)
    await table.fake.wait_for(lambda: maps_in(table, table.table), what="results")
    [results] = [
        m for m in table.fake.state.messages_in(table.table.id) if "Results of" in m.content
    ]
    assert not results.embeds
    assert "A VIE - GAL; (failed)" in results.content.splitlines()
