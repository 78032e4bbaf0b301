"""``bela host --ssh PORT``: friends play with nothing but ``ssh -p PORT NAME@HOST``.

An asyncssh server on the host. The SSH user name is the player's name, and the
table's join code lets them in: typed as the password, or, when their client proves a
key (``ssh`` offers one first where the player has one), typed at a prompt in their
terminal. Wrong codes count against the address either way, like any wrong code
(``server.WrongCodes``). Each session gets its own pseudo-terminal with ``bela join``
running in it, joined to this host over localhost: the very same app and protocol as
any other seat, so an SSH player sees what their seat may see and nothing more. asyncssh
copies the bytes between the SSH channel and the terminal, and passes on window-size
changes (it sets the size on a redirect target that is a tty).

**A guest reaches nothing of the host's but the table** (issue #33). The app runs on the
host's machine, so it is given a data and a config directory of its own (``guest_home``)
and an environment with nothing of the host's in it: a session with a key keeps its
own settings and seat tokens under ``ssh-guests/<key>`` in the host's data directory (the
player back with the same key, after a dropped line, takes their seat again); a session
without a key gets a temporary directory, removed when it ends. So the host's settings,
archive and saved seat tokens are out of reach: a guest typing ``Mia@host`` is a new
player named after Mia, never Mia, and F2 writes the guest's own settings. One key holds
one session: a newer one ends the older (the same player back on a new connection).

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
import gettext
import hashlib
import os
import shutil
import struct
import sys
import tempfile
import termios
import weakref
from collections.abc import Mapping
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, Protocol

import asyncssh

from bela.archive.storage import DATA_DIR_ENV, data_dir
from bela.foundation.native import PURE_ENV
from bela.i18n import DOMAIN, LOCALE_DIR, N_, language_of
from bela.settings import CONFIG_DIR_ENV

if TYPE_CHECKING:
    from collections.abc import Callable

    from bela.net.faults import FaultLog
    from bela.net.server import WrongCodes

    AppCommand = Callable[[str, Mapping[str, str]], list[str]]
    """The command line of a session's app, by the player's name and their environment."""

__all__ = [
    "GUESTS_DIR",
    "HOST_KEY_NAME",
    "RESET",
    "Gatekeeper",
    "SshDoor",
    "guest_env",
    "guest_home",
    "host_key",
    "join_command",
    "online_command",
    "start_public_ssh",
    "start_ssh",
]

HOST_KEY_NAME: Final = "ssh_host_key"
GUESTS_DIR: Final = "ssh-guests"
"""Under the host's data directory: one directory per guest key (``guest_home``)."""
CODE_TRIES: Final = 3
"""Codes a session with a key may type at the prompt before it is closed."""
PASSED_ON: Final = ("PATH", "PYTHONPATH", PURE_ENV)
"""The only variables of the host's environment a guest's app is given: where Python and
bela are, and which build to run. Nothing else (the host's HOME, its BELA_DATA_DIR, its
agent sockets) reaches the guest."""
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


class Gatekeeper(Protocol):
    """The process the SSH door serves, as the door needs it: where it logs what goes
    wrong, its wrong codes by address (a blocked address offers no key either), and its
    connection cap (the door's connections and apps come out of it). A friends' host
    (``bela.net.server.Server``), a one-process public server, or the front door of many
    workers (``bela.net.front_door.FrontDoor``, which holds no table: its sessions'
    ``bela online`` go through it like any client)."""

    faults: FaultLog
    wrong_codes: WrongCodes
    connection_cap: int


def _code_known(server: Gatekeeper, code: str) -> bool:
    """``code`` is a table's join code at ``server`` (only a friends' host has codes)."""
    from bela.net.server import Server

    return isinstance(server, Server) and (code in server.tables or code in server.finished)


