"""The order builder (issue 30) driven as a player on a phone would: presses and picks on the
fake Discord's components, never a typed order; the sets saved equal the typed ones."""

from __future__ import annotations

import re

import pytest

from bot.core.model import Power
from tests.cogs.conftest import Table
from tests.fake_discord import FakeUser, SentMessage
from tests.fake_discord.components import answered, buttons_of, choose, press, selects_of

SPRING = 8 * 60  # edc2023: orders open after the negotiation window
NOW = re.compile(r"▶ (.+?) ?:")


class Thumb:
    """A player's thumb on the builder: counts the interactions each order takes."""

    def __init__(self, table: Table, user: FakeUser) -> None:
        self.table = table
        self.user = user
        self.count = 0
        self.message: SentMessage | None = None

    async def open(self, source: SentMessage, label: str = "Build orders") -> SentMessage:
        record = await press(self.table.fake, self.user, source, label)
        assert await answered(self.table.fake, record) == 4  # a new message
        self.message = await self.table.fake.reply_to(record, within=10)
        return self.message

    @property
    def focus(self) -> str | None:
        assert self.message is not None
        found = NOW.search(self.message.content)
        return found.group(1) if found else None

    async def pick(self, label: str, *, select: int = -1) -> int:
        assert self.message is not None
        record = await choose(self.table.fake, self.user, self.message, label, select=select)
        self.count += 1
        return await answered(self.table.fake, record)

    async def press(self, label: str) -> int:
        assert self.message is not None
        record = await press(self.table.fake, self.user, self.message, label)
        self.count += 1
        return await answered(self.table.fake, record)

    async def order(self, unit: str, choice: str, supported: str | None = None) -> int:
        """Give `unit` the order labelled `choice` (through "Support…" and `supported` for a
        support); the number of interactions it took."""
        before = self.count
        if self.focus != unit:
            assert await self.pick(unit, select=0) == 7
        if supported is not None:
            assert await self.pick("Support…", select=1) == 7
            assert await self.pick(supported, select=2) == 7
            assert await self.pick(choice, select=2) == 7
        else:
            assert await self.pick(choice, select=1) == 7
        return self.count - before

    async def submit(self) -> str:
        assert self.message is not None
        message = self.message
        await self.press("Submit")
        await self.table.fake.wait_for(lambda: "(#" in message.content and "Submit" not in str(
            message.components
        ), within=10, what="acknowledgement")
        return message.content


def welcome(table: Table, user: FakeUser) -> SentMessage:
    return next(m for m in table.fake.state.dms_to(user.id) if buttons_of(m))


SETS = {
    Power.AUSTRIA: [("F TRI", "F TRI - ALB", None), ("A VIE", "A VIE - GAL", None),
                    ("A BUD", "A BUD S A VIE - GAL", "A VIE")],
    Power.ENGLAND: [("F LON", "F LON - NTH", None), ("F EDI", "F EDI - NWG", None),
                    ("A LVP", "A LVP - YOR", None)],
    Power.FRANCE: [("F BRE", "F BRE - MAO", None), ("A PAR", "A PAR - BUR", None),
                   ("A MAR", "A MAR S A PAR - BUR", "A PAR")],
    Power.GERMANY: [("F KIE", "F KIE - DEN", None), ("A BER", "A BER - KIE", None),
                    ("A MUN", "A MUN - RUH", None)],
    Power.ITALY: [("F NAP", "F NAP - ION", None), ("A ROM", "A ROM - APU", None),
                  ("A VEN", "A VEN H", None)],
    Power.RUSSIA: [("F STP/SC", "F STP/SC - BOT", None), ("A MOS", "A MOS - UKR", None),
                   ("A WAR", "A WAR - GAL", None), ("F SEV", "F SEV - BLA", None)],
    Power.TURKEY: [("F ANK", "F ANK - BLA", None), ("A CON", "A CON - BUL", None),
                   ("A SMY", "A SMY S F ANK - CON", "F ANK")],
}


async def test_each_power_builds_its_spring_1901_set_by_picks(table: Table) -> None:
    game = await table.create_started_game()
    await table.advance(SPRING)
    svc = table.service
    assert svc is not None
    for power, wanted in SETS.items():
        user = table.players[power]
        thumb = Thumb(table, user)
        await thumb.open(welcome(table, user))
        counts = []
        for unit, choice, supported in wanted:
            counts.append((choice, await thumb.order(unit, choice, supported)))
        assert thumb.message is not None
        assert "Every unit has an order" in thumb.message.content
        print(power.value, counts, "+ submit")
        for choice, n in counts:
            assert n <= (4 if " S " in choice else 3), (choice, n)
        ack = await thumb.submit()
        assert f"Saved: {len(wanted)} order(s)" in ack
        built = sorted((await svc.my_orders(game, str(user.id))).orders)
        assert built == sorted(c for _, c, _ in wanted)
        # the same set typed: the same orders saved
        before = len(table.fake.state.dms_to(user.id))
        await table.fake.send_dm(user, "\n".join(c for _, c, _ in wanted))
        await table.fake.dm_reply(user, before)
        assert sorted((await svc.my_orders(game, str(user.id))).orders) == built
