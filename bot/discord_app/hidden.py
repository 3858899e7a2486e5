"""Stab! results on Discord (issue 14; seeds/stab-hidden-movement-variant.txt): the table and
spectator channels get the public report and the public map; each player, by DM, the public
report, their private report (rule 5) and a map of what they may see; the GM, by DM,
everything. The service chooses what each one sees (`hidden_view`, by who asks); every
message goes through the notifier's recorded deliveries (posted once)."""

from __future__ import annotations

import asyncio
from functools import partial

from bot.discord_app.embed_posts import results_post
from bot.discord_app.format import results_lines
from bot.discord_app.pacing import RESULTS
from bot.discord_app.posting import Poster, public_channels
from bot.service import Event, GameStatus

NOBODY = ""  # asks as no player and not the GM: the public view


async def deliver_hidden(notifier: Poster, event: Event, game: GameStatus) -> None:
    svc = notifier.bot.service
    phase_id = int(event.payload["stab"]["phase_id"])
    # The frame of the results message (head, skipped phases, centre totals, the next phase):
    # the payload carries nothing of the board.
    frame = results_lines(game, event.phase, {**event.payload, "lines": []}, game.lang)

    def framed(lines: list[str]) -> list[str]:
        return [frame[0], *lines, *frame[1:]]

    public = await svc.hidden_view(game.id, NOBODY, phase_id)
    # The table and spectators: embeds of the public report alone (issue 31).
    lines, msgs = results_post(game, event, framed(public.lines), public=public.lines)
    await notifier.each_channel(
        [
            partial(notifier.post, c, lines, event.key, png=event.png, event=event, embeds=msgs)
            for c in public_channels(game)
        ],
        first=RESULTS,
    )
    users = dict.fromkeys([game.gm, *(u for _, u in sorted(game.players.items()))])
    views = [await svc.hidden_view(game.id, user, phase_id) for user in users]
    sent = await asyncio.gather(
        *(
            notifier.dm(user, "\n".join(framed(view.lines)), event.key, event=event, png=view.png)
            for user, view in zip(users, views, strict=True)
        )
    )
    for user, ok in zip(users, sent, strict=True):
        if not ok and user != game.gm:
            await notifier.tell_dm_closed(game, user, event)
