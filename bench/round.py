"""A tournament round on one clock (issue 19): N tables of seven players started together on
the fake Discord with Discord's rate limits on (50 requests/s for the bot, 5 messages per 5 s
per channel), every player ordering by DM: most early, 30% in the last 3 seconds, some
correcting 1 second before the deadline.

    python3 bench/round.py                 # N = 10, 30, 60, and 30 with a shared feed
    python3 bench/round.py -n 10 --feed

Prints orders lost (a player's last set, sent before the deadline, is not the power's orders
at adjudication; the service runs with its default grace, bot.service.clock.lateness), the sets read
after the deadline (how late the latest, how many refused), acknowledgements missing (lost and acks
missing must be 0), the spread of the deadlines after the start (each table's deadline
minus its start; goal < 0.1 s), deadline -> results per table (p50 / max, the grace included;
goals: first <= 0.5 s after the grace, last within 1 s of the floor or of the CPU bound) and
when the bot had caught up with its gateway (the grace used: the floor, more if it lagged),
the intake's CPU an order (reading and acknowledging a set before the rush), the
floor (the bot's requests from the deadline to the last table's results / 50 per s), the CPU
bound (the process's CPU time from the deadline to the last results: the service, the bot
and the fake Discord, which share this process) and, with --feed,
when the shared feed got the last table's results (it may lag: it delays only itself).
`--trace`: each set of the last seconds, from pressing send to its verdict, and the event
loop's lag; the sets sent in time and refused, one line each.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for tests.fake_discord

from bot.cli.demo_orders import random_orders
from bot.client import ParleyBot
from bot.core.language.parser import render_order
from bot.core.model import Power
from bot.discord_app.notifier import nonce
from bot.service import FakeClock, TableService
from bot.service.clock.lateness import GRACE, Receipt
from bot.service.storage.rows import SubmissionRow
from tests.fake_discord import FakeDiscord, FakeUser, SentMessage

LEAD = 4.0  # real seconds of the writing window the bench plays out
GLOBAL = 50  # Discord's global limit, requests per second


async def tick(clock: FakeClock, offset: list[float]) -> None:
    """The service's clock is real time plus `offset[0]` (moved forward to skip windows)."""
    while True:
        clock.set(time.time() + offset[0])
        await asyncio.sleep(0.005)


class Trace:
    """Per set (with --trace): when it was due to be sent, sent (its message's time), written
    to the gateway, began and ended its reading, and the verdict; the event loop's lag."""

    def __init__(self, svc: TableService) -> None:
        self.sent: dict[str, list[dict[str, float]]] = {}  # user -> per set, in send order
        self.read: dict[str, list[dict[str, float]]] = {}  # user -> per reading, in order
        self.lag: list[tuple[float, float]] = []  # (when, how late a 10 ms sleep woke)
        intake = svc.table.intake
        receiving = intake.receiving

        @contextlib.contextmanager
        def traced(user: str, created_at: float | None) -> Iterator[Receipt]:
            with receiving(user, created_at) as receipt:
                row = {"received": receipt.received, "loop": time.perf_counter()}
                self.read.setdefault(user, []).append(row)
                try:
                    yield receipt
                finally:
                    row["ended"] = svc.clock.now()

        intake.receiving = traced  # type: ignore[method-assign]

    async def watch_loop(self) -> None:
        while True:
            at = time.perf_counter()
            await asyncio.sleep(0.01)
            self.lag.append((at, time.perf_counter() - at - 0.01))


