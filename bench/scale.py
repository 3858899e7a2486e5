"""Several Parley processes on one PostgreSQL database (issue 17), measured.

    python3 bench/scale.py tables            # (a) 100 tables sharing one deadline
    python3 bench/scale.py spread            # (b) games across 4 processes + a burst
    python3 bench/scale.py kill              # (c) kill -9 of one of two processes in a burst
    python3 bench/scale.py all

(a) plays `bench/round.py`'s round with 100 tables (one process, the fake Discord enforcing
50 requests/s and 5 messages per 5 s per channel, orders by DM): deadline -> the last table's
results against the floor (the bot's requests in that time / 50 per s), and where the time
went: the requests by kind (table channels, DMs, other) per second, the table channels' own
floor; goal within 2 s of the floor.

(b) `--games` games (default 10,000) on a fresh PostgreSQL schema served by `--workers`
processes (default 4), each running the scheduler and the outbox: deadlines spread over
`--window` seconds (default 600, the issue's 10 minutes) plus `--burst` games (default 500)
sharing one deadline in the middle, seeded on `--seeders` connections at once. Events go to
a recording notifier (each process appends what it delivered to a file): at Discord's 50
requests/s, 10,000 tables' results alone need 200 s, so (b) measures the claims, not
Discord; (a) and (c) post to the fake Discord. Prints phases adjudicated more than once
(must be 0), events delivered more or less than once (must be 0), deadline -> delivery lag
p50 / p99 / max, database size; `--profile`: the statements, transactions and claims per
game of all the processes.

(c) `--kill-games` tables (default 200) with one deadline, two processes posting to the fake
Discord (limits on); one is killed (SIGKILL) once the first results are out; the other takes
over after the lease (`--lease`, default 5 s). Prints phases adjudicated twice, tables without
results, double posts (all must be 0) and when the last table got its results.

Every process here shares this machine's cores with the PostgreSQL server and the others:
the figures are what this machine measured, not a capacity.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # for tests.fake_discord

DSN = os.environ.get("PARLEY_TEST_PG") or "postgresql://postgres@127.0.0.1:5432/test"
GM = "bench-gm"


def settings(schema: str) -> dict[str, str]:
    return {"search_path": schema, "application_name": schema}


# --- a worker process -----------------------------------------------------------------------


class Recorder:
    """A notifier that appends `key <tab> unix time` for each event it is handed."""

    def __init__(self, path: str) -> None:
        self.file = open(path, "a", encoding="utf-8")  # noqa: SIM115 - for the process's life

    async def notify(self, event: Any) -> None:
        self.file.write(f"{event.key}\t{time.time():.4f}\n")
        self.file.flush()


def count_statements(path: str) -> None:
    """--profile: count this process's statements (by their first words) and transactions,
    written to `path` when the process is told to stop (SIGTERM)."""
    import collections  # noqa: PLC0415

    from bot.service.storage import postgres  # noqa: PLC0415

    counts: collections.Counter[str] = collections.Counter()

    def counted(cls: Any, name: str) -> None:
        real = getattr(cls, name)

        async def wrapper(self: Any, sql: str, params: Any = ()) -> Any:
            counts[" ".join(sql.split())[:70]] += 1
            return await real(self, sql, params)

        setattr(cls, name, wrapper)

    for cls in (postgres.PgTx, postgres.PgStore):
        for name in ("execute", "fetchone", "fetchall"):
            if hasattr(cls, name):
                counted(cls, name)
    real_tx = postgres.PgStorage.tx

    def tx(self: Any, *, durable: bool = True) -> Any:
        counts[f"(transaction, durable={durable})"] += 1
        return real_tx(self, durable=durable)

    postgres.PgStorage.tx = tx  # type: ignore[method-assign]
    from bot.service.table import Table  # noqa: PLC0415

    real_claim = Table.claim

    async def claim(self: Any, game_id: int, kind: str, phase_id: int | None = None) -> Any:
        later = await real_claim(self, game_id, kind, phase_id)
        counts[f"({kind} claim {'taken' if later is None else 'refused'})"] += 1
        return later

    Table.claim = claim  # type: ignore[method-assign]

    def dump(*_: object) -> None:
        with open(path, "w", encoding="utf-8") as out:
            for sql, k in counts.most_common():
                out.write(f"{k}\t{sql}\n")
        os._exit(0)

    signal.signal(signal.SIGTERM, dump)


async def run_worker(args: argparse.Namespace) -> None:
    from bot.service import TableService  # noqa: PLC0415
    from bot.service.storage.postgres import PgStorage  # noqa: PLC0415

    if args.profile:
        count_statements(args.log + ".sql")

    storage = await PgStorage.open(args.dsn, server_settings=settings(args.schema))
    svc = await TableService.open(storage=storage, render=False, run=False)
    svc.table.lease = args.lease
    if args.fake:
        import discord.http  # noqa: PLC0415

        from bot.client import ParleyBot  # noqa: PLC0415

        discord.http.Route.BASE = f"{args.fake}/api/v10"
        bot = ParleyBot(svc, sync_commands=False)
        await bot.login(args.token)  # REST only; its setup starts the scheduler and outbox
    else:
        svc.notifier = Recorder(args.log)
        svc.start()
    # kill -USR1 <pid>: every task's stack on stderr (where a process waits, if it stalls)
    asyncio.get_running_loop().add_signal_handler(
        signal.SIGUSR1, lambda: [t.print_stack() for t in asyncio.all_tasks()]
    )
    print("ready", flush=True)
    await asyncio.Event().wait()


def spawn(schema: str, lease: float, *, log: str = "", fake: str = "", token: str = "") -> Any:
    cmd = [sys.executable, __file__, "worker", "--schema", schema, "--lease", str(lease)]
    cmd += ["--log", log] if log else ["--fake", fake, "--token", token]
    cmd += ["--profile"] if "--profile" in sys.argv else []
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, cwd=ROOT)


async def wait_ready(procs: list[Any]) -> None:
    for p in procs:
        line = await asyncio.to_thread(p.stdout.readline)
        if line.strip() != "ready":
            raise SystemExit(f"a worker did not start: {line!r}")


def stop(procs: list[Any]) -> None:
    for p in procs:
        if p.poll() is None:
            p.terminate()
    for p in procs:
        with contextlib.suppress(subprocess.TimeoutExpired):
            p.wait(10)
        if p.poll() is None:
            p.kill()


# --- the database, as the bench sees it ------------------------------------------------------


class Schema:
    """A fresh schema, its seeding service (no scheduler: the workers run the clocks) and an
    admin connection for the checks."""

    def __init__(self, gm: str = GM) -> None:
        self.name = f"bench_{uuid.uuid4().hex[:10]}"
        self.gm = gm

    async def __aenter__(self) -> Schema:
        import asyncpg  # noqa: PLC0415

        from bot.service import FakeClock, TableService  # noqa: PLC0415
        from bot.service.storage.postgres import PgStorage  # noqa: PLC0415

        self.admin = await asyncpg.connect(DSN)
        await self.admin.execute(f"CREATE SCHEMA {self.name}")
        storage = await PgStorage.open(DSN, server_settings=settings(self.name))
        # The seeding clock stands still: every game it starts opens at the same moment,
        # so games given the same writing window share their deadline to the microsecond.
        self.clock = FakeClock(start=time.time())
        self.svc = await TableService.open(
            storage=storage, clock=self.clock, render=False, run=False
        )
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.svc.close()
        if "--keep" not in sys.argv:
            await self.admin.execute(f"DROP SCHEMA {self.name} CASCADE")
        await self.admin.close()

    async def seed(
        self, writing: list[float], meta: list[dict[str, Any]] | None = None, *, seeders: int = 1
    ) -> None:
        """One started game per writing window (seconds from the seeding clock's time); with
        `seeders` > 1 on as many connections at once (game ids then not in `writing`'s order)."""
        from bot.service import TableService  # noqa: PLC0415
        from bot.service.storage.postgres import PgStorage  # noqa: PLC0415

        services = [self.svc]
        for _ in range(seeders - 1):
            storage = await PgStorage.open(DSN, server_settings=settings(self.name))
            services.append(
                await TableService.open(storage=storage, clock=self.clock, render=False, run=False)
            )

        async def seed_some(svc: Any, first: int) -> None:
            for i in range(first, len(writing), len(services)):
                st = await svc.create_game(
                    self.gm,
                    name=f"g{i}",
                    clock="casual",
                    clock_overrides={"spring_movement": {"writing": writing[i]}, "reminders": []},
                    meta=meta[i] if meta else None,
                )
                await svc.start_game(st.id, self.gm)

        try:
            await asyncio.gather(*(seed_some(svc, k) for k, svc in enumerate(services)))
        finally:
            for svc in services[1:]:
                await svc.close()

    async def fetch(self, sql: str) -> list[Any]:
        return list(await self.admin.fetch(sql.replace("{s}", self.name)))

    async def done(self) -> tuple[int, int]:
        """(games adjudicated, events not delivered yet)."""
        row = await self.admin.fetchrow(
            "SELECT (SELECT COUNT(DISTINCT p.game_id) FROM {s}.results r JOIN {s}.phases p"
            " ON p.id = r.phase_id) AS adj, (SELECT COUNT(*) FROM {s}.outbox"
            " WHERE delivered_at IS NULL) AS pending".replace("{s}", self.name)
        )
        return int(row["adj"]), int(row["pending"])

    async def adjudicated_twice(self) -> int:
        rows = await self.fetch(
            "SELECT game_id, COUNT(*) AS n FROM {s}.audit WHERE action = 'adjudicated'"
            " GROUP BY game_id HAVING COUNT(*) > 1"
        )
        return len(rows)

    async def deadlines(self) -> dict[int, float]:
        rows = await self.fetch("SELECT game_id, deadline FROM {s}.phases WHERE phase = 'S1901M'")
        return {int(r["game_id"]): float(r["deadline"]) for r in rows}

    async def results_keys(self) -> dict[int, str]:
        """game id -> the outbox key of its first results (for the games adjudicated)."""
        rows = await self.fetch(
            "SELECT p.game_id, p.id FROM {s}.results r JOIN {s}.phases p ON p.id = r.phase_id"
        )
        return {int(r["game_id"]): f"{r['game_id']}:{r['id']}:results" for r in rows}

    async def size(self) -> int:
        row = await self.admin.fetchrow(
            "SELECT SUM(pg_total_relation_size(format('%I.%I', schemaname, tablename)::regclass))"
            " AS n FROM pg_tables WHERE schemaname = $1",
            self.name,
        )
        return int(row["n"])


async def until_done(db: Schema, games: int, limit: float) -> float:
    t0 = time.time()
    while time.time() - t0 < limit:
        adj, pending = await db.done()
        if adj >= games and pending == 0:
            return time.time()
        await asyncio.sleep(0.5)
    adj, pending = await db.done()
    print(f"  (gave up after {limit:.0f} s: {adj}/{games} adjudicated, {pending} events pending)")
    return time.time()


def cpu_seconds(pid: int) -> float:
    """User + system CPU of a process on this machine (Linux), 0 if it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def cpu_of(db: Schema, procs: list[Any]) -> tuple[float, float]:
    """CPU seconds so far of the worker processes, and of their server backends (those
    connected to the bench's schema; the server runs on this machine)."""
    rows = await db.admin.fetch(
        "SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND pid <> pg_backend_pid()",
        db.name,
    )
    workers = sum(cpu_seconds(p.pid) for p in procs)
    return workers, sum(cpu_seconds(int(r["pid"])) for r in rows)


def rss_mib(pid: int) -> float:
    """Resident memory of a process (Linux VmRSS), MiB; 0 if it is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def memory(procs: list[Any]) -> str:
    """Each process's RSS now, and the machine's load average (it is shared)."""
    each = " / ".join(f"{rss_mib(p.pid):.0f}" for p in procs)
    return f"RSS {each} MiB, load average {os.getloadavg()[0]:.1f}"


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# --- (a) ---------------------------------------------------------------------------------------


def tables(args: argparse.Namespace) -> None:
    """bench/round.py's round (one process, the fake Discord's limits on), and where the time
    between the deadline and the last table's results went: the requests in that time by
    kind, second by second, against the floors."""
    import collections  # noqa: PLC0415

    sys.path.insert(0, str(ROOT / "bench"))
    import round as rnd  # noqa: PLC0415

    from tests.fake_discord import state as fake_state  # noqa: PLC0415

    print(f"(a) {args.tables} tables sharing one deadline (bench/round.py):", flush=True)
    found: list[Any] = []
    plain_init = fake_state.FakeState.__init__

    def init(self: Any, *a: Any, **k: Any) -> None:  # the fake's state, and when each post
        plain_init(self, *a, **k)
        found.append(self)
        self.posted_at = []
        self.listeners.append(lambda m: self.posted_at.append((time.monotonic(), m)))

    fake_state.FakeState.__init__ = init  # type: ignore[method-assign]
    r = asyncio.run(rnd.play(args.tables, False, 1, rnd.GRACE))
    st = found[-1]
    tables_ = {c.id for c in st.channels.values() if c.name.startswith("table-")}
    results = sorted(t for t, m in st.posted_at if m.channel_id in tables_ and m.files)
    t0 = results[0] - r["first"]  # the deadline, on the fake's clock
    last = results[-1]

    def kind(req: Any) -> str:
        if req.path.endswith("/messages") and req.method == "POST":
            return "table" if int(req.path.split("/")[-2]) in tables_ else "DM"
        return "other"

    per_s: dict[int, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    counts: collections.Counter[str] = collections.Counter()
    for req in st.requests:
        if t0 <= req.at <= last + 0.05 and paced(req.path):  # (a request is logged after)
            counts[kind(req)] += 1
            per_s[int(req.at - t0)][kind(req)] += 1
    busy = " ".join(f"{s}s:{c['table']}/{c['DM']}/{c['other']}" for s, c in sorted(per_s.items()))
    print(
        f"  orders {r['orders']}, lost {r['lost']} (refused {r['refused']}), read after the"
        f" deadline {r['read_late']} (latest {r['latest_read']:.2f} s, grace {rnd.GRACE:g} s);"
        f" load average {os.getloadavg()[0]:.1f}"
    )
    print(
        f"  deadline -> results: first {r['first']:.2f} s, p50 {r['p50']:.2f} s, last"
        f" {r['max']:.2f} s; CPU {r['cpu']:.2f} s; 429s {r['limited']}"
    )
    print(
        f"  requests until the last results: {sum(counts.values())} (table channels"
        f" {counts['table']}, DMs {counts['DM']}, other {counts['other']}): floor"
        f" {sum(counts.values()) / 50:.2f} s; the table channels' alone {counts['table'] / 50:.2f}"
        f" s; last results - first results {results[-1] - results[0]:.2f} s"
    )
    print(f"  per second after the deadline (table/DM/other): {busy}")


def paced(path: str) -> bool:
    """A request that counts against Discord's global limit."""
    return "/api/" in path and "/interactions/" not in path and "/webhooks/" not in path


# --- (b) ---------------------------------------------------------------------------------------


def read_logs(logs: list[str]) -> tuple[dict[str, list[float]], list[int]]:
    """Every event key the processes delivered, with the times; how many per process."""
    seen: dict[str, list[float]] = {}
    counts = []
    for log in logs:
        lines = Path(log).read_text(encoding="utf-8").splitlines()
        counts.append(len(lines))
        for line in lines:
            key, at = line.split("\t")
            seen.setdefault(key, []).append(float(at))
    return seen, counts


def print_statements(logs: list[str], games: int) -> None:
    """--profile: what every process sent the database, per game."""
    total: dict[str, int] = {}
    for log in logs:
        path = Path(log + ".sql")
        if not path.exists():
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            k, sql = line.split("\t", 1)
            total[sql] = total.get(sql, 0) + int(k)
    statements = sum(k for sql, k in total.items() if not sql.startswith("("))
    print(f"  statements per game {statements / games:.1f} (all processes):")
    ordered = sorted(total.items(), key=lambda kv: (not kv[0].startswith("("), -kv[1]))
    for sql, k in ordered[:30]:
        print(f"    {k / games:6.2f}  {sql}")


async def spread(args: argparse.Namespace) -> None:
    n, burst, window = args.games, args.burst, args.window
    print(
        f"(b) {n} games on PostgreSQL, {args.workers} processes, deadlines over {window:g} s"
        f" + a burst of {burst}:",
        flush=True,
    )
    with tempfile.TemporaryDirectory() as tmp:
        async with Schema() as db:
            logs = [str(Path(tmp) / f"w{i}.log") for i in range(args.workers)]
            procs = [spawn(db.name, args.spread_lease, log=log) for log in logs]
            try:
                await wait_ready(procs)
                rss = {"start": memory(procs)}
                # Seeding takes a while: measure it on a few games, give every deadline room.
                t0 = time.time()
                db.clock.set(time.time())
                await db.seed([1.0] * 40, seeders=args.seeders)
                per_game = (time.time() - t0) / 40
                lead = per_game * n * 1.5 + 20.0  # (the machine is shared: room to spare)
                spread_ = [lead + window * i / max(1, n - burst) for i in range(n - burst)]
                writing = sorted(spread_ + [lead + window / 2] * burst)
                db.clock.set(time.time())
                t1 = time.time()
                await db.seed(writing, seeders=args.seeders)
                seeded = time.time() - t1
                cpu0 = await cpu_of(db, procs)

                async def middle() -> None:  # the burst's deadline: the busiest moment
                    await asyncio.sleep(max(0.0, t1 + lead + window / 2 - time.time()))
                    rss["middle"] = memory(procs)

                sampler = asyncio.create_task(middle())
                late = f"; LATE by {seeded - lead:.0f} s" if seeded > lead else ""
                print(
                    f"  seeded {n} games in {seeded:.0f} s ({n / seeded:.0f}/s){late}", flush=True
                )
                end = await until_done(db, n + 40, lead + window + args.timeout)
                rss["end"] = memory(procs)
                sampler.cancel()
                cpu = [b - a for a, b in zip(cpu0, await cpu_of(db, procs), strict=True)]
            finally:
                stop(procs)
            deadlines = await db.deadlines()
            twice = await db.adjudicated_twice()
            size = await db.size()
        seen, per_worker = read_logs(logs)
        if args.profile:
            print_statements(logs, n + 40)
    doubled = sum(1 for times in seen.values() if len(times) > 1)
    lags = []
    for key, times in seen.items():
        if key.endswith(":results"):
            game = int(key.split(":")[0])
            lags.append(min(times) - deadlines[game])
    missing = len(deadlines) - len(lags)
    print(
        f"  phases adjudicated twice {twice}; events delivered twice {doubled}, results"
        f" missing {missing}; events per process {per_worker}"
    )
    print(
        f"  CPU from the end of seeding: the {args.workers} processes {cpu[0]:.0f} s"
        f" ({cpu[0] / n * 1000:.1f} ms a game), their PostgreSQL backends {cpu[1]:.0f} s"
        f" ({cpu[1] / n * 1000:.1f} ms a game); load average {os.getloadavg()[0]:.1f}"
    )
    print(
        f"  deadline -> results delivered: p50 {statistics.median(lags):.2f} s,"
        f" p99 {pct(lags, 0.99):.2f} s, max {max(lags):.2f} s; all done"
        f" {end - (max(deadlines.values())):.1f} s after the last deadline;"
        f" database {size / 2**20:.1f} MiB"
    )
    for when, text in rss.items():  # (memory flat over the run: issue 34)
        print(f"  {when:6}: {text}")


# --- (c) ---------------------------------------------------------------------------------------


async def kill(args: argparse.Namespace) -> None:
    from bot.discord_app.notifier import nonce  # noqa: PLC0415
    from tests.fake_discord import FakeDiscord  # noqa: PLC0415

    n = args.kill_games
    print(f"(c) {n} tables, one deadline, two processes, one killed (kill -9):", flush=True)
    async with FakeDiscord() as fake, Schema() as db:
        db.gm = str(fake.state.owner.id)
        guild = fake.add_guild("Round", ["lobby"])
        channels = [fake.state.add_channel(guild, f"table-{i}").id for i in range(n)]
        fake.rate_limits()
        procs = [spawn(db.name, args.lease, fake=fake.base_url, token=fake.token) for _ in range(2)]
        try:
            await wait_ready(procs)
            # Seeding (~0.3 s a game on this loaded machine) and the start-up announcements
            # (40 requests/s) come before the deadline.
            lead = 10.0 + n * (0.3 + 4 / 40)
            db.clock.set(time.time())
            await db.seed([lead] * n, [{"channel": c} for c in channels])
            deadline = db.clock.now() + lead
            posts: dict[tuple[int | None, str | None], list[float]] = {}
            table_ids = set(channels)

            def seen(msg: Any) -> None:
                if msg.channel_id in table_ids:
                    posts.setdefault((msg.channel_id, msg.nonce), []).append(time.time())

            fake.state.listeners.append(seen)
            while len(await db.results_keys()) < max(1, n // 10):  # noqa: ASYNC110 - a poll
                await asyncio.sleep(0.01)
            ids = await db.results_keys()
            os.kill(procs[0].pid, signal.SIGKILL)  # mid-burst: some tables adjudicated, most not
            killed_at = time.time()
            await until_done(db, n, args.lease * 4 + n / 10 + 60)
            twice = await db.adjudicated_twice()
            keys = await db.results_keys()
        finally:
            stop(procs)
        doubles = fake.state.double_posts()
    results = [
        posts.get((channel, nonce(key, channel, 0)), [])
        for channel, key in zip(channels, [keys.get(i + 1, "") for i in range(n)], strict=True)
    ]
    last = max((min(p) for p in results if p), default=float("nan")) - deadline
    without = sum(1 for p in results if not p)
    more = sum(1 for p in results if len(p) > 1)
    print(
        f"  killed {killed_at - deadline:.2f} s after the deadline with {len(ids)}/{n} tables"
        f" adjudicated; phases adjudicated twice {twice}; tables without results {without},"
        f" with results twice {more}; double posts {doubles}; last table's results"
        f" {last:.1f} s after the deadline (lease {args.lease:g} s)"
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=["tables", "spread", "kill", "all", "worker"])
    ap.add_argument("--tables", type=int, default=100)
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--burst", type=int, default=500)
    ap.add_argument("--window", type=float, default=600.0)
    ap.add_argument("--workers", type=int, default=4)
    ap.add_argument("--seeders", type=int, default=3, help="(b): connections seeding at once")
    ap.add_argument("--kill-games", type=int, default=200)
    ap.add_argument("--lease", type=float, default=5.0, help="(c)'s lease, seconds")
    ap.add_argument("--spread-lease", type=float, default=30.0, help="(b)'s lease (Parley's)")
    ap.add_argument("--timeout", type=float, default=600.0)
    ap.add_argument("--keep", action="store_true", help="keep the bench's schema")
    ap.add_argument("--profile", action="store_true", help="(b): statements per game, per kind")
    # (worker processes)
    ap.add_argument("--schema", default="")
    ap.add_argument("--dsn", default=DSN)
    ap.add_argument("--log", default="")
    ap.add_argument("--fake", default="")
    ap.add_argument("--token", default="")
    args = ap.parse_args()
    if args.what == "worker":
        asyncio.run(run_worker(args))
        return 0
    if args.what in ("tables", "all"):
        tables(args)
    if args.what in ("spread", "all"):
        asyncio.run(spread(args))
    if args.what in ("kill", "all"):
        asyncio.run(kill(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