class SshDoor:
    """The SSH side of a host: its listening socket, the limits, the sessions running."""

    def __init__(self, command: AppCommand | None = None) -> None:
        self.command = command
        """The app a session runs, by the player's name and their client's environment,
        for the public server (``online_command``: keys only, no code asked); None: the
        friends' table's ``bela join`` with the code."""
        self.acceptor: asyncssh.SSHAcceptor | None = None
        self.by_address: dict[str, int] = {}
        self.connections = 0
        self.sessions: dict[Any, asyncio.subprocess.Process | None] = {}
        """Each connection with a session, and its app once started."""
        self.by_key: dict[str, Any] = {}
        """The connection whose session a guest key holds (one session a key)."""

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
        self,
        server: Gatekeeper,
        codes: weakref.WeakKeyDictionary[Any, str],
        keys: weakref.WeakKeyDictionary[Any, str],
        door: SshDoor,
    ) -> None:
        self.server = server
        self.codes = codes
        self.keys = keys
        self.door = door
        self.conn: asyncssh.SSHServerConnection | None = None
        self.peer = "?"
        self.counted = False
        self.offered: asyncssh.SSHKey | None = None
        """The last key the client offered; it is the guest's once its signature is good."""

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

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        """Any key is welcome as who the guest is (never what lets them in: the code is
        still asked for, at a prompt); asyncssh checks the signature after this, and only a
        signed request ends the login, so a key someone merely names is never theirs."""
        if not self.counted or self.server.wrong_codes.blocked(self.peer) > 0:
            return False
        self.offered = key
        return True

    def auth_completed(self) -> None:
        if self.conn is None:  # pragma: no cover - asyncssh always made the connection
            return
        if self.conn in self.codes:  # in with the code as the password: no key is theirs
            self.offered = None
        elif self.offered is not None:
            self.keys[self.conn] = guest_key_id(self.offered)

    def password_auth_supported(self) -> bool:
        return self.door.command is None  # the public server: known by a key, or not at all

    async def validate_password(self, username: str, password: str) -> bool:
        from bela.net.server import WRONG_CODE_PAUSE, normal_code

        wrong = self.server.wrong_codes
        if not self.counted or wrong.blocked(self.peer) > 0:
            return False
        code = normal_code(password)
        if not _code_known(self.server, code):
            wrong.wrong(self.peer)
            await asyncio.sleep(WRONG_CODE_PAUSE)
            return False
        if self.conn is not None:
            self.codes[self.conn] = code
        return True


def _player_name(username: str) -> str:
    name = "".join(ch for ch in username if ch.isprintable()).strip()[:24]
    return name or "player"


def guest_key_id(key: asyncssh.SSHKey) -> str:
    """A guest key's directory name: its public blob's SHA-256, in hex (a file name any
    file system takes, and no way back to anything but the key)."""
    return hashlib.sha256(key.public_data).hexdigest()[:40]


def guest_home(key_id: str | None) -> tuple[Path, bool]:
    """The directory a guest's app keeps its data and settings in, and whether it is the
    session's alone (removed when it ends): the key's own under ``ssh-guests`` in the
    host's data directory, else a new temporary one. Never the host's."""
    if key_id is not None:
        home = data_dir() / GUESTS_DIR / key_id
        home.mkdir(parents=True, exist_ok=True, mode=0o700)
        return home, False
    return Path(tempfile.mkdtemp(prefix="bela-ssh-guest-")), True


def guest_env(home: Path, term: str) -> dict[str, str]:
    """The environment of a guest's app: its own data and config directories and home,
    the terminal the client asked for, and of the host's only ``PASSED_ON``."""
    env = {key: os.environ[key] for key in PASSED_ON if key in os.environ}
    env.update(
        {
            "HOME": str(home),
            DATA_DIR_ENV: str(home / "data"),
            CONFIG_DIR_ENV: str(home / "config"),
            "TERM": term,
        }
    )
    return env


def _set_size(fd: int, width: int, height: int) -> None:
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("hhhh", height, width, 0, 0))


def _take_terminal() -> None:  # pragma: no cover - runs in the child, before exec
    """Make the pty the child's controlling terminal (so it gets SIGWINCH on resizes)."""
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


