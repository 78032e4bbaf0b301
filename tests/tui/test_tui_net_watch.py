"""``bela join --watch`` in the app (issue #23): the table as the public sees it.

The watcher's app draws the bids, the trick and the score, no hand and no "you";
none of the player's keys is offered or does anything; when a seated player
lets the watcher see their hand (``w``), the watcher's app shows that hand.
"""

from __future__ import annotations

import asyncio

from net_pilot import host, net_screen, until

from bela.cli.net import JoinOptions
from bela.cli.options import parse
from bela.net.client import Client
from bela.net.protocol import State
from bela.tui import BelaApp
from bela.tui.remote import RemoteSession
from bela.tui.widgets import Hand, SeatBadge
from bela.tui.widgets.table_talk import TableTalk


def test_join_watch_parses() -> None:
    options = parse(["join", "127.0.0.1:4711", "ABCD-EFGH-JK", "--watch"])
    assert isinstance(options, JoinOptions) and options.watch


async def test_a_watcher_sees_no_hand_until_a_player_shows_theirs() -> None:
    server, port = await host(wait=5)
    table = server.new_table()
    ana = await Client.connect("127.0.0.1", port, table.code, "Ana", lead=table.leader_key)
    session = RemoteSession("127.0.0.1", port, table.code, "Mara", watch=True, keep=False)
    app = BelaApp(remote=session, reduced_motion=True)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: net_screen(app).lobby is not None)
            screen = net_screen(app)
            assert "You are watching" in str(screen.query_one("#message").render())
            await ana.send({"type": "start"})
            await until(pilot, lambda: screen.state is not None)
            state = screen.state
            assert state is not None and state.view.hand == ()
            assert screen.query_one("#hand", Hand).model.cards == ()
            keys = {str(a.binding.description) for a in app.screen.active_bindings.values()}
            assert not keys & {"Start", "Play", "Talk", "Hint", "Još jednu", "Show a watcher"}
            assert not screen.my_turn()
            badges = [str(b.render()) for b in screen.query(SeatBadge)]
            assert not any("(you)" in b for b in badges)
            log = screen.query_one("#log", TableTalk)
            assert any("Watching the table" in e.plain for e in log.entries)
            assert table.seats[1].name is None  # no seat taken
            await ana.send({"type": "show", "on": True, "watcher": "Mara"})

            async def ana_hand() -> tuple[str, ...]:
                while True:
                    message = await ana.receive()
                    if isinstance(message, State):
                        return message.view.hand

            hand = await asyncio.wait_for(ana_hand(), 5)
            await until(pilot, lambda: screen.query_one("#hand", Hand).model.cards != ())
            shown = {str(c) for c in screen.query_one("#hand", Hand).model.cards}
            assert shown == set(hand)
            # seen from Ana's seat, her turn is hers, not the watcher's (tried in tmux)
            await until(pilot, lambda: screen.state is not None and screen.state.view.to_act == 0)
            status = str(screen.query_one("#status").render())
            assert "your turn" not in status and "Ana's turn" in status
    finally:
        await ana.close()
        await server.close()


async def test_w_lets_the_player_choose_the_watcher_by_name() -> None:
    """Issue #33: ``w`` showed the hand to "the newest watcher", and an opponent who opened a
    watcher last (named as a friend would be) got it. Now ``w`` lists who watches; the
    player picks one; the one who came last sees nothing unless picked."""
    from bela.tui.screens.watcher_choice import WatcherChoiceScreen

    server, port = await host(wait=5)
    table = server.new_table()
    session = RemoteSession("127.0.0.1", port, table.code, "Ana", lead=table.leader_key, keep=False)
    app = BelaApp(remote=session, reduced_motion=True)
    mara = await Client.connect("127.0.0.1", port, table.code, "Mara", watch=True)
    try:
        async with app.run_test(size=(100, 32)) as pilot:
            await until(pilot, lambda: net_screen(app).lobby is not None)
            screen = net_screen(app)
            snoop = await Client.connect("127.0.0.1", port, table.code, "Mara 2", watch=True)
            await until(pilot, lambda: screen._watchers == ("Mara", "Mara 2"))
            await pilot.press("g")
            await until(pilot, lambda: screen.state is not None)
            await pilot.press("w")
            await until(pilot, lambda: isinstance(app.screen, WatcherChoiceScreen))
            assert isinstance(app.screen, WatcherChoiceScreen)
            assert app.screen.names == ("Mara", "Mara 2")
            await pilot.press("enter")  # the first listed: Mara, not the newest
            await until(pilot, lambda: any(w.seat is not None for w in table.watchers.all))
            assert [w.name for w in table.watchers.all if w.seat is not None] == ["Mara"]
            await until(pilot, lambda: screen._showing)
            await pilot.press("w")  # w again hides it
            await until(pilot, lambda: all(w.seat is None for w in table.watchers.all))
            await snoop.close()
    finally:
        await mara.close()
        await server.close()


async def test_a_watcher_is_never_addressed_as_a_seated_player() -> None:
    """Issue #33: a watcher read "you called ♥", "we write 96" and "we win", was offered
    još jednu, and its round pop-ups piled up. A watcher reads the teams by their players'
    names, gets no pop-ups, and the end says who won."""
    from bela.tui.screens.summary import RoundSummaryScreen

    server, port = await host(target=163, wait=0.1)
    table = server.new_table()
    ana = await Client.connect("127.0.0.1", port, table.code, "Ana", lead=table.leader_key)
    session = RemoteSession("127.0.0.1", port, table.code, "Mara", watch=True, keep=False)
    app = BelaApp(remote=session, reduced_motion=True)
    screens: set[str] = set()
    try:
        async with app.run_test(size=(100, 32)) as pilot:
            await until(pilot, lambda: net_screen(app).lobby is not None)
            screen = net_screen(app)
            await ana.send({"type": "start"})
            await ana.send({"type": "leave"})  # a bot plays Ana's seat: four bots play it out

            def over() -> bool:
                screens.add(type(app.screen).__name__)
                return screen.over is not None

            await until(pilot, over, tries=6000)
            talk = [e.plain for e in screen.query_one("#log", TableTalk).entries]
            assert any(" and bot 3 write " in line for line in talk), "\n".join(talk)
            said = " ".join(talk)
            for addressed in ("we write", "You take", "You call", "we win", "they win"):
                assert addressed not in said
            assert any("The match is over:" in line and " win, " in line for line in talk)
            assert RoundSummaryScreen.__name__ not in screens
            message = str(screen.query_one("#message").render())
            assert "još jednu" not in message
    finally:
        await ana.close()
        await server.close()
