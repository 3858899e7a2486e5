"""Golden embed payloads (issue 31): plays a short Sandard game and a short Stab! game through
the table service, in English and French, and builds every kind of embed the table channel
gets from what the service announced (results, phase openings, votes, game end, the status
board, the tournament feed), as the bot does (bot/discord_app/announce.py, embeds.py).

    python tools/embed_goldens.py            # writes tests/data/embeds/*.json
    python tools/embed_goldens.py --check    # exit 1 if a file differs or a limit is exceeded

tests/bot/discord_app/test_embed_goldens.py builds them again and compares.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.cli.demo_orders import random_orders  # noqa: E402
from bot.core.language.parser import render_order  # noqa: E402
from bot.core.map import load_map  # noqa: E402
from bot.discord_app import announce, embed_posts, embeds  # noqa: E402
from bot.service import EventKind, FakeClock, MemoryNotifier, TableService  # noqa: E402
from bot.service.games.record import final_standings, game_record  # noqa: E402

OUT = ROOT / "tests" / "data" / "embeds"
START = 1_800_000_000.0  # a fixed clock: the goldens' timestamps do not move
PLACE = {
    "ENGLAND": "A YOR\nA WAL\nF CLY",
    "FRANCE": "A PIC\nA PAR\nF BRE\nA PIC - BEL",
    "GERMANY": "A RUH\nA MUN\nF KIE\nA RUH - BEL",
    "ITALY": "A VEN\nA ROM\nF NAP",
    "AUSTRIA": "A VIE\nA BUD\nF TRI\nA BUD - SER",
    "RUSSIA": "A MOS\nA WAR\nF SEV\nF STP/SC",
    "TURKEY": "A CON\nA SMY\nF ANK\nF ANK - BLA",
}

Messages = list[list[embeds.Embed]]


async def _open(tmp: Path, name: str) -> tuple[TableService, FakeClock, MemoryNotifier]:
    clock = FakeClock(start=START)
    notifier = MemoryNotifier()
    svc = await TableService.open(
        tmp / f"{name}.db", clock=clock, notifier=notifier, run=False, init_db=True, render=False
    )
    return svc, clock, notifier


async def _step(svc: TableService, clock: FakeClock, gid: int) -> None:
    due = await svc.next_due(gid)
    assert due is not None
    clock.set(due)
    await svc.run_due()


async def sandard(tmp: Path, lang: str) -> dict[str, Messages]:
    """Sandard (edc2023 rules): Spring and Fall 1901 with seeded orders, a draw voted."""
    svc, clock, notifier = await _open(tmp, f"sandard-{lang}")
    game_map = load_map("sandard")
    users = {p: f"2{i:017d}" for i, p in enumerate(game_map.powers, 1)}
    out: dict[str, Messages] = {}
    try:
        game = await svc.create_game(
            "1" * 18, name="Vienna", clock="edc2023", rules="edc2023", lang=lang, variant="sandard"
        )
        for p, u in users.items():
            await svc.join(game.id, u, p)
        await svc.start_game(game.id, "1" * 18)
        await svc.run_due()
        rng = random.Random(31)
        seen: set[int] = set()
        while len(seen) < 2:
            st = await svc.status(game.id)
            if st.phase_status == "open" and st.phase_id not in seen and st.window == "writing":
                seen.add(st.phase_id or 0)
                position = await svc.position(game.id, st.phase_id)
                for p, u in list(users.items())[:-1]:  # the last power never orders (NMR)
                    orders = random_orders(position, p, game_map, rng)
                    text = "\n".join(render_order(o, lang, game_map) for o in orders)
                    await svc.submit(game.id, u, text)
                await svc.set_ready(game.id, users[game_map.powers[0]])
                out["board"] = [
                    embeds.board_embeds(
                        announce.board_facts(await svc.status(game.id)), game_map, lang
                    )
                ]
            await _step(svc, clock, game.id)
        record = await svc.propose_vote(game.id, users[game_map.powers[0]], "draw")
        st = await svc.status(game.id)
        votes = announce.open_votes(await svc.votes(game.id), st)
        out["board-vote"] = [embeds.board_embeds(announce.board_facts(st, votes), game_map, lang)]
        st = await svc.status(game.id)
        for u in users.values():
            if st.status != "over":
                await svc.cast_ballot(game.id, u, int(record["id"]), "yes")
                st = await svc.status(game.id)
        await svc.run_due()
        rec = await game_record(svc, game.id)
        out.update(_from_events(notifier, await svc.status(game.id), final_standings(rec)))
    finally:
        await svc.close()
    return out


async def stab(tmp: Path, lang: str) -> dict[str, Messages]:
    """Stab! on the standard map: placement and a bounce in Spring 1901, Fall held, the
    board in the Winter (who owes adjustments stays secret)."""
    svc, clock, notifier = await _open(tmp, f"stab-{lang}")
    game_map = load_map("standard")
    users = {p: f"3{i:017d}" for i, p in enumerate(game_map.powers, 1)}
    out: dict[str, Messages] = {}
    try:
        game = await svc.create_game(
            "1" * 18, name="Shadows", clock="edc2023", rules="stab", lang=lang
        )
        for p, u in users.items():
            await svc.join(game.id, u, p)
        await svc.start_game(game.id, "1" * 18)
        await svc.run_due()
        for p, u in users.items():
            reply = await svc.submit(game.id, u, PLACE[p.value])
            assert reply.accepted, reply.errors
        for _ in range(60):
            st = await svc.status(game.id)
            if st.phase and st.phase.startswith("W1901"):
                break
            await _step(svc, clock, game.id)
        out["board"] = [
            embeds.board_embeds(announce.board_facts(await svc.status(game.id)), game_map, lang)
        ]
        status = await svc.status(game.id)
        for e in notifier.events:
            if e.kind is EventKind.RESULTS_READY and "results" not in out:
                view = await svc.hidden_view(game.id, "", int(e.payload["stab"]["phase_id"]))
                facts = announce.results_facts(status, e, view.lines)
                facts = dataclasses.replace(facts, image="map.png")
                out["results"] = embeds.messages(embeds.results_embeds(facts, game_map, lang))
        others = _from_events(notifier, status, None)
        out.update({k: v for k, v in others.items() if k != "results"})
    finally:
        await svc.close()
    return out


def _from_events(notifier: MemoryNotifier, status: Any, found: Any) -> dict[str, Messages]:
    lang, game_map = status.lang, load_map(status.variant)
    out: dict[str, Messages] = {}
    for e in notifier.events:
        if e.kind is EventKind.RESULTS_READY and "results" not in out:
            facts = announce.results_facts(status, e, announce.result_text_lines(status, e))
            facts = dataclasses.replace(facts, image="map.png")  # (drawn by the bot)
            out["results"] = embeds.messages(embeds.results_embeds(facts, game_map, lang))
        elif e.kind is EventKind.WINDOW_OPENED and "opening" not in out:
            facts = announce.opening_facts(status, e)
            out["opening"] = embeds.messages(embeds.opening_embeds(facts, game_map, lang))
        elif e.kind in (EventKind.VOTE_OPENED, EventKind.VOTE_CLOSED):
            opened = e.kind is EventKind.VOTE_OPENED
            facts = announce.vote_facts(status, e, opened=opened)
            name = "vote-opened" if opened else "vote-closed"
            out[name] = embeds.messages(embeds.vote_embeds(facts, lang))
        elif e.kind is EventKind.GAME_OVER:
            facts = announce.over_facts(status, e, found, chart=True)
            out["over"] = embeds.messages(embeds.over_embeds(facts, game_map, lang))
    return out


def feed(lang: str) -> dict[str, Messages]:
    """The tournament feed after a round (made-up players, shown as mentions)."""
    rows = [(i, str(4000 + i), 100 - 4.5 * i) for i in range(1, 22)]
    name = "Coupe de Paris" if lang == "fr" else "Paris Cup"
    return {"feed": embed_posts.feed_post(7, name, lang, 2, rows)}


async def build() -> dict[str, Messages]:
    """Every golden, by file name."""
    found: dict[str, Messages] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for lang in ("en", "fr"):
            for variant, play in (("sandard", sandard), ("stab", stab)):
                for kind, msgs in (await play(Path(tmp), lang)).items():
                    found[f"{variant}-{lang}-{kind}.json"] = msgs
            for kind, msgs in feed(lang).items():
                found[f"tournament-{lang}-{kind}.json"] = msgs
    return found


def dump(msgs: Messages) -> str:
    return json.dumps(msgs, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    found = asyncio.run(build())
    bad = 0
    for name, msgs in sorted(found.items()):
        for m in msgs:
            for p in embeds.problems(m):
                print(f"{name}: {p}")
                bad += 1
        path = OUT / name
        if args.check:
            if not path.is_file() or path.read_text() != dump(msgs):
                print(f"{name}: differs")
                bad += 1
        else:
            OUT.mkdir(parents=True, exist_ok=True)
            path.write_text(dump(msgs))
    print(f"{len(found)} goldens, {bad} problems")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
