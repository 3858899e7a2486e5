"""The order builder on Discord (issue 30): select menus and buttons that build a power's set,
so that a turn can be played with a thumb. The model is the service's
(bot/service/orders/builder.py, bot/core/writing/builder.py); this module only draws it and reads
the presses.

Every component is a discord.py `DynamicItem` whose custom_id carries all it needs
(`pb:<s|b>:<game>:<phase row>:<user>:<what>:<arg>`, at most 100 characters, Discord's limit),
registered once at start-up (cogs/orders), so a builder keeps working after a restart: the
draft itself is stored by the service. A press by someone else, on a phase that is closed,
or on another game's builder changes nothing and is answered (ephemerally) with why.

A builder message: the set so far (in the game's notation) with its map, then at most four
rows (Discord allows five): the unit select, what the chosen unit does, a support's or
convoy's next step when one is being picked, and the buttons (submit, hold all, repeat last
turn, clear). A select holds at most 25 options: longer lists are paged
(`bot.core.writing.builder.page`).
"""

from __future__ import annotations

import io
import logging
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Self

import discord

from bot.core.model import PhaseKind, UnitType
from bot.core.orders import Build, Disband, Hold, Move, Order, Retreat
from bot.core.writing.advice import order_key
from bot.core.writing.builder import Slot, page
from bot.discord_app.format import MESSAGE_LIMIT, chunks, power_name, submit_reply_lines
from bot.discord_app.interactions import describe_refusal, user_key
from bot.service import ServiceError
from bot.service.orders.builder import Draft, say

if TYPE_CHECKING:
    from bot.discord_app.app import Parley

log = logging.getLogger("parley.discord")

NO_PINGS = discord.AllowedMentions.none()
LABEL = 100  # Discord: a select option's label, value and description, at most 100 characters
MORE = "+more"
BACK = "+back"
SUPPORT = "+support"
CONVOY = "+convoy"
UNSET = "+unset"
STYLES = {
    "submit": discord.ButtonStyle.success,
    "hold": discord.ButtonStyle.secondary,
    "repeat": discord.ButtonStyle.secondary,
    "clear": discord.ButtonStyle.danger,
}


@dataclass(frozen=True, slots=True)
class Key:
    """What a component is about: the game, the phase row and the player it was made for."""

    game: int
    phase: int
    user: str

    def custom_id(self, kind: str, what: str, arg: str = "") -> str:
        return f"pb:{kind}:{self.game}:{self.phase}:{self.user}:{what}:{arg}"


TEMPLATE = (
    r"pb:(?P<kind>[sb]):(?P<game>[0-9]+):(?P<phase>[0-9]+):(?P<user>[0-9]+)"
    r":(?P<what>[a-z]+):(?P<arg>[A-Za-z0-9_./+-]*)"
)


# -- drawing -------------------------------------------------------------------------------


@dataclass
class Screen:
    """Where the player is in the builder: the unit chosen, and a support's or convoy's
    step (`mode`: "sup", "sto", "cvy", "cvo"), the page of the longest list."""

    focus: str | None = None
    mode: str = ""
    other: str = ""  # the unit supported or convoyed
    page: int = 0


def _cut(text: str) -> str:
    return text if len(text) <= LABEL else text[: LABEL - 1] + "…"


def _option(
    label: str, value: str, description: str = "", *, default: bool = False
) -> discord.SelectOption:
    return discord.SelectOption(
        label=_cut(label), value=value, description=_cut(description) or None, default=default
    )


def _paged(
    options: list[discord.SelectOption], number: int, lang: str
) -> list[discord.SelectOption]:
    """One page of options, with "previous"/"more" entries where the list is longer than 25."""
    values = [o.value for o in options]
    shown, more = page(values, number)
    if len(options) <= 25:
        return options
    by_value = {o.value: o for o in options}
    out = [by_value[v] for v in shown]
    if number > 0:
        out.insert(0, _option(say("page_back", lang), f"{BACK}{number - 1}"))
    if more:
        out.append(_option(say("page_more", lang), f"{MORE}{number + 1}"))
    return out


def _describe(draft: Draft, order: Order) -> str:
    """A short gloss of an option: what it does, or the place it goes to, in full."""
    lang = draft.lang
    dest = getattr(order, "dest", None)
    where = draft.place_label(dest.province) if dest is not None else ""
    key, place = "", where
    if isinstance(order, Hold):
        key = "hold"
    elif isinstance(order, Move) and order.via_convoy:
        key = "by_convoy"
    elif isinstance(order, Retreat):
        key = "retreat_to"
    elif isinstance(order, Disband):
        key = "disband" if draft.phase.kind is PhaseKind.RETREAT else "remove"
    elif isinstance(order, Build):
        key = "build_fleet" if order.unit.type is UnitType.FLEET else "build_army"
        place = draft.place_label(order.unit.province)
    return say(key, lang, place=place) if key else where


