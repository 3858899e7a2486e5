"""Crashes, restarts and uncertain posts on one machine (issue 36), measured.

    python3 bench/recovery.py                    # with and without Discord's nonce memory
    python3 bench/recovery.py --nonce-memory off

A host's set-up: one `parley run` (the real command, its worker pool included) on a SQLite
file, against the project's fake Discord (gateway and REST, Discord's rate limits on), under
a supervisor that restarts it 0.1 s after it dies. One game per kill point, each with its own
table and spectator channel and seven players, its first deadline its own (16 s apart); three
players send their orders by DM early. Kill points (SIGKILL of `parley run`):

  ack        right after an order's acknowledgement (an order sent late for it)
  before     0.3 s before the deadline
  after      0.3 s after the deadline (inside the 1 s grace, before the results)
  twice      0.3 s before the deadline, then again as soon as the restarted bot is connected
  lost-table the results post created in the table channel, its reply never sent
  lost-spect the same in the spectator channel
  502-table  no kill: the results post created, answered 502 (an uncertain send)
  502-spect  the same in the spectator channel
  503-spect  no kill: the spectator channel's results post refused once (503, nothing created)

Per kill point: deadline -> results in the table channel (and since the bot was last back),
the spectator channel's lag behind the table, orders acknowledged but missing from the
results, repeats (two messages with one nonce in one channel, deleted ones counted) and the
processes of the killed bot (its fork server, resource tracker, workers) alive 5 s after
each kill. Goals: results within 2 s of the bot being back (or of the deadline + grace), no
order lost, no repeat, no process left, spectator retry under 3 s.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # for tests.fake_discord

POINTS = (
    "ack",
    "before",
    "after",
    "twice",
    "lost-table",
    "lost-spect",
    "502-table",
    "502-spect",
    "503-spect",
)
FIRST = 22.0  # seconds from seeding to the first game's deadline (the bot starts meanwhile)
APART = 16.0  # seconds between two games' deadlines
ORDERS = {"FRANCE": "A PAR - BUR", "GERMANY": "A MUN - RUH", "TURKEY": "A CON - BUL"}
LATE = ("ITALY", "A VEN - PIE")  # the order whose acknowledgement is a kill point
RESTART = 0.1  # seconds the supervisor waits before starting the bot again (systemd: 100 ms)


# --- the bot process ---------------------------------------------------------------------


def run_bot(fake: str, db: str) -> int:
    """`parley run` as a host starts it, its Discord being the fake at `fake`."""
    import discord.gateway  # noqa: PLC0415
    import discord.http  # noqa: PLC0415
    import yarl  # noqa: PLC0415

    discord.http.Route.BASE = f"{fake}/api/v10"
    gateway = yarl.URL(fake.replace("http", "ws", 1) + "/gateway")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = gateway
    from bot.cli import main  # noqa: PLC0415

    return main(["run", "--db", db])


# --- processes -------------------------------------------------------------------------------


def children() -> dict[int, list[int]]:
    """Parent pid -> its children's pids, from /proc (Linux)."""
    found: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError):
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
                found.setdefault(ppid, []).append(int(entry.name))
    return found


def descendants(pid: int) -> list[int]:
    tree, out, todo = children(), [], [pid]
    while todo:
        for child in tree.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


