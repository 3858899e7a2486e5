"""Every service write that changes a game names who asks, and the service checks it (not
only the cog): seats after the start, the game's free data (set_meta), and an audit of every
public method of TableService."""

from __future__ import annotations

import inspect

import pytest

from bot.core.model import Power
from bot.service import InvalidStateError, PermissionDeniedError, TableService
from bot.service.games.access import BOT
from tests.bot.service.conftest import SEVEN, seven_player_game

# Writes to a game, with arguments after (game_id, caller); a stranger is refused each one.
WRITES = [
    ("assign", ("stranger", Power.FRANCE)),
    ("leave", ()),
    ("start_game", ()),
    ("submit", ("A PAR H",)),
    ("submit_for", (Power.FRANCE, "A PAR H")),
    ("clear_orders", ()),
    ("set_ready", ()),
    ("propose_vote", ("draw",)),
    ("cast_ballot", (1, "yes")),
    ("refuse_vote", (1, "no")),
    ("pause", ()),
    ("resume", ()),
    ("extend", (60,)),
    ("adjudicate_now", ()),
    ("rollback", ()),
    ("set_deadline", (2e9,)),
    ("declare_draw", ()),
    ("edit_board", ("remove A PAR",)),
    ("set_abbreviations", (Power.FRANCE, "wmed = WES")),
    ("replace_player", (Power.FRANCE, "stranger")),
    ("end_game", ()),
]
# Anyone may create a game (they are its GM); seats are checked by state (test below).
OPEN_WRITES = {"create_game", "join"}
# No caller: the clock and the delivery of events, the life cycle.
SYSTEM = {"open", "start", "close", "run_due", "deliver", "next_due"}
# No caller check: marks a set as being read (bot.service.clock.lateness), changes nothing.
SYSTEM |= {"receiving"}
# No caller: the bot's catch-up with its gateway (bot.service.clock.lateness), the life cycle.
SYSTEM |= {"follow_gateway"}
# A user's own settings, and a server's: no game's; the adapter checks Manage Server for a
# server's (a Discord permission the service does not know; tests/cogs/test_settings.py).
SETTINGS = {"user_palette", "set_user_palette", "server_palette", "set_server_palette"}
READS = {
    "status",
    "list_games",
    "games_of",
    "my_orders",
    "orders_map",
    "phase_orders",
    "history",
    "results",
    "hidden_view",
    "hidden_replay",
    "seats",  # a user's own running games (a DM's game)
    "seat",  # a game's name and language
    "power_of",
    "phases",
    "position",
    "audit_log",
    "missed_orders",
    "game_settings",
    "votes",
}


def test_every_public_method_is_classified():
    # A new public method must be added here, saying whether (and how) it checks its caller.
    public = {n for n, _ in inspect.getmembers(TableService, callable) if not n.startswith("_")}
    known = {op for op, _ in WRITES} | {"set_meta"} | OPEN_WRITES | SYSTEM | READS | SETTINGS
    assert public == known


@pytest.mark.parametrize(("op", "args"), WRITES, ids=[op for op, _ in WRITES])
async def test_a_stranger_changes_nothing(opener, op, args):
    svc = await opener()
    gid = await seven_player_game(svc)
    with pytest.raises(PermissionDeniedError):
        await getattr(svc, op)(gid, "stranger", *args)
    actions = [a.action for a in await svc.audit_log(gid, "gm")]
    assert actions == ["create", *["join"] * 7, "start"]


# --- seats -----------------------------------------------------------------------------


