"""Sandard (the EDC six-player board without Turkey) played from Discord, end to end: created
with `/game create variant:sandard`, six players join (Turkey refused), orders by DM, the
deadline, results and a map posted once; the map's legend, the final standings and the centre
chart name the six powers. (`/game create` takes only bundled variants: the test-only `tri` is
played through the service, tests/bot/service/test_variants.py.)"""

from __future__ import annotations

import importlib

import pytest
from PIL import ImageDraw

from bot.core.model import Power
from tests.cogs.conftest import Table
from tests.cogs.test_table_flow import OPENING, SPRING, WRITING, maps_in

SIX = [Power.AUSTRIA, Power.ENGLAND, Power.FRANCE, Power.GERMANY, Power.ITALY, Power.RUSSIA]
NAMES = {
    "en": ["Austria", "England", "France", "Germany", "Italy", "Russia"],
    "fr": ["Autriche", "Angleterre", "France", "Allemagne", "Italie", "Russie"],
}
TURKEY = {"en": "Turkey", "fr": "Turquie"}
RESULTS = {"en": "**Results of Spring 1901 Movement**", "fr": "**Résultats de Printemps 1901"}


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every text the renderer draws (maps and charts render in this process's threads)."""
    texts: list[str] = []
    original = ImageDraw.ImageDraw.text

    def text(self, xy, content, *args, **kw):
        texts.append(str(content))
        return original(self, xy, content, *args, **kw)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
    # A renderer made earlier in this process (another test's) keeps its legend drawn: a fresh
    # set, so that this test sees it drawn whatever ran before it (e.g. under pytest-xdist).
    # (The module: `renderer.render` the attribute is the function.)
    monkeypatch.setattr(importlib.import_module("renderer.render"), "_RENDERERS", {})
    return texts


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_sandard_is_played_from_discord(table: Table, drawn: list[str], lang: str) -> None:
    fake = table.fake
    options = {"name": "Sandbox", "clock": "edc2023", "rules": "datc", "variant": "sandard"}
    created = await table.command(table.gm, "game create", {**options, "language": lang})
    game_id = int(created.content.split("(#")[1].split(")")[0])
    refused = await table.command(table.players[Power.TURKEY], "game join", {"power": "TURKEY"})
    assert refused.ephemeral
    for power in SIX:
        joined = await table.command(table.players[power], "game join", {"power": power.value})
        assert not joined.ephemeral, joined.content
    await table.command(table.gm, "game start")
    await table.settle()
    status = await table.service.status(game_id)
    assert sorted(status.players) == sorted(SIX)
    assert status.variant == "sandard"

    for power in SIX:
        user = table.players[power]
        before = len(fake.state.dms_to(user.id))
        await fake.send_dm(user, OPENING[power])
        await fake.dm_reply(user, before)
    assert sorted((await table.service.status(game_id)).submitted) == sorted(SIX)

    drawn.clear()
    await table.advance(SPRING + WRITING)
    await fake.wait_for(lambda: maps_in(table, table.table), what="the map")
    await table.advance(1)
    await table.advance(1)
    posted = [m.text() for m in fake.state.messages_in(table.table.id)]
    results = [text for text in posted if text.startswith(RESULTS[lang])]
    assert len(results) == 1, posted
    assert maps_in(table, table.table) == 1
    [png] = fake.state.files_in(table.table.id)
    assert png.data.startswith(b"\x89PNG")
    lines = results[0].splitlines()
    [message] = [m for m in fake.state.messages_in(table.table.id) if m.text() == results[0]]
    # The results embed: a field per power, in the variant's order (issue 31)
    headings = [f["name"].split(" ", 1)[1] for f in message.embeds[0]["fields"][:6]]
    assert headings == NAMES[lang]
    assert "✗ `A VIE - GAL` (failed)" in lines or "✗ `A VIE - GAL` (échec)" in lines
    assert TURKEY[lang] not in results[0]
    legend = [text for text in drawn if text in NAMES[lang] or text == TURKEY[lang]]
    assert legend == NAMES[lang]  # the map's legend: six rows, in the variant's order

    drawn.clear()
    await table.command(table.gm, "gm end", {"reason": "time"})
    await table.advance(1)
    await fake.wait_for(lambda: maps_in(table, table.table) == 2, what="the centre chart")
    over = next(
        m.text()
        for m in fake.state.messages_in(table.table.id)
        if "**Sandbox**" in m.content and m.embeds and "```" in m.text()
    )
    # The scores table of the end embed: place, power, centres, score (issue 31)
    table_lines = over.split("```")[1].strip().splitlines()[1:]
    assert len(table_lines) == 6, over
    assert {line.split()[1] for line in table_lines} == set(NAMES[lang])
    assert TURKEY[lang] not in over
    chart = [
        text
        for text in drawn
        if any(text.startswith(n + " ") for n in [*NAMES[lang], TURKEY[lang]])
    ]
    assert len(chart) == 6, drawn
    assert not [text for text in chart if text.startswith(TURKEY[lang])]
