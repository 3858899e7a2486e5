"""Issue 31: the golden embed payloads (tests/data/embeds/, written by tools/embed_goldens.py
from a Sandard and a Stab! game played through the service, English and French) are what
the embed builders make today, and every one is within Discord's limits."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from bot.core.map import load_map
from bot.core.model import Power
from bot.discord_app import embeds
from bot.discord_app.embeds import Field, ResultsFacts, problems, results_embeds, spread

ROOT = Path(__file__).resolve().parents[3]
GOLDEN = ROOT / "tests" / "data" / "embeds"
sys.path.insert(0, str(ROOT / "tools"))
import embed_goldens  # noqa: E402

KINDS = {"results", "opening", "vote-opened", "vote-closed", "over", "board", "board-vote", "feed"}


def goldens() -> dict[str, list[list[embeds.Embed]]]:
    return {p.name: json.loads(p.read_text()) for p in sorted(GOLDEN.glob("*.json"))}


def test_every_kind_in_both_languages_for_both_games():
    names = set(goldens())
    for lang in ("en", "fr"):
        for kind in KINDS - {"feed"}:
            assert f"sandard-{lang}-{kind}.json" in names
        for kind in ("results", "opening", "board"):
            assert f"stab-{lang}-{kind}.json" in names
        assert f"tournament-{lang}-feed.json" in names


@pytest.mark.parametrize("name", sorted(goldens()))
def test_golden_within_discords_limits(name):
    for message in goldens()[name]:
        assert problems(message) == [], name


async def test_goldens_are_what_the_builders_make():
    built = await embed_goldens.build()
    assert sorted(built) == sorted(goldens())
    for name, msgs in built.items():
        assert embed_goldens.dump(msgs) == (GOLDEN / name).read_text(), name


def test_the_limit_check_fails_when_a_limit_is_exceeded():
    ok = {"title": "t", "fields": [{"name": "n", "value": "v"}]}
    assert problems([ok]) == []
    assert problems([{**ok, "title": "x" * 257}])
    assert problems([{**ok, "description": "x" * 4097}])
    assert problems([{"title": "t", "fields": [{"name": "n", "value": "x" * 1025}]}])
    assert problems([{"title": "t", "fields": [{"name": "n" * 257, "value": "v"}]}])
    assert problems([{"title": "t", "fields": [{"name": "n", "value": "v"}] * 26}])
    assert problems([{**ok, "footer": {"text": "x" * 2049}}])
    assert problems([{**ok, "author": {"name": "x" * 257}}])
    assert problems([ok] * 11)
    big = {"description": "x" * 4000}
    assert problems([big, big])  # 6,000 characters across the embeds of one message


def _long_phase(n: int) -> list[str]:
    lines = []
    for power in load_map("standard").powers:
        lines.append(f"{load_map('standard').power_name(power, 'en')}:")
        lines += [f"A P{i:02d} s A Q{i:02d} - R{i:02d}; (cut) (dislodged)" for i in range(n)]
    return lines


@pytest.mark.parametrize("n", [1, 30, 120, 400])
def test_a_long_phase_spreads_over_embeds_and_messages_never_cutting_an_order(n):
    game_map = load_map("standard")
    lines = _long_phase(n)
    centers = dict.fromkeys(game_map.powers, 3)
    facts = ResultsFacts(1, "g" * 100, "Spring 1901 Movement", tuple(lines), centers, "x", 0.0)
    made = results_embeds(facts, game_map, "en")
    msgs = embeds.messages(made)
    for m in msgs:
        assert problems(m) == []
    values = [f["value"] for e in made for f in e.get("fields", [])]
    shown = [line for v in values for line in v.split("\n")]
    orders = [x for x in shown if x.startswith(embeds.FAILED)]
    assert len(orders) == n * len(game_map.powers)  # every order whole, once
    assert all(re.fullmatch(r"✗ `A P\d+ s A Q\d+ - R\d+` \(cut\) \(dislodged\)", o) for o in orders)
    assert made[-1]["image"] == {"url": "attachment://map.png"}  # the map after the orders
    assert sum("image" in e for e in made) == 1


def test_a_field_longer_than_1024_goes_on_in_the_next():
    head = {"title": "T"}
    made = spread(head, [Field("F", tuple(f"line {i:04d}" for i in range(300)))], more="(more)")
    names = [f["name"] for e in made for f in e["fields"]]
    assert names[0] == "F"
    assert set(names[1:]) == {"F (more)"}
    assert all(problems([e]) == [] for e in made)


def test_results_read_without_colour():
    assert embeds.order_line("A PAR s A BUR; (cut)") == "✗ `A PAR s A BUR` (cut)"
    assert embeds.order_line("A PAR - BUR") == "• `A PAR - BUR`"
    assert embeds.order_line("F ENG c A LON - BEL") == "✗ `F ENG c A LON - BEL`"
    assert embeds.order_line("A PAR S A BUR; (invalid) [A BUR - MUN]") == (
        "✗ `A PAR S A BUR` (invalid) [A BUR - MUN]"
    )
    assert embeds.order_line("A PAR H; (destroyed)") == "✗ `A PAR H` (destroyed)"


def test_power_fields_in_the_variants_order_with_its_colour():
    made = goldens()["sandard-en-results.json"][0][0]
    names = [f["name"] for f in made["fields"]][:6]
    assert names == ["🟥 Austria", "🟦 England", "🟦 France", "🟫 Germany", "🟩 Italy", "🟪 Russia"]
    assert embeds.square((200, 50, 50)) == "🟥"


def test_deadlines_are_discord_timestamps():
    text = json.dumps(goldens()["sandard-en-opening.json"])
    assert re.search(r"<t:\d+:F> \(<t:\d+:R>\)", text)


def _hidden_places(lang: str) -> set[str]:
    """Where the Stab! game's units stand that its public report never named."""
    names = load_map("standard").names()
    secret = set()
    for lines in embed_goldens.PLACE.values():
        for line in lines.split("\n"):
            for word in line.split()[1:]:
                province = word.split("/")[0]
                if province not in ("PIC", "BEL", "RUH", "-"):
                    secret.add(names.abbreviation(province, lang))
    return secret


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_stab_embeds_tell_nothing_hidden(lang):
    """Every string of every Stab! embed: no hidden unit's place, no order state after the
    moves (who owes adjustments), never an order but the public report's."""
    found = {n: m for n, m in goldens().items() if n.startswith(f"stab-{lang}")}
    secret = _hidden_places(lang)
    for name, msgs in found.items():
        words = set(re.findall(r"[A-Za-z]{3}", json.dumps(msgs, ensure_ascii=False)))
        leaks = {w for w in words if w in secret and w.isupper()}
        assert not leaks, (name, leaks)
    board = json.dumps(found[f"stab-{lang}-board.json"], ensure_ascii=False)
    for state in ("ordered", "ready", "not_yet", "nothing"):
        assert embeds._t(f"board.{state}", lang) not in board
    opening = found[f"stab-{lang}-opening.json"]
    assert all(Power.ENGLAND.value not in json.dumps(m) for m in opening)


def test_an_end_without_scores_still_shows_the_centres():
    game_map = load_map("standard")
    facts = embeds.OverFacts(
        1, "g", "the GM's reason", None, "", (), None, {Power.FRANCE: 18, Power.ITALY: 3}
    )
    [made] = embeds.over_embeds(facts, game_map, "en")
    assert made["fields"][0]["value"].split("\n") == ["🟦 France — 18", "🟩 Italy — 3"]
    assert "image" not in made


def test_a_bug_in_an_embed_falls_back_to_the_text(monkeypatch):
    from types import SimpleNamespace  # noqa: PLC0415

    from bot.discord_app import embed_posts  # noqa: PLC0415

    def broken(*_args, **_kw):
        raise RuntimeError("bug")

    monkeypatch.setattr(embed_posts.announce, "result_text_lines", broken)
    game = SimpleNamespace(meta={}, id=1)
    lines = ["**Results**", "France:", "A PAR - BUR"]
    assert embed_posts.results_post(game, SimpleNamespace(), lines) == (lines, None)