def join_command(tcp_port: int, code: str, name: str, env: Mapping[str, str]) -> list[str]:
    """The app an SSH session runs: ``bela join`` over localhost, in the player's language
    when their client said it, keeping no copy of the record (the app runs on the host's
    machine, whose archive already holds the host's)."""
    # --name=... in one word: a name that starts with "-" is a name, not an option
    command = [
        sys.executable,
        "-m",
        "bela",
        "join",
        f"127.0.0.1:{tcp_port}",
        code,
        f"--name={name}",
    ]
    command.append("--no-record")
    lang = client_language(env)
    if lang is not None:  # the player's own language, whatever the host's settings say
        command += ["--lang", lang]
    return command


def online_command(
    tcp_port: int, name: str, env: Mapping[str, str], tcp_host: str = "127.0.0.1"
) -> list[str]:
    """The app an SSH session at the public server runs: ``bela online`` over localhost
    (its lobby, in the session's terminal) under the SSH user name, in the player's
    language; the session's own directory holds the account's key, so the SSH key is
    the account. ``tcp_host``: where the public port listens (``--listen``)."""
    where = f"[{tcp_host}]:{tcp_port}" if ":" in tcp_host else f"{tcp_host}:{tcp_port}"
    command = [sys.executable, "-m", "bela", "online", where, f"--name={name}"]
    lang = client_language(env)
    if lang is not None:
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


def _words(lang: str | None) -> gettext.NullTranslations:
    """The catalog of the guest's language (their client's), for the few lines said here."""
    return gettext.translation(DOMAIN, LOCALE_DIR, languages=[lang or "en"], fallback=True)


_ASK_CODE: Final = N_("Join code: ")
_WRONG_CODE: Final = N_("That is not this table's join code.")
_TOO_MANY: Final = N_("Too many wrong codes: try again in a minute.")


async def _read_line(process: asyncssh.SSHServerProcess[bytes], limit: int = 32) -> str | None:
    """A line typed in the guest's terminal (the pty is raw: echo and backspace are ours);
    None when they hang up or press Ctrl+C or Ctrl+D."""
    typed = ""
    while True:
        chunk = await process.stdin.read(64)
        if not chunk:
            return None
        for byte in chunk:
            if byte in (3, 4):  # Ctrl+C, Ctrl+D
                return None
            if byte in (10, 13):
                process.stdout.write(b"\r\n")
                return typed
            if byte in (8, 127):
                if typed:
                    typed = typed[:-1]
                    process.stdout.write(b"\b \b")
            elif 32 < byte < 127 and len(typed) < limit:
                typed += chr(byte)
                process.stdout.write(bytes([byte]))


async def _ask_code(
    process: asyncssh.SSHServerProcess[bytes], server: Gatekeeper, peer: str
) -> str | None:
    """A guest who came in with a key types the join code here; wrong ones count against
    their address as a wrong password does."""
    from bela.net.server import WRONG_CODE_PAUSE, normal_code

    words = _words(client_language(process.env))
    wrong = server.wrong_codes
    for _try in range(CODE_TRIES):
        if wrong.blocked(peer) > 0:
            break
        process.stdout.write(words.gettext(_ASK_CODE).encode())
        try:
            typed = await asyncio.wait_for(_read_line(process), LOGIN_TIMEOUT)
        except TimeoutError:
            return None
        if typed is None:
            return None
        code = normal_code(typed)
        if _code_known(server, code):
            return code
        wrong.wrong(peer)
        await asyncio.sleep(WRONG_CODE_PAUSE)
        process.stdout.write(words.gettext(_WRONG_CODE).encode() + b"\r\n")
    if wrong.blocked(peer) > 0:
        process.stdout.write(words.gettext(_TOO_MANY).encode() + b"\r\n")
    return None