async def play(n: int, feed: bool, seed: int, grace: float, trace: bool = False) -> dict[str, Any]:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeDiscord() as fake:
            guild = fake.add_guild("Round", ["lobby", "feed"])
            feed_id = fake.state.channel_named("feed").id
            clock = FakeClock(start=time.time())
            offset = [0.0]
            ticker = asyncio.create_task(tick(clock, offset))
            svc = await TableService.open(
                Path(tmp) / "round.db",
                clock=clock,
                run=False,
                grace=grace,
            )
            tracer = Trace(svc) if trace else None
            caught: list[float] = []  # when the bot caught up with its gateway (clock)
            then = svc.table.intake.then

            def noted() -> None:
                caught.append(clock.now())
                if then is not None:
                    then()

            svc.table.intake.then = noted
            game_map = svc.engine.load_map("standard")
            tables: dict[int, int] = {}
            users: dict[int, dict[str, FakeUser]] = {}
            for g in range(n):
                table = fake.state.add_channel(guild, f"table-{g}")
                meta = {"channel": table.id, "spectators": [feed_id] if feed else []}
                st = await svc.create_game(
                    str(fake.state.owner.id), name=f"table {g}", clock="edc2023", meta=meta
                )
                users[st.id] = {}
                for power in game_map.powers:
                    user = fake.add_user(f"{g}-{power.value}")
                    fake.join(guild, user)
                    await svc.join(st.id, str(user.id), power)
                    users[st.id][power.value] = user
                tables[table.id] = st.id
            fake.rate_limits()
            bot = ParleyBot(svc, guild_ready_timeout=0.05)
            await bot.login(fake.token)
            task = asyncio.create_task(bot.connect())
            await asyncio.wait_for(bot.wait_until_ready(), 30)

            # The round starts: the director starts every table at once.
            spans = []
            for gid in tables.values():
                at = clock.now()
                st = await svc.start_game(gid, str(fake.state.owner.id))
                await svc.run_due()
                spans.append(((await svc.status(gid)).deadline or 0.0) - at)
            t0 = time.perf_counter()
            while await svc.table.storage.has_pending_events():  # noqa: ASYNC110 - a poll
                await asyncio.sleep(0.05)
            startup = time.perf_counter() - t0

            # Skip to LEAD seconds before the deadline, time standing still while what fell
            # due meanwhile (the writing window, reminders) goes out and most players (70%)
            # send their orders; the last LEAD seconds then run in real time.
            gids = list(tables.values())
            deadline = (await svc.status(gids[0])).deadline or 0.0
            ticker.cancel()
            clock.set(deadline - LEAD)
            sent: list[tuple[FakeUser, str]] = []  # (user, DM message id)
            last_text: dict[tuple[int, str], str] = {}
            nonces: set[str | None] = set()
            scanned = [0]  # messages whose nonce is in `nonces`

            position = await svc.position(gids[0])  # (every table starts from it)

            def written(power: str) -> str:
                chosen = random_orders(position, Power(power), game_map, rng)
                return "\n".join(render_order(o) for o in chosen) or "A PAR H"

            async def order(gid: int, power: str, user: FakeUser, when: float, text: str) -> None:
                """The player presses send at `when` (written beforehand, as players do)."""
                await asyncio.sleep(max(0.0, when - time.perf_counter()))
                row = {"due": when, "fired": time.perf_counter()}
                # The message's own time is the service's clock (lateness is judged by it).
                row["created"] = clock.now()
                payload = await fake.send_dm(user, text, at=row["created"])
                row["written"] = time.perf_counter()
                if tracer is not None:
                    tracer.sent.setdefault(str(user.id), []).append(row)
                sent.append((user, str(payload["id"])))
                last_text[gid, power] = text

            def acks_missing() -> int:
                nonces.update(m.nonce for m in fake.state.messages[scanned[0] :])
                scanned[0] = len(fake.state.messages)
                return sum(1 for _, mid in sent if nonce("reply", mid, 0) not in nonces)

            seats = [(g, p, u) for g, by in users.items() for p, u in by.items()]
            late = [seat for seat in seats if rng.random() < 0.3]
            early = [order(*seat, 0.0, written(seat[1])) for seat in seats if seat not in late]
            cpu_intake = time.process_time()
            await asyncio.gather(*early)
            for _ in range(1200):  # (a minute at most)
                if not acks_missing() and not await svc.table.storage.has_pending_events():
                    break
                await asyncio.sleep(0.05)
            # What reading and acknowledging one set costs (the bot, the fake Discord too).
            cpu_intake = (time.process_time() - cpu_intake) / len(early)
            await asyncio.sleep(5.0)  # the channel buckets refill
            offset[0] = deadline - LEAD - time.time()
            ticker = asyncio.create_task(tick(clock, offset))
            t_deadline = time.perf_counter() + LEAD
            jobs = [
                order(*seat, t_deadline - rng.uniform(0.2, 3.0), written(seat[1])) for seat in late
            ]
            jobs += [
                order(*seat, t_deadline - 1.0, written(seat[1]))
                for seat in seats
                if rng.random() < 0.2
            ]
            requests_before = len(fake.state.requests)
            if tracer is not None:  # only the sets of the last seconds
                tracer.sent.clear()
                tracer.read.clear()

            posted: dict[int, float] = {}
            feed_posts: list[float] = []
            done = asyncio.Event()

            def seen(msg: SentMessage) -> None:
                if not msg.files:
                    return
                if msg.channel_id == feed_id:
                    feed_posts.append(time.perf_counter() - t_deadline)
                game = tables.get(msg.channel_id or 0)
                if game is not None:
                    posted.setdefault(game, time.perf_counter() - t_deadline)
                if len(posted) == n and (not feed or len(feed_posts) == n):
                    done.set()

            fake.state.listeners.append(seen)
            cpu: list[float] = []

            async def cpu_at_deadline() -> None:
                await asyncio.sleep(max(0.0, t_deadline - time.perf_counter()))
                cpu.append(time.process_time())

            watch = asyncio.create_task(cpu_at_deadline())
            looper = asyncio.create_task(tracer.watch_loop()) if tracer else None
            await asyncio.gather(*jobs)
            await asyncio.wait_for(done.wait(), 600)
            at_last = max(posted.values())
            await watch
            busy = time.process_time() - cpu[0]  # all the process did: service, bot, fake
            for _ in range(600):  # the acknowledgements still queued (30 s at most)
                if not acks_missing():
                    break
                await asyncio.sleep(0.05)
            # The bot's requests from the deadline to the last table's results.
            start = t_deadline_mono(t_deadline)
            requests = [
                r
                for r in fake.state.requests[requests_before:]
                if "/interactions/" not in r.path and start <= r.at <= start + at_last
            ]
            missing = acks_missing()
            lost = 0
            read_late: list[float] = []  # how long after the deadline each set was read
            refused = 0
            if looper is not None:
                looper.cancel()
            verdicts: dict[str, list[SubmissionRow]] = {}
            for gid in gids:
                phases = [p for p in await svc.phases(gid) if p.phase == "S1901M"]
                rows = await svc.table.storage.standing(phases[0].id)
                standing = {s.power: s.text for s in rows}
                lost += sum(
                    1 for (g, p), text in last_text.items() if g == gid and standing.get(p) != text
                )
                for h in await svc.table.storage.submissions_of_game(gid):
                    sub = h.submission
                    verdicts.setdefault(sub.user_id, []).append(sub)
                    if sub.submitted_at >= deadline:
                        read_late.append(sub.submitted_at - deadline)
                        refused += not sub.accepted
            scopes = [scope for scope, _ in fake.rest.limits.limited] if fake.rest.limits else []
            limited = f"{scopes.count('global')} global, {scopes.count('user')} per channel"
            await bot.close()
            await task
            ticker.cancel()
            await svc.close()
    if tracer is not None:
        report(tracer, verdicts, deadline, t_deadline, at_last)
    lat = sorted(posted.values())
    return {
        "n": n,
        "feed": feed,
        "orders": len(sent),
        "lost": lost,
        "read_late": len(read_late),
        "refused": refused,
        "latest_read": max(read_late, default=0.0),
        "acks_missing": missing,
        "spread": max(spans) - min(spans),
        "startup": startup,
        "first": lat[0],
        "p50": statistics.median(lat),
        "max": lat[-1],
        "floor": len(requests) / GLOBAL,
        "cpu": busy,
        "cpu_order": cpu_intake,
        "caught_up": [at - deadline for at in caught if at >= deadline],
        "feed_last": max(feed_posts) if feed_posts else None,
        "limited": limited,
    }


