"""`parley demo`: a short game through the table service, offline, no Discord, no token.

Seven powers play seeded random but plausible orders (moves to adjacent provinces, supports
of their own moves, retreats, builds and removals) on the EDC tournament clock, run by a fake
clock so that each 8-minute window passes at once. A notifier writes every announcement to
`events.log`, and each phase's results (`NN_PHASE.txt`) and map (`NN_PHASE.png`) to the
output folder.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import time
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bot.cli.demo_orders import random_orders
from bot.core import catalogue
from bot.core.model import Phase, Power


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "demo",
        help="play a short seeded game offline and write results and maps to a folder",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--out", default="demo-out", help="output folder (default: demo-out)")
    p.add_argument("--years", type=int, default=3, help="game years to play (default: 3)")
    p.add_argument("--seed", type=int, default=1901, help="random seed (default: 1901)")
    p.add_argument(
        "--lang", choices=catalogue.languages(), default=catalogue.DEFAULT_LANG, help="nomenclature"
    )
    p.add_argument("--rules", default="edc2023", help="rule set (default: edc2023)")
    p.add_argument(
        "--variant",
        default="standard",
        metavar="NAME|FILE",
        help="variant: standard, sandard, or a variant file (default: standard)",
    )
    p.set_defaults(func=run)


# --- the notifier -----------------------------------------------------------------------------


def _word(key: str, lang: str) -> str:
    return catalogue.text("cli", f"demo.{key}", lang)


def _colon(lang: str) -> str:
    return catalogue.meta(lang).colon + ":"  # French typography, as bot/core/language/notation.py


def utc(stamp: float) -> str:
    """An epoch time as readable UTC, e.g. `2026-11-22 03:18:06Z`."""
    return datetime.fromtimestamp(stamp, tz=UTC).strftime("%Y-%m-%d %H:%M:%SZ")


def _is_time(key: str) -> bool:
    return key == "deadline" or key.endswith(("_at", "_until"))


def _value(key: str, value: Any) -> str:
    if _is_time(key) and isinstance(value, int | float) and not isinstance(value, bool):
        return utc(value)
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {v}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(map(str, value)) + "]"
    return str(value)


def log_line(event: Any) -> str:
    """One event of `events.log`: id, time (UTC, on the demo's fast clock), phase, kind and
    its payload, times written as UTC rather than epoch seconds."""
    # Empty values (no map error, no skipped phase) say nothing: left out.
    keep = {k: v for k, v in event.payload.items() if k != "lines" and v not in ("", None, [], {})}
    payload = ", ".join(f"{k}={_value(k, v)}" for k, v in sorted(keep.items()))
    if len(payload) > 300:
        payload = payload[:299] + "…"
    head = f"{event.id:4d} {utc(event.created_at)} {event.phase or '-':8s} {event.kind.value}"
    return f"{head} {payload}"


class FolderNotifier:
    """Writes events to `events.log`, results as text and maps as PNG."""

    def __init__(self, out: Path, lang: str, game_map: Any) -> None:
        self.out = out
        self.lang = lang
        self.game_map = game_map
        self.count = 0
        self.written: list[Path] = []
        self.over: dict[str, Any] | None = None
        self._last: tuple[Path, list[str]] | None = None  # the latest results: file, lines

    @property
    def last_phase(self) -> str | None:
        """The last phase with results (`S1907M`), from its file's name."""
        return self._last[0].stem.split("_")[-1] if self._last else None

    async def notify(self, event: Any) -> None:
        from bot.service import EventKind  # noqa: PLC0415

        log = self.out / "events.log"
        if not log.exists():
            log.write_text("# Parley demo events; times in UTC on the demo's fast clock\n")
        with log.open("a", encoding="utf-8") as fh:
            fh.write(log_line(event) + "\n")
        if event.kind is EventKind.RESULTS_READY:
            self.count += 1
            stem = f"{self.count:02d}_{event.phase}"
            text = self.out / f"{stem}.txt"
            lines = self._results_lines(event)
            text.write_text("\n".join(lines) + "\n", encoding="utf-8")
            self._last = (text, lines)
            self.written.append(text)
            if event.png:
                png = self.out / f"{stem}.png"
                png.write_bytes(event.png)
                self.written.append(png)
        elif event.kind is EventKind.GAME_OVER:
            self.over = event.payload
            if self._last is not None:  # the last results announce no next phase
                path, lines = self._last
                word = _word("over", self.lang)
                why = _why_over(event.payload, self.lang, path.stem.split("_")[-1], self.game_map)
                lines = [*lines[:-1], f"{word}{_colon(self.lang)} {why}".rstrip()]
                path.write_text("\n".join(lines) + "\n", encoding="utf-8")

    def _results_lines(self, event: Any) -> list[str]:
        from bot.core.language.notation import notation_lines  # noqa: PLC0415

        lang, colon = self.lang, _colon(self.lang)
        lines = [f"{_word('results', lang)}{colon} {Phase.parse(event.phase).describe(lang)}", ""]
        if event.outcome is not None:
            lines.extend(notation_lines(event.outcome, lang, self.game_map))
        else:
            lines.extend(
                f"{r['power'] or '':8s} {r['order']}"
                + ("" if r["succeeded"] else f"  ({r['reason'] or 'failed'})")
                for r in event.payload["lines"]
            )
        lines.append("")
        centres = centre_list(event.payload["centers"], lang, self.game_map)
        lines.append(f"{_word('centres', lang)}{colon} {centres}")
        nxt = Phase.parse(event.payload["next_phase"]).describe(lang)
        lines.append(f"{_word('next', lang)}{colon} {nxt}")
        return lines


def _why_over(payload: Mapping[str, Any], lang: str, last_phase: str, game_map: Any) -> str:
    """Why the game ended, in the game's language (the service explains it in English)."""
    reason = payload.get("reason")
    if catalogue.is_default(lang):  # the service's own explanation is in English
        return str(payload.get("explanation") or reason or "")
    if reason == "year limit":
        return _word("why_year_limit", lang).format(year=Phase.parse(last_phase).year)
    if reason == "solo" and payload.get("winner"):
        winner = game_map.power_name(Power.of(payload["winner"]), lang)
        return _word("why_solo", lang).format(power=winner)
    return str(payload.get("explanation") or reason or "")


def centre_list(centers: Mapping[Any, int], lang: str, game_map: Any) -> str:
    """`Germany 8, Italy 5, ...`: most centres first (then the variant's order), powers named
    in the game's language."""
    counts = [(Power.of(p), n) for p, n in centers.items()]
    order = list(game_map.powers)
    counts.sort(key=lambda pn: (-pn[1], order.index(pn[0]) if pn[0] in order else len(order)))
    return ", ".join(f"{game_map.power_name(p, lang)} {n}" for p, n in counts)


# --- the game ---------------------------------------------------------------------------------


async def play(  # noqa: PLR0917 - the command line's options
    out: Path, years: int, seed: int, lang: str, rules: str, variant: str = "standard"
) -> int:
    from bot.core.map import load_map  # noqa: PLC0415
    from bot.service import FakeClock, ServiceError, TableService  # noqa: PLC0415

    db = out / "parley-demo.db"
    rng = random.Random(seed)
    clock = FakeClock(start=time.time())
    game_map = load_map(variant)
    notifier = FolderNotifier(out, lang, game_map)
    try:
        # The demo owns its file (removed by _prepare), so an empty one is fine.
        svc = await TableService.open(db, clock=clock, notifier=notifier, run=False, init_db=True)
    except ServiceError as exc:
        print(f"parley demo: {exc.message}", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    try:
        st = await _play_game(svc, clock, rng, years=years, lang=lang, rules=rules, variant=variant)
    except ServiceError as exc:
        print(f"parley demo: {exc.message}", file=sys.stderr)
        return 2
    finally:
        await svc.close()
    elapsed = time.perf_counter() - t0
    print(summary(out, notifier, st.centers, elapsed=elapsed, rules=rules, lang=lang))
    return 0


async def _play_game(
    svc: Any,
    clock: Any,
    rng: random.Random,
    *,
    years: int,
    lang: str,
    rules: str,
    variant: str = "standard",
) -> Any:
    """Create, start and play the game to its end; returns its final status."""
    from bot.core.language.parser import render_order  # noqa: PLC0415

    game = await svc.create_game(
        "demo-gm",
        name="Parley demo",
        clock="edc2023",
        rules=rules,
        lang=lang,
        variant=variant,
        clock_overrides={"years": years},
    )
    game_map = svc.engine.load_map(variant)
    for power in game_map.powers:
        await svc.join(game.id, f"demo-{power.value.lower()}", power)
    await svc.start_game(game.id, "demo-gm")
    await svc.run_due()
    ordered: set[int] = set()
    for _ in range(10_000):
        st = await svc.status(game.id)
        if st.status == "over":
            break
        if st.phase_status == "open" and st.phase_id and st.phase_id not in ordered:
            ordered.add(st.phase_id)
            position = await svc.position(game.id, st.phase_id, viewer="demo-gm")
            for power, user in st.players.items():
                orders = random_orders(position, power, game_map, rng)
                if orders:
                    text = "\n".join(render_order(o, lang, game_map) for o in orders)
                    await svc.submit(game.id, user, text)
        due = await svc.next_due(game.id)
        if due is None:
            break
        clock.set(due)
        await svc.run_due()
    return await svc.status(game.id)


def summary(
    out: Path,
    notifier: FolderNotifier,
    centers: Mapping[Power, int],
    *,
    elapsed: float,
    rules: str,
    lang: str,
) -> str:
    """What the game came to and where its files are, for the console."""
    game_map = notifier.game_map
    seconds = f"{elapsed:.1f}".replace(".", catalogue.meta(lang).decimal)

    def say(key: str, **kw: Any) -> str:
        return _word(key, lang).format(**kw)

    lines = [
        say(
            "summary_head",
            n=notifier.count,
            seconds=seconds,
            variant=game_map.name,
            powers=len(game_map.powers),
            rules=rules,
        )
    ]
    over = notifier.over or {}
    winner = over.get("winner")
    if winner:
        lines.append(say("summary_winner", power=game_map.power_name(Power.of(winner), lang)))
    elif over:
        last = notifier.last_phase or "W1901A"
        why = _why_over(over, lang, last, game_map) or str(over.get("reason") or "")
        lines.append(say("summary_no_winner", why=why))
    lines.append(say("summary_centres", centres=centre_list(centers, lang, game_map)))
    txt = sorted(p.name for p in notifier.written if p.suffix == ".txt")
    png = sorted(p.name for p in notifier.written if p.suffix == ".png")
    lines.append(say("summary_files", folder=out))
    if txt:
        lines.append(f"  {_span(txt):34s} {say('summary_results')}")
    if png:
        lines.append(f"  {_span(png):34s} {say('summary_maps', last=png[-1])}")
    lines.append(f"  {'events.log':34s} {say('summary_log')}")
    lines.append(f"  {'parley-demo.db':34s} {say('summary_db')}")
    return "\n".join(lines)


def _span(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{names[0]} … {names[-1]}"


def _prepare(out: Path) -> Path:
    """Create the folder and remove what a previous demo wrote there (only that)."""
    out = out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    db = out / "parley-demo.db"
    for stale in (db, db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm")):
        stale.unlink(missing_ok=True)
    (out / "events.log").unlink(missing_ok=True)
    for old in [*out.glob("[0-9][0-9]_*.txt"), *out.glob("[0-9][0-9]_*.png")]:
        old.unlink()
    for folder in out.glob("[0-9][0-9]_*/"):  # a Stab! demo's phase folders: its files only
        for old in [*folder.glob("*.txt"), *folder.glob("*.png")]:
            old.unlink()
        if not any(folder.iterdir()):
            folder.rmdir()
    return out


MAX_YEARS = 100  # 1901-2000: a demo, not a soak test


def run(args: argparse.Namespace) -> int:
    from bot.core.presets import RulesError, load_rules  # noqa: PLC0415

    if not 1 <= args.years <= MAX_YEARS:
        print(f"parley demo: --years must be between 1 and {MAX_YEARS}", file=sys.stderr)
        return 2
    from bot.cli.stab_demo import hidden_preset  # noqa: PLC0415
    from bot.core.map import MapError, load_map  # noqa: PLC0415

    try:
        load_rules(args.rules)  # before anything in --out is touched
        if hidden_preset(args.variant, args.rules) is None:
            load_map(args.variant)
    except (RulesError, MapError) as exc:
        print(f"parley demo: {exc}", file=sys.stderr)
        return 2
    hidden = hidden_preset(args.variant, args.rules)
    try:
        out = _prepare(Path(args.out))
    except OSError as exc:
        why = exc.strerror or str(exc)
        print(f"parley demo: cannot use {args.out} as the output folder: {why}", file=sys.stderr)
        return 2
    if hidden is not None:
        return _play_hidden(out, args, hidden)
    return asyncio.run(play(out, args.years, args.seed, args.lang, args.rules, args.variant))


def _play_hidden(out: Path, args: argparse.Namespace, preset: str) -> int:
    """A hidden-movement game (Stab!): each viewer's maps and reports (bot/cli/stab_demo.py)."""
    from bot.cli.stab_demo import play_stab, stab_summary  # noqa: PLC0415

    n, seconds, folders = play_stab(out, args.years, args.seed, args.lang, preset)
    print(stab_summary(out, n, seconds, folders, preset, args.lang))
    return 0