def _lines(draft: Draft, focus: Slot | None, left: list[Slot]) -> list[str]:
    lang = draft.lang
    who = power_name(draft.power, lang, draft.variant)
    phase = draft.phase.describe(lang)
    lines = [say("head", lang, power=who, phase=phase, name=draft.name, id=draft.game_id)]
    if draft.placing:
        lines.append(say("placing", lang))
    if draft.owed:
        lines.append(
            say("owed_builds" if draft.owed > 0 else "owed_removals", lang, n=abs(draft.owed))
        )
    lines += [f"• {draft.render(o)}" for o in draft.orders] or [say("none_yet", lang)]
    if left:
        lines.append(say("unordered", lang, units=", ".join(draft.unit_label(s.key) for s in left)))
    elif draft.slots:
        lines.append(say("complete", lang))
    if focus is not None:
        lines.append(say("now", lang, unit=draft.unit_label(focus.key)))
    return lines


def draw(draft: Draft, user: str, screen: Screen) -> tuple[str, discord.ui.View]:
    """The builder message: its text and its components."""
    lang = draft.lang
    key = Key(draft.game_id, draft.phase_id, user)
    left = draft.unordered()
    focus = draft.slot(screen.focus) if screen.focus else None
    if focus is None and screen.mode != "units" and left:
        focus = left[0]  # the next unit without an order: one pick orders it
    view = discord.ui.View(timeout=None)
    given = {order_key(o): o for o in draft.orders}
    if draft.slots:
        units = [
            _option(
                draft.unit_label(s.key),
                s.key,
                draft.render(given[s.key]) if s.key in given else say("no_order", lang),
                default=focus is not None and s.key == focus.key,
            )
            for s in draft.slots
        ]
        number = screen.page if screen.mode == "units" else 0
        menu = _paged(units, number, lang)
        view.add_item(_select(key, "unit", str(number), menu, say("pick_unit", lang)))
    if focus is not None:
        _focus_rows(view, draft, key, focus, screen=screen, given=given)
    _buttons(view, draft, key)
    return _fit(_lines(draft, focus, left)), view


def _fit(lines: list[str]) -> str:
    """The builder's text within Discord's 2,000 characters: the oldest orders of a very
    long set give way first (the head, what is left and the unit being ordered stay)."""
    text = "\n".join(lines)
    if len(text) <= MESSAGE_LIMIT:
        return text
    head, middle, tail = lines[:1], lines[1:-2], lines[-2:]
    while middle and len("\n".join([*head, "…", *middle, *tail])) > MESSAGE_LIMIT:
        middle.pop(0)
    return "\n".join([*head, "…", *middle, *tail])[:MESSAGE_LIMIT]


def _buttons(view: discord.ui.View, draft: Draft, key: Key) -> None:
    kind = draft.phase.kind
    shown = ["submit", "hold", "repeat", "clear"]
    if kind is not PhaseKind.MOVEMENT or draft.first:
        shown.remove("repeat")
    if draft.owed < 0:
        shown.remove("hold")  # removals: the rules choose for whoever owes them
    for what in shown:
        label = say(
            f"button.{what}_{kind.value}" if what == "hold" else f"button.{what}", draft.lang
        )
        view.add_item(Press(key.custom_id("b", what), label, STYLES[what]))


def _focus_rows(
    view: discord.ui.View,
    draft: Draft,
    key: Key,
    focus: Slot,
    *,
    screen: Screen,
    given: dict[str | None, Order],
) -> None:
    lang = draft.lang
    unit = draft.unit_label(focus.key)
    current = given.get(focus.key)
    acts = [
        _option(draft.render(o), o.canonical(), _describe(draft, o), default=current == o)
        for o in focus.direct
    ]
    if focus.supports:
        acts.append(_option(say("support", lang), SUPPORT, say("support_hint", lang)))
    if focus.convoys:
        acts.append(_option(say("convoy", lang), CONVOY, say("convoy_hint", lang)))
    if current is not None:
        acts.append(_option(say("unset", lang), UNSET, say("unset_hint", lang)))
    number = screen.page if screen.mode == "" else 0
    view.add_item(
        _select(
            key,
            "act",
            f"{focus.key}.{number}",
            _paged(acts, number, lang),
            say("pick_action", lang, unit=unit),
        )
    )
    groups = focus.supports if screen.mode in ("sup", "sto") else focus.convoys
    if screen.mode in ("sup", "cvy"):
        others = [_option(draft_label(draft, k), k, _owner(draft, k)) for k in groups]
        what = "sup" if screen.mode == "sup" else "cvy"
        hint = say("pick_supported" if what == "sup" else "pick_convoyed", lang, unit=unit)
        view.add_item(
            _select(
                key, what, f"{focus.key}.{screen.page}", _paged(others, screen.page, lang), hint
            )
        )
    elif screen.mode in ("sto", "cvo") and screen.other in groups:
        orders = [
            _option(draft.render(o), o.canonical(), _describe(draft, o), default=current == o)
            for o in groups[screen.other]
        ]
        what = "sto" if screen.mode == "sto" else "cvo"
        hint = say("pick_target", lang, unit=draft_label(draft, screen.other))
        arg = f"{focus.key}.{screen.other}.{screen.page}"
        view.add_item(_select(key, what, arg, _paged(orders, screen.page, lang), hint))


