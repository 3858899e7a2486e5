"""The status board (issue 31) through a game on the fake Discord: posted once at the start,
pinned, edited in place (never posted again) through the phases, across a restart, posted
again when someone deletes it; coalesced edits; never an order on it."""

from __future__ import annotations

import asyncio
from collections import Counter

from bot.core.model import Power
from bot.discord_app.status_board import StatusBoards
from tests.cogs.conftest import Table
from tests.cogs.test_table_flow import MOVES, SPRING, WRITING, send_opening
from tests.fake_discord.state import SentMessage

FAST = 0.1  # seconds between two edits of a board here (5 s in the bot)


def boards(table: Table) -> StatusBoards:
    assert table.bot is not None
    cog = table.bot.get_cog("StatusBoard")
    assert cog is not None
    found: StatusBoards = cog.boards  # type: ignore[attr-defined]
    found.interval = FAST
    return found


def board_messages(table: Table) -> list[SentMessage]:
    return [
        m
        for m in table.fake.state.messages_in(table.table.id)
        if m.embeds and str(m.embeds[0].get("title", "")).endswith("— status")
    ]


async def quiet(table: Table) -> None:
    await table.settle()
    await asyncio.sleep(FAST * 3)
    await boards(table).idle()


async def test_the_board_is_edited_in_place_through_a_game(table: Table) -> None:
    fake = table.fake
    boards(table)
    game_id = await table.create_started_game()
    await quiet(table)
    [board] = board_messages(table)
    assert fake.rest.pins.pinned[table.table.id] == [board.id]
    assert "Spring 1901 Movement" in board.text()
    assert "not yet" in board.text()

    await send_opening(table)
    await quiet(table)
    await fake.wait_for(lambda: "ordered ✓" in board_messages(table)[0].text(), what="ordered")
    text = board_messages(table)[0].text()
    assert text.count("ordered ✓") == 7
    for order in MOVES:  # who, never what
        assert order not in text

    await table.advance(SPRING + WRITING)
    await quiet(table)
    for _ in range(40):  # the Fall and the Winter pass with nobody ordering
        status = await table.service.status(game_id)
        if status.phase and status.phase.startswith("S1902"):
            break
        due = await table.service.next_due(game_id)
        assert due is not None
        table.clock.set(due)
        await quiet(table)
    await quiet(table)
    assert len(board_messages(table)) == 1, "a board is edited, never posted again"
    assert "Spring 1902 Movement" in board_messages(table)[0].text()

    per_phase: Counter[str] = Counter()
    for (gid, phase, what), n in boards(table).done.items():
        assert gid == game_id
        per_phase[f"{phase} {what}"] += n
    print("status board, per phase:", dict(sorted(per_phase.items())))
    assert sum(n for key, n in per_phase.items() if key.endswith("post")) == 1
    edits = sum(n for key, n in per_phase.items() if key.endswith("edit"))
    assert edits >= 4  # the phases changed, the orders came in

    # A restart: the board is found again (stored), not posted a second time.
    await table.shutdown()
    await table.boot()
    boards(table)
    await quiet(table)
    assert len(board_messages(table)) == 1
    await table.command(table.gm, "gm pause")
    await quiet(table)
    [same] = board_messages(table)
    assert same.id == board.id
    assert "Paused" in same.text()

    # Someone deletes the board: it is posted again (and pinned).
    await fake.rest.pins.delete_by_user(same)
    await fake.wait_for(lambda: len(board_messages(table)) == 1, what="a new board")
    await quiet(table)
    [again] = board_messages(table)
    assert again.id != board.id
    assert fake.rest.pins.pinned[table.table.id] == [again.id]


async def test_edits_are_coalesced_and_unchanged_boards_left_alone(table: Table) -> None:
    keeper = boards(table)
    keeper.interval = 0.5
    game_id = await table.create_started_game()
    await quiet(table)
    await asyncio.sleep(0.6)
    before = sum(keeper.done.values())
    for _ in range(50):
        keeper.touch(game_id)
    await keeper.idle()
    assert sum(keeper.done.values()) == before  # nothing changed: no edit
    user = table.players[Power.FRANCE]
    for text in ("A PAR H", "A PAR - BUR", "A PAR - PIC"):
        await table.service.submit(game_id, str(user.id), text)
        keeper.touch(game_id)
    await asyncio.sleep(0.6)
    await keeper.idle()
    assert sum(keeper.done.values()) - before == 1  # three changes, one edit


async def test_a_board_without_the_right_to_pin_still_works(table: Table) -> None:
    table.fake.rest.pins.allowed = False
    boards(table)
    await table.create_started_game()
    await quiet(table)
    assert len(board_messages(table)) == 1
    assert not table.fake.rest.pins.pinned.get(table.table.id)
