"""Message components on the fake Discord: Discord's limits refused as Discord refuses them,
and component interactions answered with a new message (4), a deferred update (6) or an
update of the component's own message (7), through the real discord.py client."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import discord
import pytest

from tests.fake_discord import FakeDiscord
from tests.fake_discord.components import answered, choose, press, problems


def select(n: int, custom_id: str = "s") -> dict[str, Any]:
    options = [{"label": f"o{i}", "value": str(i)} for i in range(n)]
    return {"type": 1, "components": [{"type": 3, "custom_id": custom_id, "options": options}]}


def button(label: str = "Go", custom_id: str = "b") -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id}


def test_limits_are_discords() -> None:
    assert problems([select(25)]) == []
    assert "26 options (1 to 25)" in problems([select(26)])[0]
    rows = [select(1, f"s{i}") for i in range(6)]
    assert "6 action rows (at most 5)" in problems(rows)[0]
    assert "custom_id" in problems([{"type": 1, "components": [button(custom_id="x" * 101)]}])[0]
    assert "label over 80" in problems([{"type": 1, "components": [button("x" * 81)]}])[0]
    six = {"type": 1, "components": [button(custom_id=f"b{i}") for i in range(6)]}
    assert "6 buttons" in problems([six])[0]
    mixed = {"type": 1, "components": [*select(1)["components"], button()]}
    assert "shares its row" in problems([mixed])[0]
    twice = [{"type": 1, "components": [button(custom_id="b"), button(custom_id="b")]}]
    assert "used twice" in problems(twice)[0]
    long_option = select(1)
    long_option["components"][0]["options"][0]["description"] = "d" * 101
    assert "description" in problems([long_option])[0]


class Counter(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.n = 0

    @discord.ui.button(label="Add", custom_id="add")
    async def add(self, interaction: discord.Interaction, _: discord.ui.Button[Any]) -> None:
        self.n += 1
        await interaction.response.edit_message(content=f"n = {self.n}", view=self)

    @discord.ui.button(label="Later", custom_id="later")
    async def later(self, interaction: discord.Interaction, _: discord.ui.Button[Any]) -> None:
        await interaction.response.defer()  # a component's defer: DEFERRED_UPDATE_MESSAGE
        await interaction.edit_original_response(content="edited later", view=None)

    @discord.ui.select(custom_id="pick", options=[discord.SelectOption(label="One", value="1")])
    async def pick(self, interaction: discord.Interaction, item: discord.ui.Select[Any]) -> None:
        await interaction.response.send_message(f"picked {item.values[0]}", ephemeral=True)


@pytest.fixture
async def world() -> AsyncIterator[tuple[FakeDiscord, discord.Client]]:
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Table", ["table"])
        fake.join(guild, fake.add_user("alice"))
        client = discord.Client(intents=discord.Intents.default(), guild_ready_timeout=0.05)
        await client.login(fake.token)
        task = asyncio.create_task(client.connect())
        await asyncio.wait_for(client.wait_until_ready(), 5)
        yield fake, client
        await client.close()
        await asyncio.wait_for(task, 5)


async def test_component_callbacks_update_the_message(
    world: tuple[FakeDiscord, discord.Client],
) -> None:
    fake, client = world
    alice = next(u for u in fake.state.users.values() if u.username == "alice")
    channel = client.get_partial_messageable(fake.state.channel_named("table").id)
    view = Counter()
    await channel.send("n = 0", view=view)
    [message] = fake.state.messages

    assert await answered(fake, await press(fake, alice, message, "Add")) == 7
    assert message.content == "n = 1"  # the same message, edited
    assert len(fake.state.messages) == 1

    assert await answered(fake, await choose(fake, alice, message, "One")) == 4
    reply = await fake.wait_for(lambda: fake.state.messages[1:], what="reply")
    assert reply[0].content == "picked 1"
    assert reply[0].ephemeral

    assert await answered(fake, await press(fake, alice, message, "Later")) == 6
    await fake.wait_for(lambda: message.content == "edited later", what="edit")
    assert message.components == []


async def test_a_message_over_the_limits_is_refused(
    world: tuple[FakeDiscord, discord.Client],
) -> None:
    fake, client = world
    channel = client.get_partial_messageable(fake.state.channel_named("table").id)
    view = discord.ui.View()
    for i in range(5):
        view.add_item(
            discord.ui.Select(custom_id=f"s{i}", options=[discord.SelectOption(label="a")])
        )
    await channel.send("five rows", view=view)  # at the limit: fine
    too_many = [discord.SelectOption(label=str(i)) for i in range(26)]
    bad = discord.ui.View()
    bad.add_item(discord.ui.Select(custom_id="s", options=too_many))
    with pytest.raises(discord.HTTPException) as caught:
        await channel.send("too many options", view=bad)
    assert caught.value.status == 400
    assert caught.value.code == 50035
    assert [m.content for m in fake.state.messages] == ["five rows"]