class Supervisor:
    """Starts the bot, kills it (SIGKILL), starts it again; counts what each kill left."""

    def __init__(self, fake: str, db: str, log: Path) -> None:
        self.fake, self.db, self.log = fake, db, log
        self.proc: subprocess.Popen[bytes] | None = None
        self.started = 0.0  # wall time of the last start
        self.left: dict[float, tuple[int, int]] = {}  # kill time -> (helpers, alive 5 s on)
        self._checks: list[asyncio.Task[None]] = []
        self.orphans: set[int] = set()

    def start(self) -> None:
        env = {**os.environ, "DISCORD_TOKEN": "fake-token", "PYTHONPATH": str(ROOT)}
        with self.log.open("ab") as out:
            cmd = [sys.executable, __file__, "bot", "--fake", self.fake, "--db", self.db]
            self.proc = subprocess.Popen(cmd, stdout=out, stderr=out, env=env, cwd=ROOT)
        self.started = time.time()

    async def kill_and_restart(self) -> float:
        assert self.proc is not None
        helpers = descendants(self.proc.pid)
        self.proc.send_signal(signal.SIGKILL)
        killed = time.time()
        await asyncio.to_thread(self.proc.wait)
        self._checks.append(asyncio.create_task(self._count_left(killed, helpers)))
        await asyncio.sleep(RESTART)
        self.start()
        return killed

    async def _count_left(self, killed: float, helpers: list[int]) -> None:
        await asyncio.sleep(max(0.0, killed + 5.0 - time.time()))
        still = [p for p in helpers if alive(p)]
        self.orphans.update(still)
        self.left[killed] = (len(helpers), len(still))

    async def stop(self) -> None:
        await asyncio.gather(*self._checks)
        if self.proc is not None and self.proc.poll() is None:
            helpers = descendants(self.proc.pid)
            self.proc.terminate()
            try:
                await asyncio.wait_for(asyncio.to_thread(self.proc.wait), 15)
            except TimeoutError:
                self.proc.kill()
            self.orphans.update(helpers)
        for pid in self.orphans:  # (what the bench started, left by a bot under test)
            if alive(pid):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)


# --- one run -----------------------------------------------------------------------------------


@dataclass
class Game:
    point: str
    id: int = 0
    table: int = 0
    spectators: int = 0
    deadline: float = 0.0
    users: dict[str, Any] = field(default_factory=dict)  # power -> FakeUser
    acked: list[str] = field(default_factory=list)  # orders acknowledged
    results: dict[int, float] = field(default_factory=dict)  # channel -> first results post
    text: str = ""  # the table's results post
    kills: list[float] = field(default_factory=list)
    back: float = 0.0  # when the bot was last started before the results
    login: float = 0.0  # when it logged in then


async def seed(db: Path, fake: Any, games: list[Game]) -> None:
    from bot.service import TableService  # noqa: PLC0415

    svc = await TableService.open(db, run=False, init_db=True)
    try:
        guild = fake.add_guild("Recovery", ["lobby"])
        owner = str(fake.state.owner.id)
        for k, game in enumerate(games):
            game.table = fake.state.add_channel(guild, f"table-{k}").id
            game.spectators = fake.state.add_channel(guild, f"spectators-{k}").id
            writing = f"{FIRST + APART * k:.0f}s"
            slots = ("spring_retreat", "fall_movement", "fall_retreat", "winter_adjustment")
            st = await svc.create_game(
                owner,
                name=f"{game.point}",
                clock="casual",
                clock_overrides={
                    "spring_movement": {"writing": writing},
                    **{s: {"writing": "1h"} for s in slots},
                    "reminders": [],
                    "early_adjudication": False,
                },
                meta={"channel": game.table, "spectators": [game.spectators]},
            )
            game.id = st.id
            for power in ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"):
                user = fake.add_user(f"{power.lower()}-{k}")
                fake.join(guild, user)
                game.users[power] = user
                await svc.join(st.id, str(user.id), power)
            await svc.start_game(st.id, owner)
        await svc.run_due()  # the first windows open (their posts wait for the bot)
        for game in games:
            deadline = (await svc.status(game.id)).deadline
            assert deadline is not None
            game.deadline = deadline
    finally:
        await svc.close()


