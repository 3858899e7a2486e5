"""Embeds for the table channel (issue 31): pure functions from game facts to Discord embed
payloads (the JSON of `discord.Embed.to_dict()`), within Discord's documented limits.

Limits (https://discord.com/developers/docs/resources/message#embed-object-embed-limits): title
256 characters, description 4,096, 25 fields, field name 256, field value 1,024, footer 2,048,
author name 256, and 6,000 characters in all across title, description, field names and
values, footer and author of ALL the embeds of one message; 10 embeds a message. A long phase
goes over several embeds (and messages), split between lines, never inside an order.

An embed has one colour; a power's field is marked by the square emoji nearest its colour
(the variant's colour) before its name, so the name carries the meaning and the colour only
helps. Results read without colour: a failed order is `✗` and keeps the notation's lower case
and notes (`(cut)`, `(dislodged)`, `(destroyed)`, `(invalid)`, stabbeurfou 4).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.core.catalogue import meta, text
from bot.core.map import GameMap
from bot.core.model import Power

Embed = dict[str, Any]

TITLE, DESCRIPTION, FIELDS, FIELD_NAME, FIELD_VALUE = 256, 4096, 25, 256, 1024
FOOTER, AUTHOR, TOTAL, PER_MESSAGE = 2048, 256, 6000, 10
COLOUR = 0x5865F2  # an embed's bar when no power's colour fits (Discord's blurple)
FAILED, DONE = "✗", "•"  # read aloud "cross mark" / "bullet"

# The square emoji and the colour Discord's (Twemoji) glyph is drawn in.
SQUARES: tuple[tuple[str, tuple[int, int, int]], ...] = (
    ("🟥", (221, 46, 68)),
    ("🟧", (244, 144, 12)),
    ("🟨", (253, 203, 88)),
    ("🟩", (120, 177, 89)),
    ("🟦", (85, 172, 238)),
    ("🟪", (170, 142, 214)),
    ("🟫", (193, 105, 79)),
    ("⬛", (49, 55, 61)),
    ("⬜", (230, 231, 232)),
)


def _t(key: str, lang: str, **params: Any) -> str:
    return text("embeds", key, lang, **params)


def square(rgb: Sequence[int]) -> str:
    """The square emoji nearest the colour."""
    return min(SQUARES, key=lambda s: sum((a - b) ** 2 for a, b in zip(s[1], rgb, strict=True)))[0]


def colour_int(rgb: Sequence[int]) -> int:
    r, g, b = rgb
    return (r << 16) | (g << 8) | b


def power_label(game_map: GameMap, power: Power, lang: str) -> str:
    """`🟥 Austria`: the marker then the name."""
    info = game_map.power_info.get(power)
    mark = square(info.colour) if info is not None else "▫️"
    return f"{mark} {game_map.power_name(power, lang)}"


def timestamp(epoch: float | None, style: str = "F") -> str:
    """A Discord timestamp (each reader's own time zone and language): F full, R relative."""
    return "—" if epoch is None else f"<t:{int(epoch)}:{style}>"


def deadline_text(epoch: float | None) -> str:
    return "—" if epoch is None else f"{timestamp(epoch, 'F')} ({timestamp(epoch, 'R')})"


# --- limits -------------------------------------------------------------------------------


def size(embed: Embed) -> int:
    """The characters Discord counts towards the 6,000 of a message."""
    n = len(embed.get("title") or "") + len(embed.get("description") or "")
    n += len((embed.get("footer") or {}).get("text") or "")
    n += len((embed.get("author") or {}).get("name") or "")
    for f in embed.get("fields") or []:
        n += len(f.get("name") or "") + len(f.get("value") or "")
    return n


def problems(embeds: Sequence[Embed]) -> list[str]:
    """Every one of Discord's limits the embeds of ONE message exceed (empty: it may go)."""
    out: list[str] = []
    if len(embeds) > PER_MESSAGE:
        out.append(f"{len(embeds)} embeds > {PER_MESSAGE}")
    total = 0
    for i, e in enumerate(embeds):
        checks = [
            ("title", len(e.get("title") or ""), TITLE),
            ("description", len(e.get("description") or ""), DESCRIPTION),
            ("footer", len((e.get("footer") or {}).get("text") or ""), FOOTER),
            ("author", len((e.get("author") or {}).get("name") or ""), AUTHOR),
            ("fields", len(e.get("fields") or []), FIELDS),
        ]
        for j, f in enumerate(e.get("fields") or []):
            name, value = f.get("name") or "", f.get("value") or ""
            checks += [(f"fields[{j}].name", len(name), FIELD_NAME)]
            checks += [(f"fields[{j}].value", len(value), FIELD_VALUE)]
            if not name.strip() or not value.strip():
                out.append(f"embeds[{i}].fields[{j}]: empty name or value")
        out += [f"embeds[{i}].{what}: {n} > {most}" for what, n, most in checks if n > most]
        total += size(e)
    if total > TOTAL:
        out.append(f"{total} characters > {TOTAL}")
    return out


def _cut(line: str, most: int) -> str:
    return line if len(line) <= most else line[: most - 1] + "…"


def joined(lines: Iterable[str], most: int = FIELD_VALUE) -> list[str]:
    """Lines joined into values of at most `most` characters, cut only between lines (a
    line longer than a whole value, which no order is, is shortened)."""
    out: list[str] = []
    current = ""
    for raw in lines:
        line = _cut(raw, most)
        if current and len(current) + 1 + len(line) > most:
            out.append(current)
            current = line
        else:
            current = f"{current}\n{line}" if current else line
    if current:
        out.append(current)
    return out


@dataclass(frozen=True, slots=True)
class Field:
    name: str
    lines: tuple[str, ...]
    inline: bool = False


def spread(
    head: Embed, fields: Sequence[Field], tail: Embed | None = None, *, more: str = ""
) -> list[Embed]:
    """`head` (title, description, colour...) with the fields, over as many embeds as the
    limits need: a field longer than 1,024 goes on in a field named `name (more)`; an
    embed full (25 fields, or 6,000 characters less a margin for the message's others)
    is continued by one titled `title (more)`. `tail` (footer, image) goes on the last."""
    pieces: list[dict[str, Any]] = []
    for f in fields:
        for k, value in enumerate(joined(f.lines) or ["—"]):
            name = f.name if k == 0 else f"{f.name} {more}".strip()
            pieces.append({"name": _cut(name, FIELD_NAME), "value": value, "inline": f.inline})
    tail = tail or {}
    room = TOTAL - size(tail)
    out: list[Embed] = [dict(head, fields=[])]
    for p in pieces:
        cur = out[-1]
        grows = len(p["name"]) + len(p["value"])
        if len(cur["fields"]) >= FIELDS or size(cur) + grows > room:
            title = f"{head.get('title', '')} {more}".strip()
            cur = {k: v for k, v in head.items() if k not in ("description",)}
            cur.update(title=_cut(title, TITLE), fields=[])
            out.append(cur)
        cur["fields"].append(p)
    for e in out:
        if not e["fields"]:
            del e["fields"]
    out[-1].update(tail)
    return out


def messages(embeds: Sequence[Embed]) -> list[list[Embed]]:
    """The embeds in as few messages as Discord takes: 10 a message, 6,000 characters in all."""
    out: list[list[Embed]] = [[]]
    for e in embeds:
        cur = out[-1]
        if cur and (len(cur) >= PER_MESSAGE or sum(map(size, cur)) + size(e) > TOTAL):
            out.append(cur := [])
        cur.append(e)
    return out


# --- results --------------------------------------------------------------------------------


def order_line(line: str) -> str:
    """A notation line (`A PAR s A BUR; (cut)`) with its mark: `✗` when the order failed
    (a note, or the notation's lower-case word, stabbeurfou 4(a)), else `•`; the order in
    code type so that it reads as written."""
    order, _, notes = line.partition(";")
    bracket = ""
    if "[" in order:
        order, _, rest = order.partition("[")
        bracket = "[" + rest
    failed = bool(notes.strip()) or any(w.isalpha() and w.islower() for w in order.split())
    mark = FAILED if failed else DONE
    shown = f"{mark} `{order.strip()}`"
    extra = " ".join(x for x in (notes.strip(), bracket.strip()) if x)
    return f"{shown} {extra}" if extra else shown


def blocks(lines: Iterable[str], game_map: GameMap, lang: str) -> tuple[list[str], list[Field]]:
    """Results text (`France:`/`__France__` headings, then lines) as (lines before any
    heading, one field per power in the order given); headings are the variant's names."""
    colon = meta(lang).colon + ":"
    names = {game_map.power_name(p, lang): p for p in game_map.powers}
    loose: list[str] = []
    found: list[tuple[str, list[str]]] = []
    for line in lines:
        bare = line.strip().strip("_").removesuffix(colon).removesuffix(":").strip()
        power = names.get(bare) if line.strip() else None
        if power is not None:
            found.append((power_label(game_map, power, lang), []))
        elif found:
            found[-1][1].append(order_line(line))
        else:
            loose.append(line)
    return loose, [Field(name, tuple(body)) for name, body in found]


@dataclass(frozen=True, slots=True)
class ResultsFacts:
    """What a results message shows (public facts only)."""

    game_id: int
    game_name: str
    phase: str  # the phase's name in the game's language ("Spring 1902 Movement")
    lines: tuple[str, ...]  # notation lines with power headings (public view for Stab!)
    centers: Mapping[Power, int]
    next_phase: str
    next_at: float | None
    skipped: str = ""  # phases skipped, named
    image: str | None = "map.png"


def centres_field(centers: Mapping[Power, int], game_map: GameMap, lang: str) -> Field:
    """Centre counts, most first, in the variant's order between equals."""
    rank = {p: i for i, p in enumerate(game_map.powers)}
    found = sorted(centers.items(), key=lambda kv: (-kv[1], rank.get(kv[0], 99), kv[0].value))
    lines = [f"{power_label(game_map, p, lang)} — {n}" for p, n in found]
    return Field(_t("centres", lang), tuple(lines) or ("—",))


def results_embeds(facts: ResultsFacts, game_map: GameMap, lang: str) -> list[Embed]:
    title = _t("results.title", lang, phase=facts.phase, name=facts.game_name, id=facts.game_id)
    loose, fields = blocks(facts.lines, game_map, lang)
    desc = [line for line in loose if line.strip()]
    if facts.skipped:
        desc.append(_t("results.skipped", lang, phases=facts.skipped))
    head: Embed = {"title": _cut(title, TITLE), "color": COLOUR}
    if desc:
        head["description"] = _cut("\n".join(desc), DESCRIPTION)
    if facts.centers:
        fields.append(centres_field(facts.centers, game_map, lang))
    when = deadline_text(facts.next_at)
    fields.append(Field(_t("results.next", lang), (f"**{facts.next_phase}** — {when}",)))
    tail: Embed = {"footer": {"text": _t("results.legend", lang)}}
    if facts.image:
        tail["image"] = {"url": f"attachment://{facts.image}"}
    return spread(head, fields, tail, more=_t("more", lang))


# --- announcements --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class OpeningFacts:
    game_id: int
    game_name: str
    phase: str
    window: str  # "negotiation" | "writing"
    writing_at: float | None
    deadline: float | None
    to_order: tuple[Power, ...]
    press_open: bool


def opening_embeds(facts: OpeningFacts, game_map: GameMap, lang: str) -> list[Embed]:
    title = _t("opening.title", lang, phase=facts.phase, name=facts.game_name, id=facts.game_id)
    key = "opening.negotiation" if facts.window == "negotiation" else "opening.writing"
    head: Embed = {"title": _cut(title, TITLE), "color": COLOUR, "description": _t(key, lang)}
    fields = [Field(_t("deadline", lang), (deadline_text(facts.deadline),), inline=True)]
    if facts.window == "negotiation":
        fields.insert(
            0, Field(_t("opening.writing_at", lang), (deadline_text(facts.writing_at),), True)
        )
    press = _t("press_state.open" if facts.press_open else "press_state.locked", lang)
    fields.append(Field(_t("press", lang), (press,), inline=True))
    if facts.to_order:
        who = [power_label(game_map, p, lang) for p in facts.to_order]
        fields.append(Field(_t("opening.to_order", lang), (", ".join(who),)))
    return spread(head, fields, more=_t("more", lang))


@dataclass(frozen=True, slots=True)
class VoteFacts:
    game_id: int
    game_name: str
    vote_id: int
    opened: bool  # True: a vote opened; False: decided
    text: str  # the service's sentence (what, and the result when closed)
    status: str  # open, passed, failed, refused...
    counts: Mapping[str, int] | None = None  # where the rules publish them
    closes_at: float | None = None


def vote_embeds(facts: VoteFacts, lang: str) -> list[Embed]:
    key = "vote.opened" if facts.opened else "vote.closed"
    title = _t(key, lang, id=facts.vote_id, name=facts.game_name, game=facts.game_id)
    head: Embed = {
        "title": _cut(title, TITLE),
        "color": COLOUR,
        "description": _cut(facts.text, DESCRIPTION),
    }
    fields = [Field(_t("vote.status", lang), (_t(f"vote.status_{facts.status}", lang),), True)]
    if facts.counts:
        counts = ", ".join(f"{_t(f'vote.{k}', lang)} {n}" for k, n in facts.counts.items())
        fields.append(Field(_t("vote.counts", lang), (counts,), True))
    if facts.opened and facts.closes_at:
        fields.append(Field(_t("vote.closes", lang), (deadline_text(facts.closes_at),), True))
    tail: Embed = {"footer": {"text": _t("vote.secret", lang)}} if facts.opened else {}
    return spread(head, fields, tail, more=_t("more", lang))


@dataclass(frozen=True, slots=True)
class ScoreRow:
    place: int
    power: Power
    centers: int
    score: str  # as the scoring system writes it (22,86 in French)


@dataclass(frozen=True, slots=True)
class OverFacts:
    game_id: int
    game_name: str
    reason: str  # in words
    winner: Power | None
    system: str  # the scoring system's name
    rows: tuple[ScoreRow, ...]
    image: str | None = "centres.png"
    centers: Mapping[Power, int] = field(default_factory=dict)  # shown when no scores


def score_table(rows: Sequence[ScoreRow], game_map: GameMap, lang: str) -> list[str]:
    """The scores as a table in code type (columns align in every Discord client)."""
    names = [game_map.power_name(r.power, lang) for r in rows]
    wide = max([len(n) for n in names] + [len(_t("over.power", lang))])
    head = f"{'#':>2}  {_t('over.power', lang):<{wide}}  {_t('over.sc', lang):>3}  "
    head += _t("over.score", lang)
    body = [
        f"{r.place:>2}  {n:<{wide}}  {r.centers:>3}  {r.score}"
        for r, n in zip(rows, names, strict=True)
    ]
    return ["```", head, *body, "```"]


def over_embeds(facts: OverFacts, game_map: GameMap, lang: str) -> list[Embed]:
    title = _t("over.title", lang, name=facts.game_name, id=facts.game_id, reason=facts.reason)
    colour = COLOUR
    desc = ""
    if facts.winner is not None:
        info = game_map.power_info.get(facts.winner)
        colour = colour_int(info.colour) if info is not None else COLOUR
        desc = _t("over.winner", lang, power=power_label(game_map, facts.winner, lang))
    head: Embed = {"title": _cut(title, TITLE), "color": colour}
    if desc:
        head["description"] = desc
    fields = []
    if facts.rows:
        name = _t("over.standings", lang, system=facts.system)
        fields.append(Field(name, tuple(score_table(facts.rows, game_map, lang))))
    elif facts.centers:
        fields.append(centres_field(facts.centers, game_map, lang))
    tail: Embed = {"image": {"url": f"attachment://{facts.image}"}} if facts.image else {}
    return spread(head, fields, tail, more=_t("more", lang))


@dataclass(frozen=True, slots=True)
class FeedRow:
    place: int
    player: str  # a mention or a display name
    points: str


@dataclass(frozen=True, slots=True)
class FeedFacts:
    tournament_id: int
    tournament_name: str
    round: int
    rows: tuple[FeedRow, ...]
    note: str = ""


def feed_embeds(facts: FeedFacts, lang: str) -> list[Embed]:
    """The tournament feed's standings after a round: one line a player, best first."""
    title = _t(
        "feed.title", lang, name=facts.tournament_name, id=facts.tournament_id, round=facts.round
    )
    head: Embed = {"title": _cut(title, TITLE), "color": COLOUR}
    if facts.note:
        head["description"] = _cut(facts.note, DESCRIPTION)
    lines = tuple(f"**{r.place}.** {r.player} — {r.points}" for r in facts.rows)
    fields = [Field(_t("feed.standings", lang), lines or ("—",))]
    return spread(head, fields, more=_t("more", lang))


# --- plain text (screen readers, /export) ----------------------------------------------------


def plain(embeds: Iterable[Embed]) -> list[str]:
    """The same facts as lines of text, in the order shown."""
    out: list[str] = []
    for e in embeds:
        out += [e[k] for k in ("title", "description") if e.get(k)]
        for f in e.get("fields") or []:
            out += [f"{f['name']}:", *f["value"].split("\n")]
        if (e.get("footer") or {}).get("text"):
            out.append(e["footer"]["text"])
    return out


# --- the status board -------------------------------------------------------------------------

ORDERED, READY, NOT_YET, NOTHING, DISORDER = "ordered", "ready", "not_yet", "nothing", "disorder"


@dataclass(frozen=True, slots=True)
class BoardFacts:
    """The public state of a game (never anyone's orders)."""

    game_id: int
    game_name: str
    status: str  # forming, active, paused, over
    phase: str  # named, "" before the start
    window: str  # named
    deadline: float | None
    powers: tuple[tuple[Power, str], ...]  # state: ORDERED... ("" when it stays secret)
    centers: Mapping[Power, int]
    press_open: bool
    votes: tuple[tuple[int, str], ...] = ()
    secret_states: bool = False  # Stab! after moves: who owes orders stays hidden


def board_embeds(facts: BoardFacts, game_map: GameMap, lang: str) -> list[Embed]:
    title = _t("board.title", lang, name=facts.game_name, id=facts.game_id)
    head: Embed = {"title": _cut(title, TITLE), "color": COLOUR}
    notes = {"forming": "board.forming", "paused": "board.paused", "over": "board.over"}
    if facts.status in notes:
        head["description"] = _t(notes[facts.status], lang)
    fields: list[Field] = []
    if facts.phase:
        fields.append(Field(_t("board.phase", lang), (f"**{facts.phase}**",), True))
        fields.append(Field(_t("board.window", lang), (facts.window or "—",), True))
        fields.append(Field(_t("deadline", lang), (deadline_text(facts.deadline),), True))
    rows = []
    for power, state in facts.powers:
        parts = [power_label(game_map, power, lang)]
        if state:
            parts.append(_t(f"board.{state}", lang))
        if facts.centers.get(power) is not None:
            parts.append(f"{facts.centers[power]} {_t('over.sc', lang)}")
        rows.append(" — ".join(parts))
    if facts.secret_states:
        rows.append(f"*{_t('board.hidden', lang)}*")
    if rows:
        fields.append(Field(_t("board.powers", lang), tuple(rows)))
    if facts.phase:
        press = _t("press_state.open" if facts.press_open else "press_state.locked", lang)
        fields.append(Field(_t("press", lang), (press,), True))
    if facts.votes:
        lines = tuple(_t("board.vote_line", lang, id=i, text=x) for i, x in facts.votes)
        fields.append(Field(_t("board.vote", lang), lines))
    tail: Embed = {"footer": {"text": _t("board.updated", lang)}}
    return spread(head, fields, tail, more=_t("more", lang))
