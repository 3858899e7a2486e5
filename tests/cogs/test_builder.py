"""The order builder (issue 30) driven as a player on a phone would: presses and picks on the
fake Discord's components, never a typed order; the sets saved equal the typed ones."""

from __future__ import annotations

import re

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

    async def order(
        self, unit: str, choice: str, supported: str | None = None, support: str = "Support…"
    ) -> int:
        """Give `unit` the order labelled `choice` (through "Support…" and `supported` for a
        support); the number of interactions it took."""
        before = self.count
        if self.focus != unit:
            assert await self.pick(unit, select=0) == 7
        if supported is not None:
            assert await self.pick(support, select=1) == 7
            assert await self.pick(supported, select=2) == 7
            assert await self.pick(choice, select=2) == 7
        else:
            assert await self.pick(choice, select=1) == 7
        return self.count - before

    async def submit(self, label: str = "Submit") -> str:
        assert self.message is not None
        message = self.message
        await self.press(label)
        await self.table.fake.wait_for(
            lambda: "(#" in message.content and label not in str(message.components),
            within=10,
            what="acknowledgement",
        )
        return message.content


def welcome(table: Table, user: FakeUser) -> SentMessage:
    return next(m for m in table.fake.state.dms_to(user.id) if buttons_of(m))


SETS = {
    Power.AUSTRIA: [
        ("F TRI", "F TRI - ALB", None),
        ("A VIE", "A VIE - GAL", None),
        ("A BUD", "A BUD S A VIE - GAL", "A VIE"),
    ],
    Power.ENGLAND: [
        ("F LON", "F LON - NTH", None),
        ("F EDI", "F EDI - NWG", None),
        ("A LVP", "A LVP - YOR", None),
    ],
    Power.FRANCE: [
        ("F BRE", "F BRE - MAO", None),
        ("A PAR", "A PAR - BUR", None),
        ("A MAR", "A MAR S A PAR - BUR", "A PAR"),
    ],
    Power.GERMANY: [
        ("F KIE", "F KIE - DEN", None),
        ("A BER", "A BER - KIE", None),
        ("A MUN", "A MUN - RUH", None),
    ],
    Power.ITALY: [
        ("F NAP", "F NAP - ION", None),
        ("A ROM", "A ROM - APU", None),
        ("A VEN", "A VEN H", None),
    ],
    Power.RUSSIA: [
        ("F STP/SC", "F STP/SC - BOT", None),
        ("A MOS", "A MOS - UKR", None),
        ("A WAR", "A WAR - GAL", None),
        ("F SEV", "F SEV - BLA", None),
    ],
    Power.TURKEY: [
        ("F ANK", "F ANK - BLA", None),
        ("A CON", "A CON - BUL", None),
        ("A SMY", "A SMY S F ANK - CON", "F ANK"),
    ],
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


async def typed(table: Table, power: Power, text: str) -> None:
    user = table.players[power]
    before = len(table.fake.state.dms_to(user.id))
    await table.fake.send_dm(user, text)
    reply = await table.fake.dm_reply(user, before)
    assert "Saved" in reply.content, reply.content


async def adjudicate(table: Table, game: int, reading: float) -> None:
    """The GM closes the phase now; the next opens after the clock's reading time."""
    assert table.service is not None
    await table.service.adjudicate_now(game, str(table.gm.id))
    await table.settle()
    await table.advance(reading + 1)


async def test_a_dislodged_unit_is_told_at_once_and_retreats_by_one_pick(table: Table) -> None:
    game = await table.create_started_game()
    await table.advance(SPRING)
    svc = table.service
    assert svc is not None
    gm = str(table.gm.id)
    await svc.edit_board(game, gm, "place A TYR AUSTRIA")
    await svc.edit_board(game, gm, "place A BOH AUSTRIA")
    await typed(table, Power.AUSTRIA, "A TYR - MUN\nA BOH S A TYR - MUN")
    await typed(table, Power.GERMANY, "A MUN H\nA BER H\nF KIE H")
    await typed(table, Power.FRANCE, "A PAR - BUR")
    germany = table.players[Power.GERMANY]
    before = len(table.fake.state.dms_to(germany.id))
    await adjudicate(table, game, 4 * 60)
    # told at once: the DM names the unit and where it may go, with the builder's button
    told = [m for m in table.fake.state.dms_to(germany.id)[before:] if "Retreats" in m.content]
    assert len(told) == 1, [m.content for m in table.fake.state.dms_to(germany.id)[before:]]
    print(told[0].content)
    assert "A MUN: Ruhr, Silesia" in told[0].content
    assert [b["label"] for b in buttons_of(told[0])] == ["Build orders"]
    table_lines = [m.content for m in table.fake.state.messages_in(table.table.id)]
    assert any("To act: Germany" in c and str(germany.id) in c for c in table_lines)
    others = table.players[Power.FRANCE]
    assert not any("Retreats" in m.content for m in table.fake.state.dms_to(others.id))

    thumb = Thumb(table, germany)
    builder = await thumb.open(told[0])
    _, action = selects_of(builder)
    assert [o["label"] for o in action["options"]] == ["A MUN R RUH", "A MUN R SIL", "A MUN D"]
    assert await thumb.order("A MUN", "A MUN R SIL") == 1
    ack = await thumb.submit()
    assert "Saved: 1 order(s)" in ack
    built = (await svc.my_orders(game, str(germany.id))).orders
    assert built == ["A MUN R SIL"]
    await typed(table, Power.GERMANY, "A MUN R SIL")
    assert (await svc.my_orders(game, str(germany.id))).orders == built


async def test_a_build_on_a_split_coast_is_picked_with_its_coast(table: Table) -> None:
    game = await table.create_started_game()
    await table.advance(SPRING)
    svc = table.service
    assert svc is not None
    await svc.edit_board(game, str(table.gm.id), "remove F STP/SC")
    await adjudicate(table, game, 4 * 60)  # Spring: everyone holds
    await adjudicate(table, game, 6 * 60)  # Fall: everyone holds; Russia owes a build in STP
    russia = table.players[Power.RUSSIA]
    told = [m for m in table.fake.state.dms_to(russia.id) if "Adjustments" in m.content]
    assert len(told) == 1
    print(told[0].content)
    assert "you may build 1 unit, in STP" in told[0].content
    thumb = Thumb(table, russia)
    builder = await thumb.open(told[0])
    _, action = selects_of(builder)
    labels = [o["label"] for o in action["options"]]
    assert labels == ["A STP B", "F STP/NC B", "F STP/SC B"], labels
    assert await thumb.order("STP", "F STP/NC B") == 1
    assert "Every unit has an order" in (thumb.message.content if thumb.message else "")
    ack = await thumb.submit()
    assert "Saved: 1 order(s)" in ack
    built = (await svc.my_orders(game, str(russia.id))).orders
    assert built == ["F STP/NC B"]
    await typed(table, Power.RUSSIA, "F STP/NC B")
    assert (await svc.my_orders(game, str(russia.id))).orders == built


async def test_a_french_game_builds_in_french(table: Table) -> None:
    game = await table.create_started_game(language="fr")
    await table.advance(SPRING)
    svc = table.service
    assert svc is not None
    france = table.players[Power.FRANCE]
    thumb = Thumb(table, france)
    builder = await thumb.open(welcome(table, france), "Composer mes ordres")
    units, action = selects_of(builder)
    assert units["placeholder"] == "Choisir une unité"
    assert action["placeholder"] == "Que fait F BRE ?"
    assert [b["label"] for b in buttons_of(builder)] == [
        "Envoyer",
        "Les autres tiennent",
        "Recommencer",
    ]
    wanted = [
        ("F BRE", "F BRE - ATL", None),
        ("A PAR", "A PAR - BOU", None),
        ("A TOU", "A TOU S A PAR - BOU", "A PAR"),
    ]
    for unit, choice, supported in wanted:
        await thumb.order(unit, choice, supported, support="Soutien…")
    assert thumb.message is not None
    assert "Chaque unité a un ordre" in thumb.message.content
    ack = await thumb.submit("Envoyer")
    assert "Enregistré : 3 ordre(s)" in ack
    built = sorted((await svc.my_orders(game, str(france.id))).orders)
    assert built == sorted(c for _, c, _ in wanted)
    await typed_fr(table, Power.FRANCE, "\n".join(c for _, c, _ in wanted))
    assert sorted((await svc.my_orders(game, str(france.id))).orders) == built


async def typed_fr(table: Table, power: Power, text: str) -> None:
    user = table.players[power]
    before = len(table.fake.state.dms_to(user.id))
    await table.fake.send_dm(user, text)
    reply = await table.fake.dm_reply(user, before)
    assert "Enregistré" in reply.content, reply.content


async def test_a_restart_in_the_middle_of_building_loses_nothing(table: Table) -> None:
    game = await table.create_started_game()
    await table.advance(SPRING)
    germany = table.players[Power.GERMANY]
    thumb = Thumb(table, germany)
    await thumb.open(welcome(table, germany))
    await thumb.order("F KIE", "F KIE - DEN")
    await table.kill()
    await table.boot()  # the same message's menus still work: the draft was kept
    assert thumb.focus == "A BER"
    assert await thumb.order("A BER", "A BER - KIE") == 1
    assert thumb.message is not None
    assert "• F KIE - DEN" in thumb.message.content
    assert await thumb.press("Hold all others") == 7
    assert "• A MUN H" in thumb.message.content
    ack = await thumb.submit()
    assert "Saved: 3 order(s)" in ack
    svc = table.service
    assert svc is not None
    built = sorted((await svc.my_orders(game, str(germany.id))).orders)
    assert built == ["A BER - KIE", "A MUN H", "F KIE - DEN"]
    await typed(table, Power.GERMANY, "F KIE - DEN\nA BER - KIE\nA MUN H")
    assert sorted((await svc.my_orders(game, str(germany.id))).orders) == built


async def test_another_players_press_or_a_closed_phase_changes_nothing(table: Table) -> None:
    game = await table.create_started_game()
    await table.advance(SPRING)
    svc = table.service
    assert svc is not None
    france, italy = table.players[Power.FRANCE], table.players[Power.ITALY]
    thumb = Thumb(table, france)
    builder = await thumb.open(welcome(table, france))
    await thumb.order("F BRE", "F BRE - MAO")
    await thumb.pick("Support…", select=1)  # A MAR: whose units it may support, by power
    supported = {o["label"]: o.get("description") for o in selects_of(builder)[2]["options"]}
    assert supported == {"F BRE": "France", "A MUN": "Germany", "A PAR": "France", "A VEN": "Italy"}
    shown = builder.content

    # Italy presses France's builder (a forwarded message, a shared screen): refused
    for act in (
        press(table.fake, italy, builder, "Submit"),
        choose(table.fake, italy, builder, "A MAR - SPA", select=1),
    ):
        record = await act
        refusal = await table.fake.reply_to(record)
        assert refusal.ephemeral
        assert "someone else's: nothing changed" in refusal.content
    assert builder.content == shown
    assert (await svc.status(game)).submitted == []

    # an empty draft is refused; the phase closes: the old builder says so, saves nothing
    await thumb.press("Start again")
    record = await press(table.fake, france, builder, "Submit")
    assert "Nothing to submit" in (await table.fake.reply_to(record)).content
    await thumb.order("F BRE", "F BRE - MAO")
    await svc.adjudicate_now(game, str(table.gm.id))
    await table.settle()
    record = await press(table.fake, france, builder, "Submit")
    refusal = await table.fake.reply_to(record)
    assert refusal.ephemeral
    assert "phase is closed: nothing was saved" in refusal.content
    phases = await svc.phases(game)
    orders = await svc.phase_orders(game, str(france.id), phases[0].id)
    assert orders.get(Power.FRANCE, []) == []


async def test_orders_build_in_a_server_is_secret_and_repeats_last_turn(table: Table) -> None:
    game = await table.create_started_game()
    await table.advance(SPRING)
    svc = table.service
    assert svc is not None
    france = table.players[Power.FRANCE]
    before = len(table.fake.state.dms_to(france.id))
    await table.fake.send_dm(france, "A PAR - BUR\nF BRE - MAO\nA MAR H")
    ack = await table.fake.dm_reply(france, before)
    assert [b["label"] for b in buttons_of(ack)] == ["Build orders"]  # under every ack
    await adjudicate(table, game, 4 * 60)  # Spring 1901 -> Fall 1901

    record = await table.fake.slash(france, "orders build", {}, channel=table.table)
    builder = await table.fake.reply_to(record, within=10)
    assert builder.ephemeral
    thumb = Thumb(table, france)
    thumb.message = builder
    assert await thumb.press("Repeat last turn") == 7
    assert "• A MAR H" in builder.content  # A PAR and F BRE have moved: not repeated
    assert "A PAR" not in builder.content
    assert await thumb.press("Hold all others") == 7
    ack_text = await thumb.submit()
    assert "Saved: 3 order(s)" in ack_text
    assert sorted((await svc.my_orders(game, str(france.id))).orders) == [
        "A BUR H",
        "A MAR H",
        "F MAO H",
    ]


async def test_stab_places_the_starting_units_then_orders_only_its_own(table: Table) -> None:
    reply = await table.command(
        table.gm, "game create", {"name": "Stab", "clock": "edc2023", "rules": "stab"}
    )
    game = int(reply.content.split("(#")[1].split(")")[0])
    for power, user in table.players.items():
        await table.command(user, "game join", {"power": power.value})
    await table.command(table.gm, "game start")
    await table.advance(SPRING)
    svc = table.service
    assert svc is not None
    england = table.players[Power.ENGLAND]
    thumb = Thumb(table, england)
    builder = await thumb.open(welcome(table, england))
    assert "first place your starting units" in builder.content
    units, action = selects_of(builder)
    # home spaces (Stab! rule 1: the coloured regions, not only the centres)
    assert {o["value"] for o in units["options"]} >= {"LON", "EDI", "LVP", "YOR", "WAL", "CLY"}
    assert [o["label"] for o in action["options"]][:2] == ["A CLY", "F CLY"]
    for unit, choice in (("YOR", "A YOR"), ("WAL", "A WAL"), ("CLY", "F CLY")):
        await thumb.order(unit, choice)
    assert thumb.message is not None
    units, _ = selects_of(thumb.message)[:2]
    assert [o["label"] for o in units["options"]] == ["F CLY", "A WAL", "A YOR"]
    await thumb.order("A YOR", "A YOR - LON")
    _, action = selects_of(thumb.message)[:2]
    await thumb.pick("Support…", select=1)
    supported = [o["label"] for o in selects_of(thumb.message)[2]["options"]]
    assert set(supported) <= {"F CLY", "A WAL", "A YOR"}  # its own units only: nothing else seen
    await thumb.press("Hold all others")
    ack = await thumb.submit()
    assert "Saved" in ack, ack
    built = sorted((await svc.my_orders(game, str(england.id))).orders)
    await typed(table, Power.ENGLAND, "A YOR\nA WAL\nF CLY\nA YOR - LON\nA WAL H\nF CLY H")
    assert sorted((await svc.my_orders(game, str(england.id))).orders) == built
    print(built)


async def test_a_removal_owed_is_told_and_picked(table: Table) -> None:
    game = await table.create_started_game()
    await table.advance(SPRING)
    svc = table.service
    assert svc is not None
    await svc.edit_board(game, str(table.gm.id), "place A BUR FRANCE")
    await adjudicate(table, game, 4 * 60)  # Spring: everyone holds
    await adjudicate(table, game, 6 * 60)  # Fall: France has 4 units for 3 centres
    france = table.players[Power.FRANCE]
    told = [m for m in table.fake.state.dms_to(france.id) if "Adjustments" in m.content]
    assert len(told) == 1
    assert "you must remove 1 unit, among F BRE, A BUR, A MAR, A PAR" in told[0].content
    thumb = Thumb(table, france)
    builder = await thumb.open(told[0])
    assert "You must remove 1 unit." in builder.content
    assert [b["label"] for b in buttons_of(builder)] == ["Submit", "Start again"]
    assert await thumb.order("A BUR", "A BUR D") == 2
    assert "Every unit has an order" in builder.content
    assert "Saved: 1 order(s)" in await thumb.submit()
    assert (await svc.my_orders(game, str(france.id))).orders == ["A BUR D"]