def _owner(draft: Draft, province: str) -> str:
    """Whose unit it is: a support or a convoy is often for another power's unit."""
    power = draft.owners.get(province)
    return power_name(power, draft.lang, draft.variant) if power is not None else ""


def draft_label(draft: Draft, province: str) -> str:
    """Any unit on the board by its province (a supported or convoyed one may be foreign)."""
    for slot in draft.slots:
        for option in slot.all_orders():
            target = getattr(option, "target", None)
            if target is not None and target.province == province:
                return draft.ref_label(target)
    return province


def _select(
    key: Key, what: str, arg: str, options: list[discord.SelectOption], placeholder: str
) -> Pick:
    select: discord.ui.Select[discord.ui.View] = discord.ui.Select(
        custom_id=key.custom_id("s", what, arg),
        placeholder=_cut(placeholder)[:150],
        options=options,
    )
    return Pick(select)


# -- reading presses -----------------------------------------------------------------------


class _Item:
    """What both component classes share: the key in the custom_id, and the answer."""

    key: Key
    what: str
    arg: str

    def _read(self, custom_id: str) -> None:
        match = re.fullmatch(TEMPLATE, custom_id)
        assert match is not None
        self.key = Key(int(match["game"]), int(match["phase"]), match["user"])
        self.what, self.arg = match["what"], match["arg"]