async def test_nobody_joins_a_started_game(opener):
    svc = await opener()
    gid = await seven_player_game(svc)
    with pytest.raises(InvalidStateError, match="only its GM can give you a power"):
        await svc.join(gid, "stranger")
    # Not the power a player left either: only the GM reseats it.
    assert await svc.leave(gid, SEVEN[0]) is Power.AUSTRIA
    with pytest.raises(InvalidStateError, match="already started"):
        await svc.join(gid, "stranger", Power.AUSTRIA)
    with pytest.raises(InvalidStateError):
        await svc.join(gid, SEVEN[0], Power.AUSTRIA)  # nor the one who left
    await svc.pause(gid, "gm")
    with pytest.raises(InvalidStateError):
        await svc.join(gid, "stranger", "random")
    assert Power.AUSTRIA not in (await svc.status(gid)).players
    await svc.replace_player(gid, "gm", Power.AUSTRIA, "stranger")
    assert (await svc.status(gid)).players[Power.AUSTRIA] == "stranger"


async def test_a_refused_join_is_in_french_in_a_french_game(opener):
    svc = await opener()
    gid = await seven_player_game(svc, lang="fr")
    with pytest.raises(InvalidStateError) as caught:
        await svc.join(gid, "stranger")
    assert caught.value.message == (
        f"la partie n°{gid} a déjà commencé : seul son MJ peut vous confier une puissance"
    )


async def test_a_player_cannot_assign_seats(opener):
    svc = await opener()
    g = await svc.create_game("gm")
    await svc.join(g.id, "a", Power.FRANCE)
    with pytest.raises(PermissionDeniedError, match="only the GM"):
        await svc.assign(g.id, "a", "b", Power.GERMANY)
    assert (await svc.status(g.id)).players == {Power.FRANCE: "a"}


async def test_leaving_a_started_game_leaves_the_power_in_civil_disorder(opener):
    svc = await opener()
    gid = await seven_player_game(svc)
    await svc.submit(gid, "user-france", "A PAR - BUR")
    assert await svc.leave(gid, "user-france") is Power.FRANCE
    status = await svc.status(gid)
    assert Power.FRANCE not in status.players
    assert status.submitted == [Power.FRANCE]  # the orders sent before leaving stand


async def test_nobody_leaves_a_game_that_is_over(opener):
    svc = await opener()
    gid = await seven_player_game(svc)
    await svc.end_game(gid, "gm")
    with pytest.raises(InvalidStateError, match="is over"):
        await svc.leave(gid, "user-france")
    assert (await svc.status(gid)).players[Power.FRANCE] == "user-france"


# --- set_meta ----------------------------------------------------------------------------


async def test_set_meta_checks_who_asks(opener):
    svc = await opener()
    gid = await seven_player_game(svc)
    with pytest.raises(PermissionDeniedError, match="only the GM"):
        await svc.set_meta(gid, "channel", 666, by="user-france")
    with pytest.raises(PermissionDeniedError, match="only the GM and the players"):
        await svc.set_meta(gid, "spectators", [666], by="stranger")
    with pytest.raises(PermissionDeniedError, match="only the GM"):
        await svc.set_meta(gid, "spectators", [666], by=BOT)  # the bot does not pick spectators
    with pytest.raises(PermissionDeniedError, match="only the GM"):
        await svc.set_meta(gid, "channel", 666, by=BOT)
    assert (await svc.status(gid)).meta == {}

    await svc.set_meta(gid, "spectators", [1], by="user-france")
    await svc.set_meta(gid, "channel", 2, by="gm")
    await svc.set_meta(gid, "press_lock", {"users": []}, by=BOT)  # the bot's own bookkeeping
    assert (await svc.status(gid)).meta == {
        "spectators": [1],
        "channel": 2,
        "press_lock": {"users": []},
    }
    audited = [(a.actor, a.detail) for a in await svc.audit_log(gid, "gm") if a.action == "meta"]
    assert audited == [("user-france", {"key": "spectators"}), ("gm", {"key": "channel"})]


async def test_set_meta_refusal_in_french(opener):
    svc = await opener()
    gid = await seven_player_game(svc, lang="fr")
    with pytest.raises(PermissionDeniedError) as caught:
        await svc.set_meta(gid, "spectators", [1], by="stranger")
    assert caught.value.message == (
        f"seuls le MJ et les joueurs de la partie n°{gid} peuvent faire cela"
    )
