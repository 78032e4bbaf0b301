"""``bela host --ssh``: a player with only an SSH client joins, plays a card, and hangs up.

An asyncssh client logs in with the join code as password, gets the app in a
pseudo-terminal (``bela join`` run for the session by the host), starts the
match with ``g``, says dalje or names trump with Enter, plays a card with
Enter, and disconnects. The host's match must hold that card, and the seat
must be seen as dropped (kept for the player's token) after the hang-up.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from pathlib import Path

import asyncssh
import pytest

from bela.net.saves import TableSaver
from bela.net.server import Server, ServerOptions, WrongCodes
from bela.net.ssh import HOST_KEY_NAME, start_ssh
from bela.net.table import Table


async def _until(check: Callable[[], bool], timeout: float = 30.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not check():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError("timed out")
        await asyncio.sleep(0.05)


def _played_by(table: Table, seat: int) -> bool:
    match = table.match
    if match is None or match.current is None:
        return False
    rnd = match.current
    if any(t.seat_of(i) == seat for t in rnd.tricks for i in range(len(t.cards))):
        return True
    return any((rnd.trick_leader + i) % 4 == seat for i in range(len(rnd.trick)))


@pytest.mark.slow
async def test_an_ssh_player_plays_a_card_and_disconnects(data_dir: Path) -> None:
    server = Server(
        ServerOptions(difficulty="random", target=1001, bot_delay=0.0, wait=30), TableSaver()
    )
    _, tcp_port = await server.listen("127.0.0.1", 0)
    table = server.new_table()
    acceptor = await start_ssh(server, "127.0.0.1", 0, tcp_port)
    ssh_port = acceptor.sockets[0].getsockname()[1]
    screen = bytearray()
    try:
        async with asyncssh.connect(
            "127.0.0.1", ssh_port, username="Ana", password=table.code, known_hosts=None
        ) as conn:
            process = await conn.create_process(
                term_type="xterm-256color", term_size=(120, 40), encoding=None
            )

            async def read() -> None:
                while chunk := await process.stdout.read(65536):
                    screen.extend(chunk)

            reader = asyncio.create_task(read())
            await _until(lambda: table.seats[0].name == "Ana")
            await _until(lambda: b"mi / vi" in screen)  # the app is drawn
            for _ in range(100):  # g starts the match (Ana sat down first: she leads the table)
                process.stdin.write(b"g")
                await asyncio.sleep(0.2)
                if table.match is not None:
                    break
            assert table.match is not None
            for _ in range(200):  # Enter: dalje (or trump when it must), then a card
                if _played_by(table, 0):
                    break
                rnd = table.match.current if table.match is not None else None
                if rnd is not None and rnd.to_act == 0:
                    process.stdin.write(b"\r")
                await asyncio.sleep(0.1)
            assert _played_by(table, 0), "the SSH player's card never reached the table"
            assert (data_dir / HOST_KEY_NAME).exists()
            process.close()
            reader.cancel()
        await _until(lambda: table.seats[0].link is None)  # hung up: the seat waits for Ana
        assert table.seats[0].name == "Ana" and table.seats[0].kind() == "away"
    finally:
        acceptor.close()
        await server.close()


async def test_a_wrong_code_is_a_wrong_password() -> None:
    server = Server(ServerOptions(), None, WrongCodes(limit=2, window=60))
    _, tcp_port = await server.listen("127.0.0.1", 0)
    table = server.new_table()
    acceptor = await start_ssh(server, "127.0.0.1", 0, tcp_port)
    ssh_port = acceptor.sockets[0].getsockname()[1]
    try:
        for guess in ("AAAA-AAAA-AA", "BBBB-BBBB-BB", table.code):  # the right one, too late
            with pytest.raises(asyncssh.PermissionDenied):
                await asyncssh.connect(
                    "127.0.0.1",
                    ssh_port,
                    username="Mallory",
                    password=guess,
                    known_hosts=None,
                    preferred_auth="password",
                )
        assert all(seat.name is None for seat in table.seats)
    finally:
        acceptor.close()
        await server.close()


@pytest.mark.parametrize(
    ("env", "lang"),
    [
        ({"LANG": "hr_HR.UTF-8"}, "hr"),
        ({"LANG": "en_US.UTF-8", "LC_MESSAGES": "es_ES.UTF-8"}, "es"),
        ({"LC_ALL": "ru_RU.UTF-8", "LANG": "hr_HR.UTF-8"}, "ru"),
        ({"LANG": "x" * 5000}, None),
        ({"LANG": "--lang zh"}, None),
        ({}, None),
    ],
)
def test_an_ssh_player_gets_their_own_language_and_no_copy_on_the_host(
    env: dict[str, str], lang: str | None
) -> None:
    """The app an SSH session runs speaks the language the player's client sent (only a
    language bela knows, whatever the client sends), and keeps no record: it runs on the
    host's machine, whose archive has the host's."""
    from bela.net.ssh import join_command

    command = join_command(4711, "ABCD-EFGH-JK", "Ana", env)
    assert command[-3 if lang else -1 :][0] == "--no-record"
    assert command[command.index("join") + 1 :][:3] == [
        "127.0.0.1:4711",
        "ABCD-EFGH-JK",
        "--name=Ana",
    ]
    if lang is None:
        assert "--lang" not in command
    else:
        assert command[-2:] == ["--lang", lang]


async def test_the_code_of_a_finished_table_is_not_a_wrong_password() -> None:
    """The right code of a match that has ended lets the player in, to be told it is over
    (by the app, as ``bela join`` is), and never counts as a guess."""
    server = Server(ServerOptions(), None, WrongCodes(limit=1, window=60))
    _, tcp_port = await server.listen("127.0.0.1", 0)
    server.finished["ABCD-EFGH-JK"] = "the match at this join code is over"
    acceptor = await start_ssh(server, "127.0.0.1", 0, tcp_port)
    ssh_port = acceptor.sockets[0].getsockname()[1]
    try:
        for _ in range(2):
            conn = await asyncssh.connect(
                "127.0.0.1",
                ssh_port,
                username="Ana",
                password="abcd efgh jk",
                known_hosts=None,
                preferred_auth="password",
            )
            conn.close()
            await conn.wait_closed()
        assert not server.wrong_codes.seen
    finally:
        acceptor.close()
        await server.close()


async def test_one_ssh_login_runs_one_app_and_a_stopping_host_resets_its_terminal(
    data_dir: Path,
) -> None:
    """Issue #23, points 3 and 9: a second session on the same connection is refused (one
    login used to open 30 apps); a fifth connection from one address is refused; when the
    host stops, the app ends and the player's terminal gets the reset (the normal screen,
    the cursor, mouse reports off) instead of being left in the app's screen."""
    from bela.net.ssh import PER_ADDRESS, RESET

    server = Server(ServerOptions(difficulty="random", bot_delay=0.0, wait=30), TableSaver())
    _, tcp_port = await server.listen("127.0.0.1", 0)
    table = server.new_table()
    door = await start_ssh(server, "127.0.0.1", 0, tcp_port)
    ssh_port = door.sockets[0].getsockname()[1]
    screen = bytearray()
    extra: list[asyncio.StreamWriter] = []
    try:
        async with asyncssh.connect(
            "127.0.0.1", ssh_port, username="Ana", password=table.code, known_hosts=None
        ) as conn:
            process = await conn.create_process(
                term_type="xterm-256color", term_size=(100, 30), encoding=None
            )

            async def read() -> None:
                while chunk := await process.stdout.read(65536):
                    screen.extend(chunk)

            reader = asyncio.create_task(read())
            await _until(lambda: b"mi / vi" in screen)  # the app is drawn
            second = await conn.create_process(
                term_type="xterm-256color", term_size=(100, 30), encoding=None
            )
            said = await asyncio.wait_for(second.stderr.read(), 10)
            await second.wait_closed()
            assert b"one session per connection" in said and second.exit_status == 1
            assert len(door.sessions) == 1
            # more connections from this address than it may hold are turned away
            for _ in range(PER_ADDRESS - 1):  # idle, never logged in
                _reader, writer = await asyncio.open_connection("127.0.0.1", ssh_port)
                extra.append(writer)
            await _until(lambda: door.by_address.get("127.0.0.1") == PER_ADDRESS)
            with pytest.raises((asyncssh.Error, OSError)):
                await asyncssh.connect(
                    "127.0.0.1", ssh_port, username="Ivo", password=table.code, known_hosts=None
                )
            # the host stops: the app ends, and the terminal is put back
            door.close()
            await asyncio.wait_for(reader, 15)
            tail = bytes(screen[-len(RESET) - 200 :])
            assert RESET in tail
            assert screen.rfind(b"\x1b[?1049l") > screen.rfind(b"\x1b[?1049h")
            await door.wait_closed()
            assert not door.sessions
    finally:
        for other in extra:
            other.close()
        door.close()
        await server.close()