class Pick(
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
    template=TEMPLATE.replace("(?P<kind>[sb])", "(?P<kind>s)"),
):
    def __init__(self, select: discord.ui.Select[discord.ui.View]) -> None:
        super().__init__(select)

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],  # noqa: ARG003 - the id says it all
        item: discord.ui.Item[Any],
        match: re.Match[str],  # noqa: ARG003
        /,
    ) -> Self:
        assert isinstance(item, discord.ui.Select)
        return cls(item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        custom_id = self.item.custom_id
        assert custom_id is not None
        await pressed(interaction, custom_id, list(self.item.values))


class Press(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=TEMPLATE.replace("(?P<kind>[sb])", "(?P<kind>b)"),
):
    def __init__(
        self,
        custom_id: str,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        super().__init__(
            discord.ui.Button(label=_cut(label)[:80], style=style, custom_id=custom_id)
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],  # noqa: ARG003
        item: discord.ui.Item[Any],  # noqa: ARG003
        match: re.Match[str],
        /,
    ) -> Self:
        return cls(match.string)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        custom_id = self.item.custom_id
        assert custom_id is not None
        await pressed(interaction, custom_id, [])


def open_view(game_id: int, user: str, lang: str) -> discord.ui.View:
    """The one button under a DM (phase opening, acknowledgement) that opens a builder for
    the phase being written when it is pressed (phase 0 in its custom_id)."""
    view = discord.ui.View(timeout=None)
    key = Key(game_id, 0, user)
    view.add_item(
        Press(key.custom_id("b", "open"), say("button.open", lang), discord.ButtonStyle.primary)
    )
    return view


def _file(png: bytes | None) -> list[discord.File]:
    return [] if png is None else [discord.File(io.BytesIO(png), filename="orders.png")]


async def _refuse(interaction: discord.Interaction[Any], text: str) -> None:
    """Ephemeral: only the presser reads why nothing changed."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True, allowed_mentions=NO_PINGS)
    else:
        await interaction.response.send_message(text, ephemeral=True, allowed_mentions=NO_PINGS)


async def pressed(interaction: discord.Interaction[Any], custom_id: str, values: list[str]) -> None:
    """Any press on a builder: checked (whose, which phase), applied, the message redrawn."""
    bot: Parley = interaction.client
    item = _Item()
    item._read(custom_id)
    key, what, arg = item.key, item.what, item.arg
    presser = user_key(interaction.user)
    svc = bot.service
    if presser != key.user:
        lang = await _lang(bot, key.game, interaction)
        await _refuse(interaction, say("not_yours", lang))
        return
    value = values[0] if values else ""
    try:
        if what == "submit":
            await _submit(interaction, key)
            return
        screen = _screen(what, arg, value)
        if what in ("hold", "repeat", "clear"):
            draft = await svc.builder.change(key.game, key.user, key.phase, what)
        elif what in ("act", "sto", "cvo") and screen.mode == "set":
            draft = await svc.builder.change(key.game, key.user, key.phase, "set", value)
            screen = Screen(None)
        elif what == "act" and value == UNSET:
            draft = await svc.builder.change(
                key.game, key.user, key.phase, "unset", screen.focus or ""
            )
        else:  # the open button names no phase (0): the one being written now
            draft = await svc.builder.draft(key.game, key.user, key.phase or None)
    except Exception as exc:
        refusal = describe_refusal(exc, "en")
        if refusal is None:
            raise
        await _refuse(interaction, refusal)
        return
    if what == "open":  # a new message: the DM or the acknowledgement stays as it was
        await _send_new(interaction, draft, key.user)
        return
    content, view = draw(draft, key.user, screen)
    png = await svc.builder.draft_map(key.game, key.user, draft)
    await interaction.response.edit_message(
        content=content, view=view, attachments=_file(png), allowed_mentions=NO_PINGS
    )


async def open_builder(interaction: discord.Interaction[Any], game_id: int) -> None:
    """A new builder message for the phase being written (`/orders build`: ephemeral in a
    server, as every secret reply)."""
    bot: Parley = interaction.client
    user = user_key(interaction.user)
    try:
        draft = await bot.service.builder.draft(game_id, user)
    except Exception as exc:
        refusal = describe_refusal(exc, "en")
        if refusal is None:
            raise
        await _refuse(interaction, refusal)
        return
    await _send_new(interaction, draft, user)


async def _send_new(interaction: discord.Interaction[Any], draft: Draft, user: str) -> None:
    bot: Parley = interaction.client
    content, view = draw(draft, user, Screen(None))
    png = await bot.service.builder.draft_map(draft.game_id, user, draft)
    await interaction.response.send_message(
        content,
        view=view,
        files=_file(png),
        ephemeral=interaction.guild_id is not None,
        allowed_mentions=NO_PINGS,
    )


def _screen(what: str, arg: str, value: str) -> Screen:
    """The screen after a pick: `mode` "set" when the value is an order to put in the set."""
    parts = arg.split(".")
    focus = parts[0] if what != "unit" else value
    other = parts[1] if what in ("sto", "cvo") and len(parts) > 2 else ""
    if value.startswith((MORE, BACK)):  # another page of the same list
        number = int(value.removeprefix(MORE).removeprefix(BACK) or 0)
        if what == "unit":
            return Screen(None, "units", "", number)
        return Screen(focus, "" if what == "act" else what, other, number)
    if what == "unit" or value == UNSET:
        return Screen(focus)
    if what == "act" and value in (SUPPORT, CONVOY):
        return Screen(focus, "sup" if value == SUPPORT else "cvy")
    if what in ("sup", "cvy"):
        return Screen(focus, "sto" if what == "sup" else "cvo", value)
    return Screen(focus, "set")


async def _lang(bot: Parley, game_id: int, interaction: discord.Interaction[Any]) -> str:
    try:
        return (await bot.service.seat(game_id)).lang
    except ServiceError:  # no such game: the presser's own language
        return str(interaction.locale.value)[:2]


async def _submit(interaction: discord.Interaction[Any], key: Key) -> None:
    """Submit the draft through the typed path; the acknowledgement replaces the builder
    (the same lines and map as a typed set's), with a button to open it again."""
    bot: Parley = interaction.client
    svc = bot.service
    with svc.receiving(key.user, interaction.created_at.timestamp()) as receipt:
        await interaction.response.defer()  # the reading and the map may take a moment
        seat = await svc.seat(key.game)
        reply = await svc.builder.submit(key.game, key.user, key.phase, receipt)
    lines = [
        say("picked", seat.lang, name=seat.name, id=seat.game_id),
        *submit_reply_lines(reply, seat.lang),
    ]
    png = await svc.orders_map(key.game, key.user) if reply.accepted else None
    view = open_view(key.game, key.user, seat.lang)
    parts = chunks(lines)
    await interaction.edit_original_response(
        content=parts[0], view=view if len(parts) == 1 else None, attachments=_file(png)
    )
    for i, part in enumerate(parts[1:], 2):
        last = i == len(parts)
        await interaction.followup.send(
            part, view=view if last else discord.utils.MISSING, allowed_mentions=NO_PINGS
        )