async def play(nonce_memory: bool, workdir: Path, points: list[str]) -> list[Game]:
    from tests.fake_discord import FakeDiscord  # noqa: PLC0415

    games = [Game(p) for p in points]
    async with FakeDiscord() as fake:
        fake.state.nonce_memory = nonce_memory
        fake.rate_limits()
        db = workdir / f"parley-{'nonce' if nonce_memory else 'nononce'}.db"
        await seed(db, fake, games)
        by_channel = {g.table: g for g in games} | {g.spectators: g for g in games}
        dm_of: dict[int, tuple[Game, str]] = {}
        acks: dict[tuple[int, str], asyncio.Event] = {}

        def seen(msg: Any) -> None:
            game = by_channel.get(msg.channel_id)
            if game is not None and "Results of" in msg.content:
                game.results.setdefault(msg.channel_id, time.time())
                if msg.channel_id == game.table and not game.text:
                    game.text = msg.content
            found = dm_of.get(msg.channel_id)
            if found is not None and "Saved" in msg.content:
                game, order = found
                if order not in game.acked:
                    game.acked.append(order)
                acks.setdefault((game.id, order), asyncio.Event()).set()

        fake.state.listeners.append(seen)
        log = Path(tempfile.gettempdir()) / f"parley-recovery-{'on' if nonce_memory else 'off'}.log"
        log.unlink(missing_ok=True)
        print(f"  (the bot's log: {log})", flush=True)
        sup = Supervisor(fake.base_url, str(db), log)
        sup.start()
        try:
            await fake.wait_for(lambda: fake.gateway.identifies, within=60, what="the bot")
            for game in games:  # early orders, acknowledged before any kill
                for power, order in ORDERS.items():
                    user = game.users[power]
                    dm_of[fake.state.dm_channel(user.id).id] = (game, order)
                    await fake.send_dm(user, order)
            await fake.wait_for(
                lambda: sum(len(g.acked) for g in games) == len(games) * len(ORDERS),
                within=60,
                what="the early orders' acknowledgements",
            )
            await asyncio.gather(*(kill_point(fake, sup, g, dm_of, acks) for g in games))
        finally:
            await sup.stop()
        report(nonce_memory, games, fake, sup, closings(db))
    return games


async def kill_point(
    fake: Any,
    sup: Supervisor,
    game: Game,
    dm_of: dict[int, tuple[Game, str]],
    acks: dict[tuple[int, str], asyncio.Event],
) -> None:
    async def at(when: float) -> None:
        await asyncio.sleep(max(0.0, when - time.time()))

    point = game.point
    if point == "ack":
        await at(game.deadline - 8.0)
        power, order = LATE
        user = game.users[power]
        dm_of[fake.state.dm_channel(user.id).id] = (game, order)
        acked = acks.setdefault((game.id, order), asyncio.Event())
        await fake.send_dm(user, order)
        await asyncio.wait_for(acked.wait(), 20)
        game.kills.append(await sup.kill_and_restart())
    elif point in ("before", "twice"):
        await at(game.deadline - 0.3)
        game.kills.append(await sup.kill_and_restart())
        if point == "twice":
            connected = fake.gateway.identifies
            await fake.wait_for(lambda: fake.gateway.identifies > connected, within=30)
            game.kills.append(await sup.kill_and_restart())
    elif point == "after":
        await at(game.deadline + 0.3)
        game.kills.append(await sup.kill_and_restart())
    elif point == "503-spect":
        await at(game.deadline - 1.0)
        fake.server_errors(f"/channels/{game.spectators}/messages", count=1, status=503)
    elif point.startswith(("lost-", "502-")):
        channel = game.table if point.endswith("table") else game.spectators
        await at(game.deadline - 1.0)
        hit = fake.after_post(f"/channels/{channel}/messages", status=0 if "lost" in point else 502)
        if point.startswith("lost-"):
            await asyncio.wait_for(hit.wait(), 30)
            game.kills.append(await sup.kill_and_restart())
    game.back = sup.started
    if game.kills:  # when the restarted bot logged in (its first request to Discord)
        await fake.wait_for(lambda: logins(fake, game.back), within=30, what="login")
        game.login = logins(fake, game.back)[0]
    with contextlib.suppress(TimeoutError):
        await fake.wait_for(lambda: len(game.results) == 2, within=40, what="results")
    await asyncio.sleep(2.0)  # (a repeat would come within this)


