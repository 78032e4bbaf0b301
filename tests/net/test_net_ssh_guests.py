"""Issue #33, points 2 and 3: an SSH guest is nobody but itself, and reaches nothing of the host's.

The app an SSH session runs is a real ``bela join`` process on the host's machine. It used
to run with the host's environment, so it read the host's kept seat tokens (``seats.json``)
and wrote the host's ``settings.json``: ``ssh Mia@host`` with only the code took Mia's seat
and hand, and F2 wrote the host's settings. Now each guest has a home of its own (its key's,
or a temporary one) and an environment with nothing of the host's.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
from collections.abc import Callable
from pathlib import Path

import asyncssh
import pytest

from bela.net.client import Client
from bela.net.saves import TableSaver
from bela.net.server import Server, ServerOptions, WrongCodes, normal_code
from bela.net.ssh import GUESTS_DIR, PASSED_ON, SshDoor, guest_env, join_command, start_ssh


async def _until(check: Callable[[], bool], timeout: float = 30.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not check():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError("timed out")
        await asyncio.sleep(0.05)


def _environ(pid: int) -> dict[str, str]:
    raw = Path(f"/proc/{pid}/environ").read_bytes()
    pairs = (item.split(b"=", 1) for item in raw.split(b"\0") if b"=" in item)
    return {k.decode(): v.decode() for k, v in pairs}


class _Screen:
    """What an SSH session's terminal has been sent."""

    def __init__(self, process: asyncssh.SSHClientProcess[bytes]) -> None:
        self.bytes = bytearray()
        self.task = asyncio.create_task(self._read(process))

    async def _read(self, process: asyncssh.SSHClientProcess[bytes]) -> None:
        with contextlib.suppress(asyncssh.Error):
            while chunk := await process.stdout.read(65536):
                self.bytes.extend(chunk)


async def _door(data_dir: Path) -> tuple[Server, SshDoor, int]:
    server = Server(ServerOptions(difficulty="random", bot_delay=0.0, wait=30), TableSaver())
    _, tcp_port = await server.listen("127.0.0.1", 0)
    door = await start_ssh(server, "127.0.0.1", 0, tcp_port)
    return server, door, tcp_port


@pytest.mark.slow
async def test_a_guest_named_as_a_player_gets_a_seat_of_its_own_not_theirs(data_dir: Path) -> None:
    """Mia sits down with ``bela join`` on the host's machine (her token is kept in the
    host's data directory, as the app keeps it). A guest who logs in over SSH as ``Mia`` with
    the code must get a new seat: Mia keeps hers, her connection is not taken over."""
    server, door, tcp_port = await _door(data_dir)
    table = server.new_table()
    ssh_port = door.sockets[0].getsockname()[1]
    mia = await Client.connect("127.0.0.1", tcp_port, table.code, "Mia")
    assert mia.welcome is not None
    # what the host's own `bela join` kept: this table, this name, this token
    data_dir.mkdir(parents=True, exist_ok=True)
    (data_dir / "seats.json").write_text(
        json.dumps({f"{normal_code(table.code)} Mia": mia.welcome.token})
    )
    try:
        async with asyncssh.connect(
            "127.0.0.1",
            ssh_port,
            username="Mia",
            password=table.code,
            known_hosts=None,
            client_keys=None,
        ) as conn:
            process = await conn.create_process(
                term_type="xterm-256color", term_size=(100, 30), encoding=None
            )
            screen = _Screen(process)
            await _until(lambda: sum(1 for s in table.seats if s.name) == 2)
            await _until(lambda: b"mi / vi" in screen.bytes)
            mine = table.seats[mia.welcome.seat]
            assert mine.name == "Mia" and mine.link is not None
            others = [s for i, s in enumerate(table.seats) if s.name and i != mia.welcome.seat]
            assert len(others) == 1 and others[0].token != mia.welcome.token
            # the app the guest runs has a home of its own, and nothing of the host's
            (child,) = [c for c in door.sessions.values() if c is not None]
            env = _environ(child.pid)
            assert env["BELA_DATA_DIR"] != str(data_dir)
            assert not env["BELA_DATA_DIR"].startswith(str(data_dir) + "/matches")
            assert "BELA_CONFIG_DIR" in env and env["HOME"] != os.environ.get("HOME")
            assert set(env) <= {*PASSED_ON, "HOME", "BELA_DATA_DIR", "BELA_CONFIG_DIR", "TERM"}
            home = Path(env["HOME"])
            assert Path(os.readlink(f"/proc/{child.pid}/cwd")) == home
            process.close()
            screen.task.cancel()
        # a session without a key keeps nothing: its home is gone with it
        await _until(lambda: not door.sessions)
        await _until(lambda: not home.exists())
        assert json.loads((data_dir / "seats.json").read_text()) == {
            f"{normal_code(table.code)} Mia": mia.welcome.token
        }
    finally:
        await mia.close()
        door.close()
        await server.close()


async def _type(process: asyncssh.SSHClientProcess[bytes], text: str) -> None:
    process.stdin.write(text.encode())
    await asyncio.sleep(0.05)