def report(
    tracer: Trace,
    verdicts: dict[str, list[SubmissionRow]],
    deadline: float,
    t_deadline: float,
    at_last: float,
) -> None:
    """Per set sent in the last seconds: each step's time after the deadline; the late ones."""
    rows = []
    for user, sends in tracer.sent.items():
        reads = tracer.read.get(user, [])
        subs = sorted(verdicts.get(user, []), key=lambda s: s.submitted_at)[-len(sends) :]
        for i, row in enumerate(sends):
            got = reads[i] if i < len(reads) else {}
            sub = subs[i] if i < len(subs) else None
            rows.append(
                {
                    "due": row["due"] - t_deadline,
                    "fired": row["fired"] - t_deadline,
                    "created": row["created"] - deadline,
                    "written": row["written"] - t_deadline,
                    "received": got.get("received", float("nan")) - deadline,
                    "loop": got.get("loop", float("nan")) - t_deadline,
                    "ended": got.get("ended", float("nan")) - deadline,
                    "accepted": bool(sub and sub.accepted),
                }
            )
    rows.sort(key=lambda r: r["created"])
    wait = sorted(r["loop"] - r["written"] for r in rows)
    read = sorted(r["ended"] - r["received"] for r in rows)
    print(
        f"  trace: {len(rows)} sets in the last seconds; written -> reading began p50"
        f" {statistics.median(wait):.3f} s, max {wait[-1]:.3f} s; reading p50"
        f" {statistics.median(read):.3f} s, max {read[-1]:.3f} s"
    )
    for lo, hi in ((-LEAD, -1.0), (-1.0, 0.0), (0.0, 2.0), (2.0, 4.0), (4.0, at_last + 1)):
        lags = [lag for at, lag in tracer.lag if lo <= at - t_deadline < hi]
        if lags:
            print(
                f"  loop lag {lo:+.1f}..{hi:+.1f} s: max {max(lags):.3f} s,"
                f" p50 {statistics.median(lags):.3f} s ({len(lags)} samples)"
            )
    bad = [r for r in rows if r["created"] < 0 and not r["accepted"]]
    late = [r for r in rows if r["created"] >= 0]
    print(f"  sent after the deadline (the sender was late): {len(late)}; sent in time refused:")
    for r in bad:
        print("   " + ", ".join(f"{k} {v:+.3f}" for k, v in r.items() if k != "accepted"))


