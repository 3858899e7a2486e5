"""The status board's requests go after everything else (issue 31): its level is below DMs',
and the task `touch` starts carries that level."""

from __future__ import annotations

import asyncio

from bot.discord_app.pacing import DM, RESULTS, Pacer, priority, urgency
from bot.discord_app.status_board import BOARD, StatusBoards


async def test_board_edits_wait_behind_dms_and_results() -> None:
    pacer = Pacer(rate=1, per=0.05)
    await pacer.slot()
    order: list[str] = []

    async def one(name: str, level: int) -> None:
        with urgency(level):
            await pacer.slot()
        order.append(name)

    await asyncio.gather(one("board", BOARD), one("dm", DM), one("results", RESULTS))
    assert order == ["results", "dm", "board"]


class _Keeper(StatusBoards):
    def __init__(self) -> None:
        super().__init__(bot=None, interval=0.0)  # type: ignore[arg-type]
        self.levels: list[int] = []

    async def refresh(self, game_id: int) -> None:
        self.levels.append(priority.get())


async def test_a_refresh_runs_at_the_boards_level() -> None:
    keeper = _Keeper()
    with urgency(RESULTS):  # (the notifier touches from inside a results post)
        keeper.touch(1)
    await keeper.idle()
    assert keeper.levels == [BOARD]
