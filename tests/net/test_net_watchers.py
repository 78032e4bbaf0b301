"""Watchers (issue #23): ``Hello.watch`` follows a table as the public sees it.

Over whole matches every frame a watcher is sent is checked against the deal:
no hand, no talon, and no card that is not public at that moment (played, or in
a zvanje that has been shown). A player may let one watcher see their hand, and
take it back; a watcher cannot talk or act; a watcher who does not read is cut
off while the match plays on.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import socket

import pytest
from netplay import Player, refused, start_host, wait_for

from bela.foundation.lookalike import skeleton
from bela.net.client import Client
from bela.net.protocol import PROTOCOL_VERSION, Notice, Over, State, decode_server

_CARD = re.compile(r'"((?:7|8|9|10|J|Q|K|A)[HDSC])"')


def _public_cards(state: State) -> set[str]:
    view = state.view
    seen = {c for trick in view.tricks for c in trick.cards} | set(view.trick)
    seen |= {c for _, shown in view.shown_zvanja for z in shown for c in z.cards}
    return seen


async def _watch_whole_match(seed: int) -> tuple[list[bytes], Player]:
    host = await start_host(target=163)
    table = host.server.new_table()
    ana = Player(await host.join(table.code, "Ana"), seed=seed)
    frames: list[bytes] = []
    watcher = await Client.connect(host.host, host.port, table.code, "Mara", watch=True, log=frames)
    assert watcher.watching is not None and watcher.welcome is None
    try:
        await ana.client.send({"type": "start"})
        await asyncio.wait_for(ana.play(), 60)

        async def read_to_over() -> None:
            while not isinstance(await watcher.receive(), Over):
                pass

        await asyncio.wait_for(read_to_over(), 20)
    finally:
        await watcher.close()
        await ana.client.close()
        await host.server.close()
    return frames, ana


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_a_watcher_never_sees_a_card_that_is_not_public(seed: int) -> None:
    frames, ana = await _watch_whole_match(seed)
    states = [m for m in map(decode_server, frames) if isinstance(m, State)]
    assert len(states) > 20  # the whole match, action by action
    for frame, state in zip(
        (f for f in frames if f.startswith(b'{"type":"state"')), states, strict=True
    ):
        assert state.view.hand == () and state.view.talon == () and state.view.own_zvanja == ()
        assert state.view.legal == () and not state.view.can_claim
        named = set(_CARD.findall(frame.decode()))
        assert named <= _public_cards(state), named - _public_cards(state)
    # the same moments, seen by the seat, had a hand: the watcher's view is not a seat's
    assert any(s.view.hand for s in ana.states)


async def test_a_player_lets_one_watcher_see_their_hand_and_takes_it_back() -> None:
    host = await start_host(target=501, wait=5)
    table = host.server.new_table()
    ana = Player(await host.join(table.code, "Ana"), seed=4)
    watcher = await Client.connect(host.host, host.port, table.code, "Mara", watch=True)
    other = await Client.connect(host.host, host.port, table.code, "Luka", watch=True)
    watcher_player = Player(watcher)
    try:
        told = await wait_for(ana, Notice)
        assert isinstance(told, Notice) and told.code == "watching"
        await ana.client.send({"type": "start"})
        await wait_for(ana, State)
        await ana.client.send({"type": "show", "on": True})  # who? never "the newest"
        assert (await refused(ana)).code == "name_the_watcher"
        await ana.client.send({"type": "show", "on": True, "watcher": "Luka"})
        await ana.client.send({"type": "show", "on": True, "watcher": "Mara"})  # one at a time
        assert (await refused(ana)).code == "one_watcher"
        luka = Player(other)

        async def a_hand(player: Player) -> State:
            while True:
                message = await player.step()
                if isinstance(message, State) and message.view.hand:
                    return message

        seen = await asyncio.wait_for(a_hand(luka), 5)
        assert seen.seat == 0 and seen.view.hand == ana.states[-1].view.hand
        await watcher.send({"type": "chat", "text": "play the ace!"})  # no kibitzing aloud
        assert (await refused(watcher_player)).code == "only_watching"
        await ana.client.send({"type": "show", "on": False})

        async def no_hand(player: Player) -> State:
            while True:
                message = await player.step()
                if isinstance(message, State) and not message.view.hand:
                    return message

        await asyncio.wait_for(no_hand(luka), 5)
        assert all(not s.view.hand for s in watcher_player.states)  # Mara never did
    finally:
        await watcher.close()
        await other.close()
        await ana.client.close()
        await host.server.close()


async def test_a_watcher_who_does_not_read_is_cut_off_and_the_match_goes_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import bela.net.server

    monkeypatch.setattr(bela.net.server, "WATCHER_BUFFER_LIMIT", 1)
    host = await start_host(target=501)
    table = host.server.new_table()
    ana = Player(await host.join(table.code, "Ana"), seed=5)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, (host.host, host.port))
    _reader, writer = await asyncio.open_connection(sock=sock)
    hello = {"type": "hello", "v": PROTOCOL_VERSION, "code": table.code, "name": "Slow"}
    hello["watch"] = True
    writer.write(json.dumps(hello).encode() + b"\n")
    await writer.drain()
    writer.transport.pause_reading()  # reads nothing from now on
    try:
        await asyncio.sleep(0.1)
        assert len(table.watchers.all) == 1
        # the host's side holds little too (no kernel buffer of megabytes to hide in)
        (conn,) = [c for c in host.server._connections if c.watcher is not None]
        conn.writer.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 1024)
        await ana.client.send({"type": "start"})
        await asyncio.wait_for(ana.play(), 60)  # the match is played out all the same
        assert isinstance(ana.over, Over)
        for _ in range(100):
            if not table.watchers.all:
                break
            await asyncio.sleep(0.01)
        assert table.watchers.all == []  # the slow watcher was let go
    finally:
        writer.close()
        await ana.client.close()
        await host.server.close()


async def test_watchers_are_counted_and_the_table_takes_so_many(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import bela.net.watchers

    monkeypatch.setattr(bela.net.watchers, "WATCHERS_PER_TABLE", 2)
    host = await start_host()
    table = host.server.new_table()
    first = await Client.connect(host.host, host.port, table.code, "A", watch=True)
    second = await Client.connect(host.host, host.port, table.code, "B", watch=True)
    try:
        with pytest.raises(ConnectionError, match="watchers"):
            await Client.connect(host.host, host.port, table.code, "C", watch=True)
        assert len(table.watchers.all) == 2
        assert all(s.name is None for s in table.seats)  # a watcher takes no seat
    finally:
        await first.close()
        await second.close()
        await host.server.close()


async def _read_all(player: Player, until: object, timeout: float = 20.0) -> None:
    """Read ``player``'s frames until ``until(message)`` holds."""

    async def loop() -> None:
        while not until(await player.step()):  # type: ignore[operator]
            pass

    await asyncio.wait_for(loop(), timeout)


