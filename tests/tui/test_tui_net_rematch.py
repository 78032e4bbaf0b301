"""Još jednu from the app (issue #23): at the end, r asks for another match; alone with
bots it starts at once, the moments of the new match come up again, and the score
sheet shows the evening's matches won."""

from __future__ import annotations

import pytest
from net_pilot import net_screen, until

from bela.net.saves import TableSaver
from bela.net.server import Server, ServerOptions
from bela.tui import BelaApp
from bela.tui.remote import RemoteSession
from bela.tui.screens.net_table import NetTableScreen
from bela.tui.widgets.score_sheet import ScoreSheet
from bela.tui.widgets.table_talk import TableTalk


async def _play_to_the_end(pilot: object, app: BelaApp, screen: NetTableScreen) -> None:
    for _ in range(4000):
        if screen.over is not None and app.screen is screen:
            return
        if screen.my_turn() or app.screen is not screen:  # a moment: Enter carries on
            await pilot.press("enter")  # type: ignore[attr-defined]
        await pilot.pause(0.01)  # type: ignore[attr-defined]
    raise AssertionError("the match never ended")


def _keys(app: BelaApp) -> set[str]:
    return {str(active.binding.description) for active in app.screen.active_bindings.values()}


@pytest.mark.slow
async def test_r_at_the_end_starts_another_match_and_the_sheet_counts_matches() -> None:
    server = Server(
        ServerOptions(difficulty="random", target=163, bot_delay=0.0, wait=5), TableSaver()
    )
    _, port = await server.listen("127.0.0.1", 0)
    table = server.new_table()
    session = RemoteSession("127.0.0.1", port, table.code, "Ana", lead=table.leader_key)
    app = BelaApp(remote=session, reduced_motion=True)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: net_screen(app).lobby is not None)
            screen = net_screen(app)
            await pilot.press("g")
            await until(pilot, lambda: screen.state is not None)
            assert "Još jednu" not in _keys(app)  # only once the match is over
            await _play_to_the_end(pilot, app, screen)
            over = screen.over
            assert over is not None and over.series is not None
            ours = over.series[0]  # Ana sits at seat 0
            sheet = screen.query_one("#sheet", ScoreSheet)  # counted at once, not next match
            assert sheet.border_subtitle == f"matches {ours} : {1 - ours}"
            assert "Još jednu" in _keys(app)
            assert "r: još jednu" in str(screen.query_one("#message").render())
            first_seed = over.record["seed"]
            # the line drops between matches: the app sits down again, for još jednu
            assert session.client is not None
            before = table.seats[0].link
            session.client.writer.transport.abort()
            await until(pilot, lambda: table.seats[0].link not in (None, before), tries=1500)
            await pilot.pause(0.2)
            log = screen.query_one("#log", TableTalk)
            ended = [e.plain for e in log.entries if e.plain.startswith("The match is over")]
            assert len(ended) == 1  # the Over sent again is not told twice
            await pilot.press("r")
            await until(pilot, lambda: screen.over is None and screen.state is not None)
            state = screen.state
            assert state is not None and state.round == 0 and state.winner is None
            assert table.match is not None and table.match.seed != first_seed
            assert sheet.border_subtitle == f"matches {ours} : {1 - ours}"
            assert any("Još jednu: a new match" in e.plain for e in log.entries)
            # and the new match is played from the app as the first was (its end and the
            # series of two: tests/net/test_net_rematch.py)
            await until(pilot, lambda: screen.my_turn() or app.screen is not screen)
    finally:
        await server.close()


async def test_the_end_of_a_brza_163_names_the_last_deal_and_the_key_of_the_language() -> None:
    """Found trying it in tmux in Croatian: at the end the status said "Dijeljenje 4: još
    jedno, zbroj je bio jednak" (deal 4 of a tie) for a match won 520 : 136, and the prompt
    said "r: još jednu" where r talks and j asks for another match."""
    from bela.i18n import _
    from bela.tui.standing import deal_heading

    server = Server(
        ServerOptions(difficulty="random", target=163, bot_delay=0.0, wait=5), TableSaver()
    )
    _bound, port = await server.listen("127.0.0.1", 0)
    table = server.new_table()
    session = RemoteSession("127.0.0.1", port, table.code, "Ana", lead=table.leader_key)
    app = BelaApp(remote=session, reduced_motion=True, language="hr")
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: net_screen(app).lobby is not None)
            screen = net_screen(app)
            await pilot.press("g")
            await until(pilot, lambda: screen.state is not None)
            await _play_to_the_end(pilot, app, screen)
            state = screen.state
            assert state is not None and state.winner is not None
            written = sum(1 for r in state.sheet if "redeal" not in r.marks)
            status = str(screen.query_one("#status").render())
            assert status.startswith(deal_heading(written) + " · "), status
            sheet = str(screen.query_one("#sheet", ScoreSheet).render())
            assert _("  deal {n} of {total}").format(n=written, total=3).strip() in sheet or (
                written > 3
            )
            message = str(screen.query_one("#message").render())
            assert "j: još jednu" in message and "r: još jednu" not in message
    finally:
        await server.close()


async def test_after_još_jednu_one_w_lets_the_watcher_see_the_hand_again() -> None:
    """The host ends a watcher's sight of a hand with the match; the app knows it, so the
    player's next w shows the hand again (not a w that takes back what is no longer
    shown, and a second w to show it)."""
    import asyncio

    from bela.net.client import Client
    from bela.net.protocol import State
    from bela.tui.screens.watcher_choice import WatcherChoiceScreen

    server = Server(
        ServerOptions(difficulty="random", target=163, bot_delay=0.0, wait=5), TableSaver()
    )
    _bound, port = await server.listen("127.0.0.1", 0)
    table = server.new_table()
    session = RemoteSession("127.0.0.1", port, table.code, "Ana", lead=table.leader_key)
    app = BelaApp(remote=session, reduced_motion=True)
    mara = await Client.connect("127.0.0.1", port, table.code, "Mara", watch=True)
    seen: list[State] = []

    async def watch() -> None:
        while True:
            message = await mara.receive()
            if isinstance(message, State):
                seen.append(message)

    watching = asyncio.create_task(watch())
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: net_screen(app).lobby is not None)
            screen = net_screen(app)
            await pilot.press("g")
            await until(pilot, lambda: screen.state is not None)
            await pilot.press("w")  # the watcher is chosen by name (issue #33): Mara
            await until(pilot, lambda: isinstance(app.screen, WatcherChoiceScreen))
            await pilot.press("enter")
            await until(pilot, lambda: any(s.view.hand for s in seen))
            await _play_to_the_end(pilot, app, screen)
            await pilot.press("r")
            await until(pilot, lambda: screen.over is None and screen.state is not None)
            await pilot.pause(0.3)
            seen.clear()
            # w's action itself: a moment of the new match (the bots play at once) may be
            # over the table and would take the key
            screen.action_show_hand()
            await until(pilot, lambda: isinstance(app.screen, WatcherChoiceScreen))
            app.screen.dismiss("Mara")
            await until(pilot, lambda: any(s.view.hand and s.winner is None for s in seen))
    finally:
        watching.cancel()
        await mara.close()
        await server.close()