@pytest.mark.slow
async def test_a_guest_with_a_key_types_the_code_and_keeps_its_seat_by_key(data_dir: Path) -> None:
    """A client that proves a key is asked for the code in its terminal (a wrong one is
    counted against its address); its seat token is kept under its key, so the same key
    back on a new connection takes its seat again, and another key is somebody else."""
    server, door, _tcp = await _door(data_dir)
    server.wrong_codes = WrongCodes(limit=5, window=60)
    table = server.new_table()
    ssh_port = door.sockets[0].getsockname()[1]
    ana_key = asyncssh.generate_private_key("ssh-ed25519")

    async def session(key: asyncssh.SSHKey, name: str, code: str) -> _Screen:
        conn = await asyncssh.connect(
            "127.0.0.1", ssh_port, username=name, client_keys=[key], known_hosts=None
        )
        process = await conn.create_process(
            term_type="xterm-256color", term_size=(100, 30), encoding=None
        )
        screen = _Screen(process)
        await _until(lambda: b"Join code:" in screen.bytes)
        await _type(process, "WRON-GCOD-E2\r")
        await _until(lambda: b"not this table's join code" in screen.bytes)
        await _type(process, code.lower() + "\r")
        sessions.append((conn, process))
        return screen

    sessions: list[tuple[asyncssh.SSHClientConnection, asyncssh.SSHClientProcess[bytes]]] = []
    try:
        first = await session(ana_key, "Ana", table.code)
        await _until(lambda: table.seats[0].name == "Ana" and table.seats[0].link is not None)
        await _until(lambda: b"mi / vi" in first.bytes)
        assert len(server.wrong_codes.seen["127.0.0.1"]) == 1
        homes = list((data_dir / GUESTS_DIR).iterdir())
        assert len(homes) == 1
        # Ana's line drops; she comes back with the same key: her seat, not a new one
        sessions[0][0].close()
        await _until(lambda: table.seats[0].link is None)
        again = await session(ana_key, "Ana", table.code)
        await _until(lambda: table.seats[0].link is not None)
        await _until(lambda: b"mi / vi" in again.bytes)
        assert sum(1 for s in table.seats if s.name) == 1  # her seat again, not a second one
        # another key named Ana is another player
        await session(asyncssh.generate_private_key("ssh-ed25519"), "Ana", table.code)
        await _until(lambda: sum(1 for s in table.seats if s.name) == 2)
        assert table.seats[0].link is not None and table.seats[1].name == "Ana (2)"
        assert len(list((data_dir / GUESTS_DIR).iterdir())) == 2
    finally:
        for conn, _process in sessions:
            conn.close()
        door.close()
        await door.wait_closed()
        await server.close()


def test_a_guests_environment_holds_nothing_of_the_hosts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for key, value in {
        "BELA_CONFIG_DIR": "/host/config",
        "SSH_AUTH_SOCK": "/tmp/agent",
        "HOME": "/root",
        "PATH": "/usr/bin",
    }.items():
        monkeypatch.setenv(key, value)
    env = guest_env(tmp_path, "xterm")
    assert env["PATH"] == "/usr/bin"
    assert env["HOME"] == str(tmp_path)
    assert env["BELA_DATA_DIR"] == str(tmp_path / "data")
    assert env["BELA_CONFIG_DIR"] == str(tmp_path / "config")
    assert "SSH_AUTH_SOCK" not in env and env["TERM"] == "xterm"


@pytest.mark.parametrize("name", ["-h", "--lang=zh", "--version", "-x Ana"])
def test_a_name_that_looks_like_an_option_is_a_name(name: str) -> None:
    """SSH names starting with ``-`` made the app exit (argparse read them as options)."""
    from bela.cli.options import build_parser

    command = join_command(4711, "ABCD-EFGH-JK", name, {})
    args = build_parser("join").parse_args(command[command.index("join") :])
    assert args.name == name


def test_a_guest_draws_the_cards_of_its_own_settings_never_the_hosts(
    tmp_path: Path, config_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue #35: the deck is a setting like the language. The host keeps mađarice in its
    settings; a guest's ``bela join`` (run with ``guest_env``: its own config directory)
    draws French cards until the guest chooses otherwise in its own F2, and ``--deck`` on
    ``bela join`` wins over the settings (it was dropped: the app read the file again)."""
    from bela.cli import main
    from bela.deck import current_deck
    from bela.tui.app import BelaApp

    seen: list[str] = []
    monkeypatch.setattr(BelaApp, "run", lambda self, *a, **k: seen.append(current_deck()))
    # a terminal that runs the app (the test's input is not one: that would be plain)
    monkeypatch.setattr("bela.cli.play.wants_plain", lambda *_args: False)
    config_dir.mkdir(parents=True)
    (config_dir / "settings.json").write_text(json.dumps({"schema_version": 1, "deck": "german"}))

    def join(*options: str) -> str:
        assert main([*options, "join", "127.0.0.1:1", "code-code"]) == 0
        return seen[-1]

    assert join() == "german"  # the host's own bela join: the host's settings
    home = tmp_path / "guest"
    for key, value in guest_env(home, "xterm").items():
        monkeypatch.setenv(key, value)
    assert join() == "french"  # a guest: nothing of the host's settings
    assert join("--deck", "german") == "german"
    guest_config = home / "config"
    guest_config.mkdir(parents=True)
    (guest_config / "settings.json").write_text(json.dumps({"schema_version": 1, "deck": "german"}))
    assert join() == "german"  # the guest's own choice, kept in its own home
    assert join("--deck", "french") == "french"