async def _drain(player: Player) -> None:
    """Read what ``player`` has been sent until nothing comes for a moment."""
    with contextlib.suppress(TimeoutError):
        while True:
            await asyncio.wait_for(player.step(), 0.3)


async def test_a_hand_shown_in_one_match_is_not_shown_in_the_next() -> None:
    """Još jednu starts a new match: nobody allowed a watcher that hand yet, so the watcher
    sees the public table until its player allows it again."""
    host = await start_host(target=163)
    table = host.server.new_table()
    ana = Player(await host.join(table.code, "Ana"), seed=6)
    mara = Player(await Client.connect(host.host, host.port, table.code, "Mara", watch=True))
    try:
        await ana.client.send({"type": "start"})
        await wait_for(ana, State)
        await ana.client.send({"type": "show", "on": True, "watcher": "Mara"})
        await _read_all(mara, lambda m: isinstance(m, State) and bool(m.view.hand))
        await asyncio.wait_for(ana.play(), 60)
        await _read_all(mara, lambda m: isinstance(m, Over))
        mara.states.clear()
        await ana.client.send({"type": "again"})  # Ana alone is connected: it starts now
        told = await wait_for(mara, Notice)
        while isinstance(told, Notice) and told.code != "again_starts":
            assert told.code == "hand_hidden", told  # said before the new match starts
            told = await wait_for(mara, Notice)
        await _read_all(mara, lambda m: isinstance(m, State) and m.winner is None)
        ana.over = None
        await _read_all(ana, lambda m: isinstance(m, State) and m.winner is None)
        await asyncio.wait_for(ana.play(stop_after=3), 20)  # the new match goes on a while
        await _drain(mara)
        new_match = [s for s in mara.states if s.winner is None]
        assert len(new_match) > 3 and all(not s.view.hand for s in new_match)
        await ana.client.send({"type": "show", "on": True, "watcher": "Mara"})  # seen again
        seen = [s for s in mara.states if s.view.hand]
        await _read_all(mara, lambda m: isinstance(m, State) and bool(m.view.hand))
        assert not seen and mara.states[-1].seat == ana.seat
    finally:
        await mara.client.close()
        await ana.client.close()
        await host.server.close()


