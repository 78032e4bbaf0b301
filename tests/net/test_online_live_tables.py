"""The public server's live tables survive: saved after every action, taken up by a restarted
server (or another worker), the players seated back where they were (issue #39)."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from onlineplay import OnlinePlayer, Site, Stores, next_of, start_site

from bela.net.identity import Pins
from bela.net.live_tables import LiveSave, SqliteLiveTables, read_live
from bela.net.lobby_protocol import Created
from bela.net.online_client import Online
from bela.net.protocol import Closing, State, Welcome

NAMES = ("Ana", "Ivo", "Eva", "Mate")


async def seat_four(site: Site, keys: list[Ed25519PrivateKey]) -> list[OnlinePlayer]:
    players = []
    for index, (key, name) in enumerate(zip(keys, NAMES, strict=True)):
        player = await site.sign_in(name, key)
        player.rng.seed(index)
        await player.request({"type": "quick", "target": 501, "wait": 60})
        players.append(player)
    for player in players:
        await next_of(player, Welcome)
    return players


async def play_some(players: list[OnlinePlayer], actions: int) -> None:
    """Every seat plays until ``actions`` actions of the match have gone out."""
    tasks = [asyncio.create_task(p.play()) for p in players]
    try:
        async with asyncio.timeout(30):
            while not players[0].states or players[0].states[-1].seq < actions:
                await asyncio.sleep(0.01)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def drain(player: OnlinePlayer) -> None:
    """Read what the server sent until it hung up (the last state seen is kept)."""
    try:
        while not isinstance(await asyncio.wait_for(player.step(), 5), Closing):
            pass
    except (ConnectionError, TimeoutError):
        pass
    await player.online.close()


async def test_a_restarted_server_takes_up_its_tables_and_the_match_goes_on(
    tmp_path: Path, stores: Stores
) -> None:
    keys = [Ed25519PrivateKey.generate() for _ in range(4)]
    site = await start_site(tmp_path, stores)
    try:
        players = await seat_four(site, keys)
        await play_some(players, 10)  # bids, and cards into the first tricks
        table_id = players[0].online.client.welcome.table  # type: ignore[union-attr]
        seats = {p.hi.name: p.seat for p in players}
    finally:
        await site.server.close()
    for player in players:
        await drain(player)
    seen = {p.hi.name: p.states[-1] for p in players}
    assert len({s.seq for s in seen.values()}) == 1  # every seat saw the same last action

    site = await start_site(tmp_path, stores)
    try:
        assert table_id in site.server.meta  # taken up at the start, before anybody came
        back = []
        for key, name in zip(keys, NAMES, strict=True):
            player = await site.sign_in(name, key)
            assert player.hi.seated
            welcome = await next_of(player, Welcome)
            assert isinstance(welcome, Welcome) and welcome.table == table_id
            assert welcome.seat == seats[name]
            back.append(player)
        for player in back:
            state = await next_of(player, State)
            assert isinstance(state, State)
            before = seen[player.hi.name]
            # the same deal, the same trick, the same hand: nothing a player saw is lost
            assert state.seq >= before.seq and state.round == before.round
            assert state.view.hand == before.view.hand
            assert state.view.tricks == before.view.tricks
            assert state.view.trick == before.view.trick
            assert state.view.bids == before.view.bids
        # and it plays on to its end, rated, archived once, its save gone
        await asyncio.wait_for(asyncio.gather(*(p.play() for p in back)), 120)
        await asyncio.sleep(0.05)
        assert all(p.over is not None for p in back)
        for player in back:
            account = site.server.accounts.by_key(str(player.hi.key))
            assert account is not None and account.rated == 1 and account.reliability == 1.0
        lines = site.server.accounts.matches_of(site.server.accounts.by_name("Ana").id, 5)  # type: ignore[union-attr]
        assert len(lines) == 1 and lines[0].rated
        assert site.server.keeper.store.owned(site.server.keeper.worker) == []
    finally:
        await site.server.close()


async def test_a_private_table_taken_up_is_joined_by_its_code_and_its_save_holds_no_code(
    tmp_path: Path,
) -> None:
    site = await start_site(tmp_path)
    try:
        ana = await site.sign_in("Ana", Ed25519PrivateKey.generate())
        await ana.request({"type": "create", "target": 501, "private": True})
        created = await next_of(ana, Created)
        assert isinstance(created, Created) and created.code is not None
        await next_of(ana, Welcome)
        await ana.request({"type": "start"})  # bots in the other seats: a match in play
        await next_of(ana, State)
    finally:
        await site.server.close()
    store = SqliteLiveTables(tmp_path / "server" / "server.sqlite3")
    try:
        ((table_id, text),) = store.owned("main")
    finally:
        store.close()
    assert table_id == created.table
    assert created.code not in text and 'leader_key":""' in text
    save, match = read_live(text)
    assert isinstance(save, LiveSave) and not save.public and save.code_hash is not None
    assert match.current is not None

    site = await start_site(tmp_path)
    try:
        assert created.table in site.server.meta
        ivo = await site.sign_in("Ivo", Ed25519PrivateKey.generate())
        await ivo.request({"type": "watch", "table": created.table})  # private: not by its id
        mate = await site.sign_in("Mate", Ed25519PrivateKey.generate())
        await mate.request({"type": "join", "code": created.code.lower()})
        # the match has started: every seat is taken (Ana's waits for her), so the code
        # finds the table and the table says why not, instead of "no such table"
        answer = await asyncio.wait_for(mate.step(), 5)
        assert getattr(answer, "code", None) != "no_such_table"
    finally:
        await site.server.close()


async def test_a_table_whose_store_write_fails_shows_nothing_until_it_lands(
    tmp_path: Path,
) -> None:
    site = await start_site(tmp_path)
    try:
        players = await seat_four(site, [Ed25519PrivateKey.generate() for _ in range(4)])
        for player in players:
            await next_of(player, State)
        keeper = site.server.keeper
        real_put = keeper.store.put
        broken = True

        def put(table_id: str, worker: str, text: str) -> bool:
            if broken:
                raise OSError("disk full")
            return real_put(table_id, worker, text)

        keeper.store.put = put  # type: ignore[method-assign]
        mover = next(p for p in players if p.my_turn())
        seen = len(mover.states)
        await mover.client.act(mover.rng.choice(mover.states[-1].view.legal))
        table = next(iter(site.server.meta.values())).table
        async with asyncio.timeout(10):
            while not table.stalled:
                await asyncio.sleep(0.02)
        assert table.held  # the state waits for its save
        others = [p for p in players if p is not mover]
        for player in others:
            with_timeout = asyncio.wait_for(player.step(), 0.2)
            try:
                message = await with_timeout
            except TimeoutError:
                continue
            assert not isinstance(message, State)
        broken = False
        async with asyncio.timeout(10):  # the tick tries again
            while table.stalled:
                await asyncio.sleep(0.05)
        state = await next_of(mover, State)
        assert isinstance(state, State) and len(mover.states) > seen
    finally:
        await site.server.close()


def one_server(tmp_path: Path, port: int) -> subprocess.Popen[str]:
    """A real ``bela server`` (one process, SQLite) on ``port`` and ``tmp_path``'s directory."""
    return subprocess.Popen(
        [
            *(sys.executable, "-m", "bela", "--lang", "en", "server", "--port", str(port)),
            *("--data", str(tmp_path / "srv"), "--bots", "random"),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=dict(os.environ, BELA_DATA_DIR=str(tmp_path / "data")),
    )


async def listening(process: subprocess.Popen[str]) -> None:
    assert process.stdout is not None
    line = await asyncio.wait_for(asyncio.to_thread(process.stdout.readline), 60)
    assert "listens at" in line, line


async def test_a_killed_server_started_again_seats_everybody_back(tmp_path: Path) -> None:
    """``bela server`` killed with SIGKILL mid-match and started again: its table is taken up
    from SQLite and the match goes on from the last state its players saw."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    pins = Pins(tmp_path / "client")
    keys = [Ed25519PrivateKey.generate() for _ in range(4)]
    first = one_server(tmp_path, port)
    try:
        await listening(first)
        players = []
        for index, (key, name) in enumerate(zip(keys, NAMES, strict=True)):
            online = await Online.connect("127.0.0.1", port, name, key, pins)
            player = OnlinePlayer(online.client, online=online)
            player.rng.seed(index)
            await player.request({"type": "quick", "target": 501, "wait": 60})
            players.append(player)
        for player in players:
            await next_of(player, Welcome, 10)
        await play_some(players, 10)
        seats = {p.hi.name: p.seat for p in players}
        first.send_signal(signal.SIGKILL)
        first.wait(10)
        for player in players:
            await drain(player)
        seen = {p.hi.name: p.states[-1] for p in players}
    finally:
        if first.poll() is None:
            first.kill()
    second = one_server(tmp_path, port)
    try:
        await listening(second)
        back = []
        for key, name in zip(keys, NAMES, strict=True):
            online = await Online.connect("127.0.0.1", port, name, key, pins)
            player = OnlinePlayer(online.client, online=online)
            assert player.hi.seated
            welcome = await next_of(player, Welcome, 10)
            assert isinstance(welcome, Welcome) and welcome.seat == seats[name]
            back.append(player)
        for player in back:
            state = await next_of(player, State, 10)
            assert isinstance(state, State)
            before = seen[player.hi.name]
            # a state they saw is in the save (written before it went out); the server
            # may have saved one more action whose state the kill kept from them
            assert state.seq in (before.seq, before.seq + 1)
            if state.seq == before.seq:
                assert state.view.hand == before.view.hand
                assert state.view.trick == before.view.trick
        await asyncio.wait_for(asyncio.gather(*(p.play() for p in back)), 120)
        assert all(p.over is not None for p in back)
        for player in back:
            await player.online.close()
    finally:
        second.send_signal(signal.SIGTERM)
        try:
            second.wait(15)
        finally:
            if second.poll() is None:
                second.kill()
