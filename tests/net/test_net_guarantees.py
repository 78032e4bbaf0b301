"""What the host guarantees each player: refusals change nothing, bad frames close only
their own connection, wrong codes are rate-limited, a seat is held by its token."""

from __future__ import annotations

import asyncio
import json

import pytest
from netplay import Host, Player, refused, start_host, wait_for

from bela.engine import Card
from bela.net.client import Client, JoinError
from bela.net.protocol import (
    CLIENT_FRAME_LIMIT,
    PROTOCOL_VERSION,
    Closing,
    Lobby,
    Notice,
    Over,
    Refused,
    Said,
    State,
)
from bela.net.server import WrongCodes, normal_code


async def _table_of_two(host: Host) -> tuple[str, Player, Player]:
    """Two players seated (0 and 1), the match started with bots at 2 and 3."""
    table = host.server.new_table()
    a = Player(await host.join(table.code, "Ana", lead=table.leader_key), seed=1)
    b = Player(await host.join(table.code, "Ivo"), seed=2)
    await a.client.send({"type": "start"})
    await wait_for(a, State)
    await wait_for(b, State)
    return table.code, a, b


async def _until_turn(player: Player, seat_to_act: int) -> State:
    """Read until the table waits for ``seat_to_act`` (others' moves go by meanwhile)."""
    while True:
        state = player.states[-1] if player.states else None
        if (
            state is not None
            and state.view.to_act == seat_to_act
            and state.view.phase != "finished"
        ):
            return state
        await asyncio.wait_for(player.step(), 5)


async def test_out_of_turn_and_illegal_actions_are_refused_to_the_sender_alone() -> None:
    host = await start_host(wait=30)
    try:
        _, a, b = await _table_of_two(host)
        state = await _until_turn(a, 0)  # seat 3 deals: seat 0 speaks first
        await _until_turn(b, 0)
        seq = state.seq
        # out of turn: Ivo (seat 1) speaks before Ana
        await b.client.act("dalje")
        reason = (await refused(b)).reason
        assert "turn" in reason.lower()
        # not an action at all, and a card Ana does not hold
        await a.client.act("call X")
        assert "not an action" in (await refused(a)).reason
        await a.client.act("call H")  # legal, so the next card is checked by the rules
        played = await wait_for(a, State)
        assert isinstance(played, State)
        while played.view.to_act != 0 or played.view.phase != "playing":
            played = await _until_turn(a, 0)
            if played.view.phase == "playing":
                break
        not_mine = next(str(Card(c)) for c in range(32) if str(Card(c)) not in played.view.hand)
        before = played.seq
        await a.client.act(not_mine)
        assert (await refused(a)).reason
        # nothing changed: the table still waits for Ana, and Ivo was told nothing about it
        await a.client.act(played.view.legal[0])
        after = await wait_for(a, State)
        assert isinstance(after, State) and after.seq == before + 1
        assert seq < before
        # Ivo heard of his own refusal only, never of Ana's
        assert sum(isinstance(m, Refused) for m in b.others) == 1
    finally:
        await host.server.close()


@pytest.mark.parametrize(
    ("frame", "reason"),
    [
        (b"this is not json\n", "not JSON"),
        (json.dumps({"type": "teleport"}).encode() + b"\n", "unknown message type"),
        (json.dumps({"type": "act", "action": 7}).encode() + b"\n", "action"),
        (b'{"type": "chat", "text": "' + b"x" * CLIENT_FRAME_LIMIT + b'"}\n', "too large"),
    ],
)
async def test_a_bad_frame_closes_that_connection_only(frame: bytes, reason: str) -> None:
    host = await start_host(wait=30)
    try:
        _, a, b = await _table_of_two(host)
        b.client.writer.write(frame)
        closing = await wait_for(b, Closing)
        assert isinstance(closing, Closing) and reason in closing.reason
        with pytest.raises(ConnectionError):
            await asyncio.wait_for(b.client.receive(), 2)
        # Ana plays on: her table still answers her
        await a.client.chat("still here")
        said = await wait_for(a, Said)
        assert isinstance(said, Said) and said.text == "still here"
    finally:
        await host.server.close()


async def test_garbage_before_hello_is_refused_and_the_host_stays_up() -> None:
    host = await start_host()
    try:
        reader, writer = await asyncio.open_connection(host.host, host.port)
        writer.write(b"\x00\xff garbage\n")
        line = await asyncio.wait_for(reader.readline(), 2)
        assert json.loads(line)["type"] == "closing"
        table = host.server.new_table()
        client = await host.join(table.code, "Ana")
        assert client.welcome is not None and client.welcome.seat == 0
        await client.close()
    finally:
        await host.server.close()