async def _session(
    process: asyncssh.SSHServerProcess[bytes],
    codes: weakref.WeakKeyDictionary[Any, str],
    keys: weakref.WeakKeyDictionary[Any, str],
    tcp_port: int,
    door: SshDoor,
    server: Gatekeeper,
) -> None:
    """Run ``bela join`` in a fresh pty for this SSH session until either side ends:
    one session a connection, ``SESSIONS`` in all, one a guest key."""
    conn = process.get_extra_info("connection")
    key_id = keys.get(conn)
    if conn not in codes and key_id is None:  # pragma: no cover - authentication set one
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
        code = codes.get(conn)
        if code is None and door.command is not None:
            code = ""  # the public server: the key is who they are, the lobby seats them
        if code is None:
            peer = conn.get_extra_info("peername")
            code = await _ask_code(process, server, str(peer[0]) if peer else "?")
        if code is None:
            process.exit(1)
            return
        if key_id is not None:  # one session a key: the newest (the player back) wins
            older = door.by_key.get(key_id)
            door.by_key[key_id] = conn
            child = door.sessions.get(older) if older is not None else None
            if child is not None and child.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    child.terminate()
        home, temporary = guest_home(key_id)
        try:
            await _run_app(process, code, tcp_port, door, conn, home)
        finally:
            if temporary:
                shutil.rmtree(home, ignore_errors=True)
    finally:
        door.sessions.pop(conn, None)
        if key_id is not None and door.by_key.get(key_id) is conn:
            del door.by_key[key_id]


async def _run_app(
    process: asyncssh.SSHServerProcess[bytes],
    code: str,
    tcp_port: int,
    door: SshDoor,
    conn: Any,
    home: Path,
) -> None:
    """The app in a fresh pty, its bytes to and from the SSH channel, until either ends."""
    width, height = process.term_size[:2]
    master, slave = os.openpty()
    _set_size(slave, width or 80, height or 24)
    env = guest_env(home, process.term_type or "xterm-256color")
    name = _player_name(str(process.get_extra_info("username") or "player"))
    if door.command is not None:
        command = door.command(name, process.env)
    else:
        command = join_command(tcp_port, code, name, process.env)
    child = await asyncio.create_subprocess_exec(
        *command,
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=env,
        cwd=home,
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


async def start_ssh(
    server: Gatekeeper,
    host: str,
    port: int,
    tcp_port: int,
    command: AppCommand | None = None,
    key_dir: Path | None = None,
) -> SshDoor:
    """Accept SSH sessions on ``host:port``; each plays at this server's table over
    ``tcp_port`` (``command``: the app each runs, for the public server; ``key_dir``:
    where the host key is kept, else the data directory)."""
    codes: weakref.WeakKeyDictionary[Any, str] = weakref.WeakKeyDictionary()
    keys: weakref.WeakKeyDictionary[Any, str] = weakref.WeakKeyDictionary()
    door = SshDoor(command)
    # the SSH connections and their apps' descriptors come out of the host's connections
    server.connection_cap = max(4, server.connection_cap - CONNECTIONS - 8 * SESSIONS)

    async def session(process: asyncssh.SSHServerProcess[bytes]) -> None:
        await _session(process, codes, keys, tcp_port, door, server)

    door.acceptor = await asyncssh.create_server(
        lambda: _Gate(server, codes, keys, door),
        host,
        port,
        server_host_keys=[host_key(key_dir)],
        process_factory=session,
        encoding=None,
        line_editor=False,
        keepalive_interval=30,
        login_timeout=LOGIN_TIMEOUT,
    )
    return door


async def start_public_ssh(
    server: Gatekeeper,
    host: str,
    port: int,
    tcp_port: int,
    key_dir: Path,
    tcp_host: str = "127.0.0.1",
) -> SshDoor:
    """The public server's SSH door on ``host:port``: each session runs ``bela online``
    over localhost to ``tcp_port``, the public port (a one-process server's, or the front
    door of many workers, which sends the session's client on to a worker as it sends any
    client: so an SSH player reaches every worker's tables); the host key in ``key_dir``."""
    return await start_ssh(
        server,
        host,
        port,
        tcp_port,
        partial(online_command, tcp_port, tcp_host=tcp_host),
        key_dir=key_dir,
    )