def grace_used(caught_up: list[float]) -> str:
    return f"{min(caught_up):.2f} s after the deadline" if caught_up else "no catch-up"


def t_deadline_mono(t_deadline: float) -> float:
    """perf_counter and monotonic share a clock on Linux; the fake stamps with monotonic."""
    return t_deadline - time.perf_counter() + time.monotonic()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, action="append", help="tables (repeatable)")
    ap.add_argument("--feed", action="store_true", help="a shared feed following every table")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--grace", type=float, default=GRACE, help="seconds (0: none, as before)")
    ap.add_argument("--trace", action="store_true", help="each set's times; the loop's lag")
    args = ap.parse_args()
    runs = (
        [(n, args.feed) for n in args.n]
        if args.n
        else [(10, False), (30, False), (60, False), (30, True)]
    )
    for n, feed in runs:
        r = asyncio.run(play(n, feed, args.seed, args.grace, args.trace))
        bound = "Discord (the floor)" if r["floor"] >= r["cpu"] else "CPU"
        print(
            f"N={r['n']:3d}{' +feed' if r['feed'] else ''}: orders {r['orders']}, lost {r['lost']},"
            f" read after the deadline {r['read_late']} (latest {r['latest_read']:.2f} s,"
            f" refused {r['refused']}), acks missing {r['acks_missing']}; deadline spread"
            f" after start {r['spread']:.3f} s"
            f" (start-up announcements {r['startup']:.1f} s); deadline -> results first"
            f" {r['first']:.2f} s, p50 {r['p50']:.2f} s, max {r['max']:.2f} s (grace used:"
            f" caught up with the gateway {grace_used(r['caught_up'])}); floor"
            f" {r['floor']:.2f} s, CPU {r['cpu']:.2f} s ({bound} binds); 429s {r['limited']};"
            f" intake CPU {r['cpu_order'] * 1000:.1f} ms an order"
            + (
                f"; feed's last results {r['feed_last']:.1f} s"
                if r["feed_last"] is not None
                else ""
            )
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