async def test_wrong_codes_are_rate_limited_per_address() -> None:
    host = await start_host(wrong=WrongCodes(limit=3, window=60))
    try:
        table = host.server.new_table()
        for guess in ("AAAA-AAAA-AA", "BBBB-BBBB-BB", "CCCC-CCCC-CC"):
            with pytest.raises(JoinError, match="wrong join code"):
                await host.join(guess, "Mallory")
        # the right code too is refused now, without being looked at
        with pytest.raises(JoinError, match="too many wrong join codes"):
            await host.join(table.code, "Mallory")
        assert all(s.name is None for s in table.seats)
    finally:
        await host.server.close()


async def test_codes_are_read_as_typed() -> None:
    host = await start_host()
    try:
        table = host.server.new_table()
        typed = table.code.lower().replace("-", " ")
        assert normal_code(typed) == table.code
        client = await host.join(typed, "Ana")
        assert client.welcome is not None
        await client.close()
    finally:
        await host.server.close()


async def test_a_seat_is_taken_back_only_with_its_token() -> None:
    host = await start_host(wait=30)
    try:
        code, a, b = await _table_of_two(host)
        state = await _until_turn(b, 0)
        hand = state.view.hand
        token = b.client.welcome.token if b.client.welcome else ""
        await b.client.close()  # Ivo's connection drops
        notice = await wait_for(a, Notice)
        assert isinstance(notice, Notice) and "Ivo lost the connection" in notice.text
        # nobody takes his seat without the token: once started, no newcomer sits down...
        with pytest.raises(JoinError, match="match has started"):
            await host.join(code, "Mallory")
        # ... a made-up token is refused ...
        with pytest.raises(JoinError, match="token"):
            await host.join(code, "Ivo", token="not-his-token")
        # ... and with it, Ivo is back on seat 1 with the same hand
        back = Player(await host.join(code, "Ivo", token=token), seed=3)
        assert back.client.welcome is not None and back.client.welcome.seat == 1
        again = await wait_for(back, State)
        assert isinstance(again, State) and again.view.hand == hand
    finally:
        await host.server.close()


async def test_a_dropped_seat_goes_to_a_bot_after_the_wait_and_comes_back() -> None:
    host = await start_host(wait=0.1)
    try:
        code, a, b = await _table_of_two(host)
        token = b.client.welcome.token if b.client.welcome else ""
        await b.client.close()
        while True:
            notice = await wait_for(a, Notice)
            assert isinstance(notice, Notice)
            if "now plays for Ivo" in notice.text:
                break
        back = Player(await host.join(code, "Ivo", token=token), seed=4)
        assert back.client.welcome is not None and back.client.welcome.seat == 1
        told = await wait_for(a, Notice)
        assert isinstance(told, Notice) and "Ivo is back" in told.text
        await asyncio.wait_for(asyncio.gather(a.play(), back.play()), 20)
        assert a.over is not None and back.over is not None
    finally:
        await host.server.close()


async def test_seats_are_chosen_before_the_start_and_only_the_host_starts() -> None:
    host = await start_host()
    try:
        table = host.server.new_table()
        a = Player(await host.join(table.code, "Ana", lead=table.leader_key))
        b = Player(await host.join(table.code, "Ivo"))
        await b.client.send({"type": "sit", "seat": 0})
        assert "taken by Ana" in (await refused(b)).reason
        await b.client.send({"type": "sit", "seat": 2})  # Ana's partner
        lobby = await wait_for(b, Lobby)
        while isinstance(lobby, Lobby) and lobby.seats[2].name != "Ivo":
            lobby = await wait_for(b, Lobby)
        await b.client.send({"type": "start"})
        assert "only the host" in (await refused(b)).reason
        await a.client.send({"type": "start"})
        state = await wait_for(b, State)
        assert isinstance(state, State) and state.seat == 2
        assert [s.kind for s in state.seats] == ["human", "bot", "human", "bot"]
        await b.client.send({"type": "sit", "seat": 1})
        assert "seats are fixed" in (await refused(b)).reason
        # a late arrival does not take a bot's seat (and its dealt hand)
        with pytest.raises(JoinError, match="match has started"):
            await host.join(table.code, "late")
    finally:
        await host.server.close()


