"""``bela host --ssh PORT``: friends play with nothing but ``ssh -p PORT NAME@HOST``.

An asyncssh server on the host. The password is the table's join code (wrong
ones count against the address like any wrong code, ``server.WrongCodes``);
the SSH user name is the player's name. Each session gets its own pseudo-
terminal with ``bela join`` running in it, joined to this host over localhost:
the very same app and protocol as any other seat, so an SSH player sees what
their seat may see and nothing more. asyncssh copies the bytes between the SSH
channel and the terminal, and passes on window-size changes (it sets the size
on a redirect target that is a tty).

The host key is made once and kept in the data directory (``ssh_host_key``),
so players' ``known_hosts`` stay valid from one evening to the next.

A stranger must not turn one login into many apps (each is a process of tens of
megabytes): a connection runs one session, an address holds at most
``PER_ADDRESS`` connections, the host ``CONNECTIONS`` in all and ``SESSIONS``
apps in all; a login must be done within ``LOGIN_TIMEOUT``. When a session ends
from the host's side (the app ended, or the host is stopping) the player's
terminal is put back as it was (``RESET``): an app killed mid-screen cannot.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import struct
import sys
import termios
import weakref
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import asyncssh

from bela.archive.storage import data_dir
from bela.i18n import language_of

if TYPE_CHECKING:
    from bela.net.server import Server

__all__ = ["HOST_KEY_NAME", "RESET", "SshDoor", "host_key", "start_ssh"]

HOST_KEY_NAME: Final = "ssh_host_key"
PER_ADDRESS: Final = 4
CONNECTIONS: Final = 64
SESSIONS: Final = 16
LOGIN_TIMEOUT: Final = 30.0
RESET: Final = (
    b"\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1015l"  # mouse reports off
    b"\x1b[?2004l\x1b[?1004l"  # bracketed paste, focus reports off
    b"\x1b[0m\x1b[?25h\x1b[?1049l\r\n"  # plain colours, the cursor, the normal screen
)
"""What puts a player's terminal back after the app, whatever state it was left in."""


class SshDoor:
    """The SSH side of a host: its listening socket, the limits, the sessions running."""

    def __init__(self) -> None:
        self.acceptor: asyncssh.SSHAcceptor | None = None
        self.by_address: dict[str, int] = {}
        self.connections = 0
        self.sessions: dict[Any, asyncio.subprocess.Process | None] = {}
        """Each connection with a session, and its app once started."""

    @property
    def sockets(self) -> Any:
        assert self.acceptor is not None
        return self.acceptor.sockets

    def opened(self, peer: str) -> bool:
        """Count a new connection; False when it is one too many (it is then closed)."""
        if self.connections >= CONNECTIONS or self.by_address.get(peer, 0) >= PER_ADDRESS:
            return False
        self.connections += 1
        self.by_address[peer] = self.by_address.get(peer, 0) + 1
        return True

    def closed(self, peer: str) -> None:
        self.connections -= 1
        left = self.by_address.get(peer, 0) - 1
        if left > 0:
            self.by_address[peer] = left
        else:
            self.by_address.pop(peer, None)

    def close(self) -> None:
        """Stop listening and end every app (each session then resets its terminal)."""
        if self.acceptor is not None:
            self.acceptor.close()
        for child in self.sessions.values():
            if child is not None and child.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    child.terminate()

    async def wait_closed(self, timeout: float = 5.0) -> None:
        deadline = asyncio.get_running_loop().time() + timeout
        while self.sessions and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.05)


def host_key(directory: Path | None = None) -> asyncssh.SSHKey:
    """The host's SSH key, made on first use and kept (readable by the owner only)."""
    where = (directory or data_dir()) / HOST_KEY_NAME
    if where.exists():
        return asyncssh.read_private_key(where)
    where.parent.mkdir(parents=True, exist_ok=True)
    key = asyncssh.generate_private_key("ssh-ed25519")
    fd = os.open(where, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as handle:
        handle.write(key.export_private_key())
    return key


class _Gate(asyncssh.SSHServer):
    """One SSH connection: the password must be a table's join code."""

    def __init__(
        self, server: Server, codes: weakref.WeakKeyDictionary[Any, str], door: SshDoor
    ) -> None:
        self.server = server
        self.codes = codes
        self.door = door
        self.conn: asyncssh.SSHServerConnection | None = None
        self.peer = "?"
        self.counted = False

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        peer = conn.get_extra_info("peername")
        self.peer = str(peer[0]) if isinstance(peer, tuple) else str(peer)
        self.counted = self.door.opened(self.peer)
        if not self.counted:
            self.server.faults.report("ssh:cap", f"too many SSH connections (last: {self.peer})")
            asyncio.get_running_loop().call_soon(
                conn.disconnect, asyncssh.DISC_TOO_MANY_CONNECTIONS, "too many connections"
            )

    def connection_lost(self, exc: Exception | None) -> None:
        if self.counted:
            self.counted = False
            self.door.closed(self.peer)

    def begin_auth(self, username: str) -> bool:
        return True  # every name needs the code

    def password_auth_supported(self) -> bool:
        return True

    async def validate_password(self, username: str, password: str) -> bool:
        from bela.net.server import WRONG_CODE_PAUSE, normal_code

        wrong = self.server.wrong_codes
        if not self.counted or wrong.blocked(self.peer) > 0:
            return False
        code = normal_code(password)
        if code not in self.server.tables and code not in self.server.finished:
            wrong.wrong(self.peer)
            await asyncio.sleep(WRONG_CODE_PAUSE)
            return False
        if self.conn is not None:
            self.codes[self.conn] = code
        return True


def _player_name(username: str) -> str:
    name = "".join(ch for ch in username if ch.isprintable()).strip()[:24]
    return name or "player"


def _set_size(fd: int, width: int, height: int) -> None:
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("hhhh", height, width, 0, 0))