@pytest.mark.slow
async def test_ctrl_c_on_the_real_host_resets_the_ssh_players_terminal(data_dir: Path) -> None:
    """``bela host --no-play --ssh`` stopped with Ctrl-C: the SSH player's terminal gets the
    reset before the host exits. (Tried for real, it did not: a ``Thread.join`` that Ctrl-C
    had interrupted returned at once, and the process ended mid-shutdown.)"""
    import os
    import re
    import signal
    import socket
    import subprocess
    import sys

    from bela.net.ssh import RESET

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        ssh_port = probe.getsockname()[1]
    flags = ["--ssh", str(ssh_port), "--bots", "random"]
    host = subprocess.Popen(
        [sys.executable, "-m", "bela", "host", "--no-play", "--port", "0", *flags],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=dict(os.environ, BELA_DATA_DIR=str(data_dir)),
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert host.stdout is not None
    code = ""
    while line := host.stdout.readline():
        found = re.search(r"join code: (\S+)", line)
        code = found.group(1) if found else code
        if "Hosting until" in line:
            break
    screen = bytearray()
    try:
        async with asyncssh.connect(
            "127.0.0.1", ssh_port, username="Ana", password=code, known_hosts=None
        ) as conn:
            process = await conn.create_process(
                term_type="xterm-256color", term_size=(100, 30), encoding=None
            )

            async def read() -> None:
                with contextlib.suppress(asyncssh.Error):
                    while chunk := await process.stdout.read(65536):
                        screen.extend(chunk)

            reader = asyncio.create_task(read())
            await _until(lambda: b"mi / vi" in screen)
            host.send_signal(signal.SIGINT)
            await asyncio.wait_for(reader, 15)
    finally:
        host.send_signal(signal.SIGKILL)
        host.wait()
    assert RESET in bytes(screen[-len(RESET) - 200 :])
