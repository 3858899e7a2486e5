"""Message components on the fake Discord: Discord's limits checked on every message the bot
sends or edits, and a user pressing a button or picking a select option (interaction type 3,
MESSAGE_COMPONENT), as a phone would.

Limits (https://discord.com/developers/docs/components/reference, "Action Row", "Button",
"String Select"): at most 5 action rows a message; a row holds 1 to 5 buttons or exactly one
select, not both; a custom_id is 1 to 100 characters and unique in its message; a button's
label at most 80 characters; a select 1 to 25 options, each label, value and description at
most 100 characters, its placeholder at most 150; min_values/max_values within 0..25. A body
that breaks one is refused with 400 / 50035 "Invalid Form Body", as Discord does.

Callbacks to a component interaction (https://discord.com/developers/docs/interactions/
receiving-and-responding, "Interaction Callback Type"): 4 a new message, 5 a deferred one,
6 DEFERRED_UPDATE_MESSAGE (nothing shown yet), 7 UPDATE_MESSAGE (the message the component is
on is edited); after 6 or 7, "@original" is that message.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aiohttp import web

from tests.fake_discord.replies import error

if TYPE_CHECKING:
    from tests.fake_discord.server import FakeDiscord
    from tests.fake_discord.state import FakeUser, InteractionRecord, SentMessage

ROWS = 5
BUTTONS_PER_ROW = 5
OPTIONS = 25
CUSTOM_ID = 100
BUTTON_LABEL = 80
OPTION_TEXT = 100
PLACEHOLDER = 150
SELECTS = (3, 5, 6, 7, 8)  # string, user, role, mentionable, channel


def problems(components: list[dict[str, Any]]) -> list[str]:
    """Every way `components` break Discord's limits (empty: none)."""
    out: list[str] = []
    if len(components) > ROWS:
        out.append(f"{len(components)} action rows (at most {ROWS})")
    seen: set[str] = set()
    for i, row in enumerate(components):
        if row.get("type") != 1:
            out.append(f"row {i}: not an action row (type {row.get('type')})")
            continue
        items = row.get("components") or []
        selects = [c for c in items if c.get("type") in SELECTS]
        if not items:
            out.append(f"row {i}: empty")
        if selects and len(items) > 1:
            out.append(f"row {i}: a select shares its row")
        if len(items) > BUTTONS_PER_ROW:
            out.append(f"row {i}: {len(items)} buttons (at most {BUTTONS_PER_ROW})")
        for item in items:
            out += _item(i, item, seen)
    return out


def _item(i: int, item: dict[str, Any], seen: set[str]) -> list[str]:
    out = []
    custom_id = item.get("custom_id")
    if item.get("type") == 2 and item.get("style") == 5:
        if not item.get("url"):
            out.append(f"row {i}: a link button without url")
    elif not custom_id or len(custom_id) > CUSTOM_ID:
        out.append(f"row {i}: custom_id {custom_id!r} (1 to {CUSTOM_ID} characters)")
    elif custom_id in seen:
        out.append(f"row {i}: custom_id {custom_id!r} used twice")
    if custom_id:
        seen.add(custom_id)
    if item.get("type") == 2 and len(item.get("label") or "") > BUTTON_LABEL:
        out.append(f"row {i}: button label over {BUTTON_LABEL} characters")
    if item.get("type") == 3:
        options = item.get("options") or []
        if not 1 <= len(options) <= OPTIONS:
            out.append(f"row {i}: {len(options)} options (1 to {OPTIONS})")
        for option in options:
            for key in ("label", "value", "description"):
                text = option.get(key) or ""
                if len(text) > OPTION_TEXT or (key != "description" and not text):
                    out.append(f"row {i}: option {key} {text!r} (1 to {OPTION_TEXT})")
        values = [o.get("value") for o in options]
        if len(set(values)) != len(values):
            out.append(f"row {i}: two options with one value")
        if len(item.get("placeholder") or "") > PLACEHOLDER:
            out.append(f"row {i}: placeholder over {PLACEHOLDER} characters")
        low, high = item.get("min_values", 1), item.get("max_values", 1)
        if not (0 <= low <= high <= OPTIONS):
            out.append(f"row {i}: min_values {low}, max_values {high}")
    return out


def refusal(body: dict[str, Any]) -> web.Response | None:
    """Discord's answer to a body whose components break a limit, else None."""
    if "components" not in body:
        return None
    found = problems(list(body.get("components") or []))
    if not found:
        return None
    return error(400, 50035, "Invalid Form Body: " + "; ".join(found))


# -- a user acting on components -----------------------------------------------------------


def components_of(message: SentMessage) -> list[dict[str, Any]]:
    return [c for row in message.components for c in row.get("components", [])]


def selects_of(message: SentMessage) -> list[dict[str, Any]]:
    return [c for c in components_of(message) if c.get("type") == 3]


def buttons_of(message: SentMessage) -> list[dict[str, Any]]:
    return [c for c in components_of(message) if c.get("type") == 2]


async def press(
    fake: FakeDiscord, user: FakeUser, message: SentMessage, label: str
) -> InteractionRecord:
    """`user` presses the button labelled `label` (or whose custom_id it is) on `message`."""
    button = next(
        (b for b in buttons_of(message) if label in (b.get("label"), b.get("custom_id"))), None
    )
    if button is None:
        shown = [b.get("label") for b in buttons_of(message)]
        raise AssertionError(f"no button {label!r} on the message (buttons: {shown})")
    data = {"custom_id": button["custom_id"], "component_type": 2}
    return await _send(fake, user, message, data)


async def choose(
    fake: FakeDiscord, user: FakeUser, message: SentMessage, label: str, *, select: int = -1
) -> InteractionRecord:
    """`user` picks the option labelled `label` (or with that value) in a select of
    `message` (`select`: which one, the last by default: the newest step)."""
    menus = selects_of(message)
    if not menus:
        raise AssertionError("no select menu on the message")
    menu = menus[select]
    option = next((o for o in menu["options"] if label in (o.get("label"), o.get("value"))), None)
    if option is None:
        shown = [o.get("label") for o in menu["options"]]
        raise AssertionError(f"no option {label!r} in {menu.get('placeholder')!r}: {shown}")
    data = {"custom_id": menu["custom_id"], "component_type": 3, "values": [option["value"]]}
    return await _send(fake, user, message, data)


async def _send(
    fake: FakeDiscord, user: FakeUser, message: SentMessage, data: dict[str, Any]
) -> InteractionRecord:
    channel = fake.state.channels.get(message.channel_id or 0)
    return await fake.interact(user, data, channel=channel, interaction_type=3, message=message)


async def answered(fake: FakeDiscord, record: InteractionRecord, *, within: float = 10.0) -> int:
    """Wait until the bot answered a component interaction; its callback type."""
    await fake.wait_for(lambda: record.responses, within=within, what="component answer")
    return int(record.responses[0]["type"])


def update(msg: SentMessage, body: dict[str, Any], files: list[Any]) -> None:
    """An edit of `msg`: as `rest.apply_edit`, but an `attachments` list replaces the files
    (discord.py lists only the new ones it uploads; the others are dropped)."""
    from tests.fake_discord.rest import apply_edit  # noqa: PLC0415

    if "attachments" in body:
        msg.files = []
    apply_edit(msg, body, files)


def source(fake_state: Any, record: InteractionRecord) -> SentMessage | None:
    """The message a component interaction came from."""
    found = (record.payload.get("message") or {}).get("id")
    return next((m for m in fake_state.messages if str(m.id) == str(found)), None)
