"""Message text: splitting to Discord's limit, result lines, timestamps, nonces."""

from __future__ import annotations

from bot.core.model import Power
from bot.discord_app.format import (
    MESSAGE_LIMIT,
    chunks,
    phase_name,
    result_line,
    settings_lines,
    stamp,
    window_name,
)
from bot.discord_app.notifier import nonce
from bot.service.games.settings import GameSettings


def test_chunks_fit_the_limit_and_keep_every_line_in_order() -> None:
    lines = [f"line {i:03d} " + "x" * 50 for i in range(100)]
    parts = chunks(lines)
    assert len(parts) > 1
    assert all(len(p) <= MESSAGE_LIMIT for p in parts)
    assert "\n".join(parts).splitlines() == lines


def test_a_line_longer_than_a_message_is_cut() -> None:
    [part] = chunks(["y" * (MESSAGE_LIMIT + 10)])
    assert len(part) == MESSAGE_LIMIT
    assert part.endswith("…")


def test_result_lines_show_verdict_reason_and_detail() -> None:
    ok = {"order": "A PAR - BUR", "succeeded": True, "reason": "", "detail": "", "implied": False}
    assert result_line(ok, "en") == "✅ A PAR - BUR"
    bounced = dict(ok, succeeded=False, reason="bounced")
    assert result_line(bounced, "en") == "❌ A PAR - BUR (bounced)"
    assert result_line(bounced, "fr") == "❌ A PAR - BUR (rebond)"
    void = dict(
        ok, order="A MAR S A GAS - BUR", succeeded=False, reason="void", detail="no such move"
    )
    assert result_line(void, "en") == "❌ A MAR S A GAS - BUR (void; no such move)"
    held = dict(ok, order="A VEN H", implied=True)
    assert result_line(held, "en") == "✅ A VEN H (by default)"


def test_deadlines_are_discord_timestamps() -> None:
    assert stamp(1700000540.7) == "<t:1700000540:R> (<t:1700000540:T>)"
    assert stamp(None) == "—"
    assert phase_name("F1901R", "fr").startswith("Automne 1901")


def test_nonces_are_short_and_stable() -> None:
    assert nonce("3:12:results", 99, 0) == nonce("3:12:results", 99, 0)
    assert nonce("3:12:results", 99, 0) != nonce("3:12:results", 99, 1)
    assert len(nonce("x" * 500)) <= 25


def test_unknown_windows_and_reasons_are_shown_as_they_are() -> None:
    # A press unlock at the end of a game names the window "over": no catalogue entry.
    assert window_name("over", "fr") == "over"
    assert window_name("reading", "fr") == "lecture des résultats"
    line = {"order": "A PAR H", "succeeded": False, "reason": "novel", "detail": ""}
    assert result_line(line, "en") == "❌ A PAR H (novel)"


def test_results_follow_the_stabbeurfou_notation_when_the_outcome_is_known() -> None:
    from bot.core.map import load_map  # noqa: PLC0415
    from bot.discord_app.format import results_lines  # noqa: PLC0415
    from bot.service import GameStatus  # noqa: PLC0415
    from tests.standard import adjudicate, parse_orders  # noqa: PLC0415

    start = load_map("standard").start
    orders = [
        *parse_orders("A PAR - BUR\nA MAR S A PAR - BUR", lang="en", power=Power.FRANCE).orders,
        *parse_orders("A MUN - BUR", lang="en", power=Power.GERMANY).orders,
    ]
    outcome = adjudicate(start, orders)
    game = GameStatus(
        *(1, "Vienna", "gm", "standard", "datc", "edc2023", "fr", "active"),
        *("F1901M", 2, "pending", "reading", None, None, None, True),
        *({}, [], [], [], {}, {}, False, None, {}),
    )
    lines = results_lines(game, "S1901M", {"next_phase": "F1901M"}, "fr", outcome)
    assert lines[0].startswith("**Résultats de Printemps 1901")
    assert "France :" in lines
    assert "A PAR - BOU" in lines  # succeeded: upper case, no note (stabbeurfou 4)
    assert "A MUN - BOU; (échec)" in lines


def _settings(*, combined: bool) -> GameSettings:
    return GameSettings(
        "t",
        "standard",
        "edc2023",
        "edc2023",
        480,
        60,
        240,
        60,
        60,
        7,
        "edc2023",
        "en",
        False,
        winter_combined=combined,
    )


def test_the_summary_says_when_retreats_and_adjustments_share_a_window() -> None:
    # edc-2023 B: "Winter (retirement & adjustments): writing 1'": one window, said so.
    joined = "\n".join(settings_lines(_settings(combined=True), 1))
    assert "retreats and the Winter's builds and removals are written together" in joined
    assert "1m window" in joined
    apart = "\n".join(settings_lines(_settings(combined=False), 1))
    assert "written together" not in apart