def logins(fake: Any, since: float) -> list[float]:
    """Wall times of the bot's logins (GET /users/@me) after `since`."""
    offset = time.time() - time.monotonic()
    found = [r.at + offset for r in fake.state.requests if r.path.endswith("/users/@me")]
    return [t for t in found if t >= since]


def closings(db: Path) -> dict[int, tuple[float, float]]:
    """game -> (its first phase's close, its adjudication), as the bot recorded them."""
    import sqlite3  # noqa: PLC0415

    with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as conn:
        rows = conn.execute(
            "SELECT p.game_id, p.closed_at, r.adjudicated_at FROM phases p"
            " JOIN results r ON r.phase_id = p.id WHERE p.phase = 'S1901M'"
        ).fetchall()
    return {int(g): (float(c), float(a)) for g, c, a in rows}


def report(
    nonce_memory: bool,
    games: list[Game],
    fake: Any,
    sup: Supervisor,
    closed: dict[int, tuple[float, float]],
) -> None:
    from tests.fake_discord.state import SentMessage  # noqa: PLC0415

    print(f"nonce memory {'on' if nonce_memory else 'off'}:")
    every: list[SentMessage] = [*fake.state.messages, *fake.state.deleted]
    for game in games:
        mine = {game.table, game.spectators}
        mine |= {fake.state.dm_channel(u.id).id for u in game.users.values()}
        keys = [(m.channel_id, m.nonce) for m in every if m.nonce and m.channel_id in mine]
        repeats = len(keys) - len(set(keys))
        close, adjudicated = closed.get(game.id, (float("nan"), float("nan")))
        last_login = max([t for t in logins(fake, 0.0) if t <= close], default=float("nan"))
        table = game.results.get(game.table)
        spect = game.results.get(game.spectators)
        lost = [o for o in game.acked if o not in game.text.splitlines()]
        left = [sup.left[k][1] for k in game.kills]
        helpers = [sup.left[k][0] for k in game.kills]
        since = (
            f" ({table - game.back:.2f} s after its restart, {table - game.login:.2f} after"
            f" its login; closed {close - last_login:.2f} s after the login before it)"
            if table and game.kills and table > max(game.kills) > game.deadline - 1.0
            else ""
        )
        print(
            f"  {game.point:10s} deadline -> results "
            + (f"{table - game.deadline:5.2f} s" if table else "  none ")
            + since
            + f" (closed +{close - game.deadline:.2f} s, adjudicated +{adjudicated - close:.2f})"
            + "; spectators "
            + (f"+{spect - table:4.2f} s" if table and spect else "none")
            + f"; orders acknowledged {len(game.acked)}, lost {len(lost)}"
            + f"; repeats {repeats}"
            + (f"; processes left 5 s after each kill {left} (of {helpers})" if left else "")
        )
    print(f"  429s answered by the fake: {len(fake.rest.limits.limited)}", flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", nargs="?", default="bench", choices=["bench", "bot"])
    ap.add_argument("--nonce-memory", choices=["on", "off", "both"], default="both")
    ap.add_argument("--points", default=",".join(POINTS), help="kill points, comma-separated")
    ap.add_argument("--fake", help=argparse.SUPPRESS)
    ap.add_argument("--db", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.what == "bot":
        return run_bot(args.fake, args.db)
    from bot.cli import build_name  # noqa: PLC0415

    print(f"bench/recovery.py on {build_name()}", flush=True)
    runs = {"on": [True], "off": [False], "both": [True, False]}[args.nonce_memory]
    for memory in runs:
        with tempfile.TemporaryDirectory(prefix="parley-recovery-") as tmp:
            asyncio.run(play(memory, Path(tmp), args.points.split(",")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