def _take_terminal() -> None:  # pragma: no cover - runs in the child, before exec
    """Make the pty the child's controlling terminal (so it gets SIGWINCH on resizes)."""
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


def join_command(tcp_port: int, code: str, name: str, env: Mapping[str, str]) -> list[str]:
    """The app an SSH session runs: ``bela join`` over localhost, in the player's language
    when their client said it, keeping no copy of the record (the app runs on the host's
    machine, whose archive already holds the host's)."""
    command = [sys.executable, "-m", "bela", "join", f"127.0.0.1:{tcp_port}", code, "--name", name]
    command.append("--no-record")
    lang = client_language(env)
    if lang is not None:  # the player's own language, whatever the host's settings say
        command += ["--lang", lang]
    return command


def client_language(env: Mapping[str, str]) -> str | None:
    """The language the SSH client asked for (OpenSSH sends ``LANG`` and ``LC_*``), if
    bela speaks it; the value is the peer's, so only a known language code comes out."""
    for key in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(key)
        if value:
            return language_of(str(value)[:64])
    return None


async def _session(
    process: asyncssh.SSHServerProcess[bytes],
    codes: weakref.WeakKeyDictionary[Any, str],
    tcp_port: int,
    door: SshDoor,
) -> None:
    """Run ``bela join`` in a fresh pty for this SSH session until either side ends:
    one session a connection, ``SESSIONS`` in all."""
    conn = process.get_extra_info("connection")
    code = codes.get(conn)
    if code is None:  # pragma: no cover - authentication always sets it
        process.exit(1)
        return
    if conn in door.sessions:
        process.stderr.write(b"bela: one session per connection\r\n")
        process.exit(1)
        return
    if len(door.sessions) >= SESSIONS:
        process.stderr.write(b"bela: the host has too many players just now\r\n")
        process.exit(1)
        return
    if process.term_type is None:
        process.stderr.write(b"bela needs a terminal: connect with ssh -t\r\n")
        process.exit(1)
        return
    door.sessions[conn] = None
    try:
        await _run_app(process, code, tcp_port, door, conn)
    finally:
        door.sessions.pop(conn, None)


async def _run_app(
    process: asyncssh.SSHServerProcess[bytes],
    code: str,
    tcp_port: int,
    door: SshDoor,
    conn: Any,
) -> None:
    """The app in a fresh pty, its bytes to and from the SSH channel, until either ends."""
    width, height = process.term_size[:2]
    master, slave = os.openpty()
    _set_size(slave, width or 80, height or 24)
    env = dict(os.environ, TERM=process.term_type or "xterm-256color")
    name = _player_name(str(process.get_extra_info("username") or "player"))
    command = join_command(tcp_port, code, name, process.env)
    child = await asyncio.create_subprocess_exec(
        *command,
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=env,
        start_new_session=True,
        preexec_fn=_take_terminal,  # setsid comes first (start_new_session), then this
        close_fds=True,
    )
    os.close(slave)
    door.sessions[conn] = child
    to_app = os.fdopen(master, "wb", buffering=0)
    from_app = os.fdopen(os.dup(master), "rb", buffering=0)
    ended = asyncio.ensure_future(child.wait())
    gone = asyncio.ensure_future(process.channel.wait_closed())
    try:
        await process.redirect(stdin=to_app, stdout=from_app, send_eof=False)
        await asyncio.wait({ended, gone}, return_when=asyncio.FIRST_COMPLETED)
        if ended.done():
            # the app ended (the player quit, or the host is stopping): the terminal as it
            # was, even if the app could not put it back itself
            with contextlib.suppress(Exception):
                await asyncio.sleep(0.1)  # the app's last bytes through the pty first
                process.stdout.write(RESET)
            process.exit(ended.result())
    finally:
        gone.cancel()
        if not ended.done():  # the player hung up: the app goes too (its seat waits for them)
            with contextlib.suppress(ProcessLookupError):
                child.terminate()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(ended, 5)
            if not ended.done():
                with contextlib.suppress(ProcessLookupError):
                    child.kill()
        process.close()
        with contextlib.suppress(Exception):  # asyncssh's own cleanup of the redirection
            await asyncio.wait_for(process.wait_closed(), 5)
        for handle in (to_app, from_app):
            with contextlib.suppress(OSError):
                handle.close()


async def start_ssh(server: Server, host: str, port: int, tcp_port: int) -> SshDoor:
    """Accept SSH sessions on ``host:port``; each plays at this server's table over
    ``tcp_port``."""
    codes: weakref.WeakKeyDictionary[Any, str] = weakref.WeakKeyDictionary()
    door = SshDoor()
    # the SSH connections and their apps' descriptors come out of the host's connections
    server.connection_cap = max(4, server.connection_cap - CONNECTIONS - 8 * SESSIONS)

    async def session(process: asyncssh.SSHServerProcess[bytes]) -> None:
        await _session(process, codes, tcp_port, door)

    door.acceptor = await asyncssh.create_server(
        lambda: _Gate(server, codes, door),
        host,
        port,
        server_host_keys=[host_key()],
        process_factory=session,
        encoding=None,
        line_editor=False,
        keepalive_interval=30,
        login_timeout=LOGIN_TIMEOUT,
    )
    return door