async def test_a_hand_allowed_in_the_lobby_follows_its_player_to_another_seat() -> None:
    """Ana allows Mara her hand, then moves from seat 1 to seat 3, and Ivo sits down in
    seat 1: Mara sees Ana's hand, never Ivo's."""
    host = await start_host(target=501, wait=5)
    table = host.server.new_table()
    ana = Player(await host.join(table.code, "Ana"), seed=7)
    mara = Player(await Client.connect(host.host, host.port, table.code, "Mara", watch=True))
    try:
        await ana.client.send({"type": "show", "on": True, "watcher": "Mara"})
        await ana.client.send({"type": "sit", "seat": 2})
        await asyncio.sleep(0.1)
        ivo = Player(await host.join(table.code, "Ivo"), seed=8)
        assert ivo.seat == 0 and ana.seat == 0  # Ana's welcome said seat 0; she sits at 2 now
        await ana.client.send({"type": "start"})
        await _read_all(mara, lambda m: isinstance(m, State) and bool(m.view.hand))
        assert mara.states[-1].seat == 2
        assert [s for s in mara.states if s.view.hand and s.seat != 2] == []
        await ivo.client.close()
    finally:
        await mara.client.close()
        await ana.client.close()
        await host.server.close()


async def test_a_hand_is_no_longer_shown_once_its_player_leaves() -> None:
    """A player who gives the seat up (``leave``) stops showing it: a bot's hand now."""
    host = await start_host(target=501, wait=5)
    table = host.server.new_table()
    ana = Player(await host.join(table.code, "Ana"), seed=9)
    ivo = Player(await host.join(table.code, "Ivo"), seed=10)
    mara = Player(await Client.connect(host.host, host.port, table.code, "Mara", watch=True))
    try:
        await ana.client.send({"type": "start"})
        await wait_for(ivo, State)
        await ivo.client.send({"type": "show", "on": True, "watcher": "Mara"})
        await _read_all(mara, lambda m: isinstance(m, State) and bool(m.view.hand))
        await ivo.client.send({"type": "leave"})
        await _read_all(mara, lambda m: isinstance(m, Notice) and m.code == "bot_plays_for")
        await _drain(mara)
        mara.states.clear()
        await asyncio.wait_for(ana.play(stop_after=4), 20)  # the bot plays Ivo's seat
        await _drain(mara)
        assert mara.states and all(not s.view.hand for s in mara.states)
    finally:
        await mara.client.close()
        await ivo.client.close()
        await ana.client.close()
        await host.server.close()