async def test_protocol_version_mismatch_is_said_plainly() -> None:
    host = await start_host()
    try:
        table = host.server.new_table()
        reader, writer = await asyncio.open_connection(host.host, host.port)
        hello = {"type": "hello", "v": 1, "code": table.code, "name": "Ana"}  # before rules
        writer.write(json.dumps(hello).encode() + b"\n")
        closing = json.loads(await asyncio.wait_for(reader.readline(), 2))
        said = f"version {PROTOCOL_VERSION}, not 1"
        assert closing["type"] == "closing" and said in closing["reason"]
        writer.close()
    finally:
        await host.server.close()


async def test_chat_is_cleaned_and_limited() -> None:
    host = await start_host(wait=30)
    try:
        _, a, b = await _table_of_two(host)
        await a.client.chat("dobro\x1b[31m")
        said = await wait_for(b, Said)
        assert isinstance(said, Said) and said.name == "Ana" and "\x1b" not in said.text
        for _ in range(6):
            await a.client.chat("bela!")
        assert "slow down" in (await refused(a)).reason
    finally:
        await host.server.close()


def test_client_addresses() -> None:
    from bela.net.client import DEFAULT_PORT, parse_address

    assert parse_address("example.org") == ("example.org", DEFAULT_PORT)
    assert parse_address("10.0.0.5:5000") == ("10.0.0.5", 5000)
    assert parse_address("[::1]:5000") == ("::1", 5000)
    with pytest.raises(ValueError, match="port"):
        parse_address("host:http")


async def test_unreachable_host_is_one_clear_sentence() -> None:
    """Not "[Errno 111] Connect call failed ('127.0.0.1', 1)" (issue #23, point 9)."""
    with pytest.raises(JoinError, match=r"nobody is hosting at 127\.0\.0\.1:1") as caught:
        await Client.connect("127.0.0.1", 1, "AAAA-AAAA-AA", "Ana", timeout=2)
    said = str(caught.value)
    assert "Errno" not in said and "call failed" not in said and "\n" not in said
    with pytest.raises(JoinError, match="cannot find the machine") as caught:
        await Client.connect("no-such-host.invalid", 4711, "AAAA-AAAA-AA", "Ana", timeout=2)
    assert "Errno" not in str(caught.value)


async def test_a_silent_connection_is_closed_after_the_hello_timeout() -> None:
    host = await start_host()
    host.server.hello_timeout = 0.2
    try:
        reader, writer = await asyncio.open_connection(host.host, host.port)
        line = await asyncio.wait_for(reader.readline(), 5)
        assert json.loads(line) == {
            "type": "closing",
            "reason": "no hello in time",
            "code": "no_hello",
            "args": {},
        }
        assert await asyncio.wait_for(reader.read(), 5) == b""
        writer.close()
    finally:
        await host.server.close()


def test_a_client_that_does_not_read_is_cut_off() -> None:
    """Frames wait for a slow reader only up to ``SEND_BUFFER_LIMIT``: then that connection
    is closed with the reason (the host never holds unbounded memory for one peer)."""
    from bela.net.server import SEND_BUFFER_LIMIT, Connection

    class Transport:
        waiting = 0

        def get_write_buffer_size(self) -> int:
            return self.waiting

    class Writer:
        def __init__(self) -> None:
            self.transport = Transport()
            self.frames: list[bytes] = []
            self.closed = False

        def write(self, data: bytes) -> None:
            self.frames.append(data)
            self.transport.waiting += len(data)

        def close(self) -> None:
            self.closed = True

    writer = Writer()
    conn = Connection(writer, "peer")  # type: ignore[arg-type]
    frame = b"x" * 1000 + b"\n"
    sent = 0
    while not conn.closed:
        conn.send_frame(frame)
        sent += 1
    assert sent == SEND_BUFFER_LIMIT // len(frame) + 1
    assert writer.closed
    assert json.loads(writer.frames[-1]) == {
        "type": "closing",
        "reason": "you are not reading what the table sends",
        "code": "not_reading",
        "args": {},
    }
    conn.send_frame(frame)  # nothing more is written to a closed connection
    assert len(writer.frames) == sent + 1


async def test_a_player_back_after_the_end_is_given_the_result() -> None:
    host = await start_host(wait=0.05)
    try:
        code, a, b = await _table_of_two(host)
        token = b.client.welcome.token if b.client.welcome else ""
        await b.client.close()  # gone for good, it seems: a bot finishes the match for Ivo
        await asyncio.wait_for(a.play(), 30)
        assert a.over is not None
        back = Player(await host.join(code, "Ivo", token=token))
        over = await wait_for(back, Over)
        assert isinstance(over, Over) and over.record == a.over.record
    finally:
        await host.server.close()
