"""docs/hosting.md: its `parley` commands exist as written (every one parsed by the real
parser, the backup and restore run for real), and every metric it names is served."""

from __future__ import annotations

import asyncio
import re
import shlex
import shutil
from pathlib import Path

import pytest

from bot.cli import build_parser, main
from bot.hosting.metrics import NAMES
from bot.service import FakeClock, TableService

ROOT = Path(__file__).resolve().parents[3]
GUIDE = (ROOT / "docs" / "hosting.md").read_text(encoding="utf-8")
VENV = "/srv/parley/.venv/bin/"


def commands() -> list[list[str]]:
    """Every `parley ...` of the guide's sh blocks and systemd units, as argv."""
    out = []
    for lang, block in re.findall(r"```(sh|ini)\n(.*?)```", GUIDE, re.DOTALL):
        for line in block.splitlines():
            if lang == "ini" and not line.startswith("ExecStart="):
                continue
            text = line.removeprefix("ExecStart=")
            words = shlex.split(text.replace("%i", "0-3").replace("${METRICS_PORT}", "9108"))
            if words[:2] == ["sudo", "-u"]:
                words = words[3:]
            if words and words[0].removeprefix(VENV) == "parley":
                out.append(words[1:])
    return out


def test_every_command_parses() -> None:
    found = commands()
    assert len(found) >= 7
    assert {w[0] for w in found} == {"doctor", "run", "db"}
    for argv in found:
        build_parser().parse_args(argv)  # (SystemExit on an unknown option or sub-command)


def test_the_backup_and_restore_run_as_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    srv = tmp_path / "srv" / "parley"
    (srv / "backups").mkdir(parents=True)

    async def make() -> None:
        svc = await TableService.open(srv / "parley.db", clock=FakeClock(), run=False)
        await svc.create_game("gm", name="league")
        await svc.close()

    asyncio.run(make())
    monkeypatch.delenv("PARLEY_DB", raising=False)
    ran = set()
    for argv in commands():
        if argv[:2] not in (["db", "backup"], ["db", "restore"]) or "--every" in argv:
            continue
        here = [w.replace("/srv/parley", str(srv)) for w in argv]
        if here[1] == "restore":  # (the guide restores the 04:00 backup)
            shutil.copy(srv / "backups" / "parley.db", here[2])
        assert main(here) == 0, here
        ran.add(here[1])
    assert ran == {"backup", "restore"}
    assert (srv / "parley.db.before-restore").exists()


def test_every_metric_named_is_served() -> None:
    named = set(re.findall(r"\bparley_[a-z_]+", GUIDE))
    bases = {re.sub(r"_(bucket|count|sum)$", "", n) for n in named}
    assert bases <= set(NAMES), sorted(bases - set(NAMES))
    assert set(NAMES) <= named  # (each one explained)
