"""No friend ever loses their seat (issue #23, points 5 and 6).

A kept token is forgotten only when the host says that seat is no longer ours
(``stale_token``): not while the host is restarting (nobody answers) or while
our address is rate-limited, and a failed rejoin never takes a second seat. The
token is kept by the table's join code, not by the address as typed, so
``localhost`` and ``127.0.0.1`` (or a host's new LAN address) find the same seat;
and the host's own app gets its seat back by its leader key.
"""

from __future__ import annotations

import pytest
from netplay import Player, start_host, wait_for

from bela.net.client import JoinError
from bela.net.protocol import State
from bela.net.server import WrongCodes
from bela.tui.remote import RemoteSession, kept_token


async def _started(host_port: int, code: str, session: RemoteSession) -> None:
    await session.connect()
    assert session.client is not None
    await session.send({"type": "start"})


async def test_the_seat_is_kept_by_table_not_by_the_address_as_typed() -> None:
    host = await start_host(wait=30)
    table = host.server.new_table()
    try:
        first = RemoteSession("localhost", host.port, table.code, "Ana")
        await _started(host.port, table.code, first)
        ana = Player(first.client)  # type: ignore[arg-type]
        dealt = await wait_for(ana, State)
        assert isinstance(dealt, State)
        await first.close()
        # the same player, the same table, typed another way (lower case, another name
        # for this machine): the kept token seats her where she was, with her hand
        again = RemoteSession("127.0.0.1", host.port, table.code.lower(), "Ana")
        await again.connect()
        assert again.seat == first.seat
        back = await wait_for(Player(again.client), State)  # type: ignore[arg-type]
        assert isinstance(back, State) and back.view.hand == dealt.view.hand
        assert [s.kind for s in back.seats].count("human") == 1  # no second seat
        await again.close()
    finally:
        await host.server.close()


async def test_a_failed_rejoin_keeps_the_token() -> None:
    wrong = WrongCodes(limit=1, window=60)
    host = await start_host(wrong=wrong, wait=30)
    table = host.server.new_table()
    session = RemoteSession("127.0.0.1", host.port, table.code, "Ana")
    await _started(host.port, table.code, session)
    token = session.token
    await session.close()
    port = host.port
    await host.server.close()
    # the host is restarting: nobody answers; the token stays
    later = RemoteSession("127.0.0.1", port, table.code, "Ana")
    with pytest.raises(JoinError, match="nobody is hosting"):
        await later.connect()
    assert kept_token(later.key) == token
    host = await start_host(wrong=wrong, wait=30)
    table2 = host.server.new_table()
    try:
        # our address is rate-limited (a wrong code was tried from it): the token stays
        with pytest.raises(JoinError):
            await host.join("WRON-GCOD-E2", "x")
        limited = RemoteSession("127.0.0.1", host.port, table.code, "Ana")
        with pytest.raises(JoinError, match="too many wrong"):
            await limited.connect()
        assert kept_token(limited.key) == token
        wrong.seen.clear()
        # the host says the seat is not ours (another table under this code is impossible,
        # so: a token the table does not know): only now is it forgotten
        known = RemoteSession("127.0.0.1", host.port, table2.code, "Ana")
        await known.connect()
        known_key, known_token = known.key, known.token
        await known.close()
        table2.seats[known.seat or 0].token = "0" * 64  # the host no longer knows it
        again = RemoteSession("127.0.0.1", host.port, table2.code, "Ana")
        await again.connect()  # before the start: a new seat, and its token kept instead
        assert known_token is not None and again.token != known_token
        assert kept_token(known_key) == again.token
        await again.close()
    finally:
        await host.server.close()


async def test_the_hosts_own_app_gets_its_seat_back_by_its_key() -> None:
    host = await start_host(wait=30)
    table = host.server.new_table()
    try:
        own = Player(await host.join(table.code, "host", lead=table.leader_key), seed=1)
        await own.client.send({"type": "start"})
        dealt = await wait_for(own, State)
        assert isinstance(dealt, State)
        await own.client.close()  # Ctrl+Q; its seats file is not there (keep=False)
        back = Player(await host.join(table.code, "host", lead=table.leader_key), seed=1)
        assert back.client.welcome is not None and back.client.welcome.seat == dealt.seat
        state = await wait_for(back, State)
        assert isinstance(state, State) and state.view.hand == dealt.view.hand
        # the key is the host's alone: a guest's wrong key is a newcomer, and refused now
        with pytest.raises(JoinError, match="match has started"):
            await host.join(table.code, "host", lead="not-the-key")
    finally:
        await host.server.close()


async def test_joining_a_host_busy_with_strangers_tries_again() -> None:
    """Strangers' idle connections fill the host's caps for a moment: the app's join tries
    again (it used to give up at the first "too many connections")."""
    import asyncio

    host = await start_host(max_unseated=2, max_unseated_per_address=2)
    table = host.server.new_table()
    held = [(await asyncio.open_connection(host.host, host.port))[1] for _ in range(2)]
    try:
        session = RemoteSession("127.0.0.1", host.port, table.code, "Ana", keep=False)
        joining = asyncio.create_task(session.connect())
        await asyncio.sleep(1.5)  # refused meanwhile (the address holds its two)
        assert not joining.done()
        for writer in held:
            writer.close()
        await asyncio.wait_for(joining, 5)
        assert session.seat == 0
        await session.close()
    finally:
        await host.server.close()