async def test_a_hand_is_no_longer_shown_once_its_player_drops() -> None:
    """Issue #33: a hand shown to a watcher stayed shown after its player's line dropped
    (and then while a bot played the seat)."""
    host = await start_host(target=501, wait=30)
    table = host.server.new_table()
    ana = Player(await host.join(table.code, "Ana"), seed=11)
    ivo = Player(await host.join(table.code, "Ivo"), seed=12)
    mara = Player(await Client.connect(host.host, host.port, table.code, "Mara", watch=True))
    try:
        await ana.client.send({"type": "start"})
        await wait_for(ivo, State)
        await ivo.client.send({"type": "show", "on": True, "watcher": "Mara"})
        await _read_all(mara, lambda m: isinstance(m, State) and bool(m.view.hand))
        await ivo.client.close()  # the line drops: the seat waits, the hand is not shown
        await _read_all(mara, lambda m: isinstance(m, Notice) and m.code == "hand_hidden")
        await _drain(mara)
        assert mara.states and not mara.states[-1].view.hand
        assert all(w.seat is None for w in table.watchers.all)
    finally:
        await mara.client.close()
        await ana.client.close()
        await host.server.close()


@pytest.mark.parametrize("name", ["Ana", "ana", "\u0410na", "A\u200bna", "\uff21na", "Ána"])
async def test_a_watcher_cannot_take_a_seated_players_name_or_a_look_alike(name: str) -> None:
    """Issue #33: a watcher named as a seated friend (or a Cyrillic "Аna", another case, a
    zero-width space, a full-width letter) got the friend's hand shown to it. Such a
    watcher is turned away with the reason; the seated player's list shows no such name."""
    from bela.net.client import JoinError

    host = await start_host(target=501, wait=5)
    table = host.server.new_table()
    ana = Player(await host.join(table.code, "Ana"), seed=13)
    luka = await Client.connect(host.host, host.port, table.code, "Luka", watch=True)
    try:
        with pytest.raises(JoinError) as refused_as:
            await Client.connect(host.host, host.port, table.code, name, watch=True)
        assert refused_as.value.code == "watch_name_taken"
        with pytest.raises(JoinError):  # nor a second Luka
            await Client.connect(host.host, host.port, table.code, "LUKA", watch=True)
        assert table.watchers.names() == ["Luka"]
        await _drain(ana)
        lists = [m for m in ana.others if getattr(m, "type", None) == "watchers"]
        assert lists and lists[-1].names == ("Luka",)  # type: ignore[attr-defined]
    finally:
        await luka.close()
        await ana.client.close()
        await host.server.close()


async def test_a_hand_goes_to_the_watcher_the_player_names_whoever_came_last() -> None:
    """Issue #33: ``w`` showed the hand to "the newest watcher", so an opponent who opened a
    watcher last got it. The player names the watcher; the one who came last sees nothing."""
    host = await start_host(target=501, wait=5)
    table = host.server.new_table()
    ana = Player(await host.join(table.code, "Ana"), seed=14)
    mara = Player(await Client.connect(host.host, host.port, table.code, "Mara", watch=True))
    snoop = Player(await Client.connect(host.host, host.port, table.code, "Mara2", watch=True))
    try:
        await ana.client.send({"type": "start"})
        await wait_for(ana, State)
        await ana.client.send({"type": "show", "on": True, "watcher": "Mara"})
        await _read_all(mara, lambda m: isinstance(m, State) and bool(m.view.hand))
        await ana.client.send({"type": "show", "on": True, "watcher": "Nobody"})
        assert (await refused(ana)).code == "one_watcher"
        await asyncio.wait_for(ana.play(stop_after=3), 20)
        await _drain(snoop)
        assert snoop.states and all(not s.view.hand for s in snoop.states)
    finally:
        await snoop.client.close()
        await mara.client.close()
        await ana.client.close()
        await host.server.close()


async def test_two_players_with_one_name_are_told_apart() -> None:
    """Issue #33: two players were both shown as "Ana (3)"; a look-alike sat as itself."""
    host = await start_host(target=501, wait=5)
    table = host.server.new_table()
    players = [await host.join(table.code, name) for name in ("Ana", "Ana", "\u0410na", "Ana (2)")]
    try:
        names = [s.name for s in table.seats]
        assert names == ["Ana", "Ana (2)", "\u0410na (3)", "Ana (2) (2)"]
        assert len({skeleton(n or "") for n in names}) == 4
    finally:
        for client in players:
            await client.close()
        await host.server.close()
