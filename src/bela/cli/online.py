"""``bela server`` (the public server, its operator's ``admin``) and ``bela online`` (a
player's way in: the lobby on the command line, then the seat in the app).

``bela server`` runs ``bela.net.online_server.OnlineServer`` until Ctrl-C or SIGTERM,
on SQLite in its data directory, and prints where it listens and its certificate's
fingerprint. ``bela server admin list|end TABLE|ban KEY`` talks to a running server
through the owner-only Unix socket in that directory (a ban is written to the
database even when no server runs).

``bela online HOST[:PORT]`` signs in with the player's Ed25519 key (made in the config
directory on first use; ``--guest`` plays unrated with a name only), pins the server's
certificate on first use and prints its fingerprint; then ``--list`` (the default),
``--leaders`` or ``--rename`` print and end, while ``--quick``, ``--create``,
``--join``, ``--code`` and ``--watch`` open the app at the seat the lobby gives.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import signal
import sys
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, TextIO

from bela.cli.common import EXIT_ENVIRONMENT, CliError, optional_module
from bela.cli.net_args import LEVELS, bot_level, login_name, port_number, table_name
from bela.foundation.untrusted import oneline, shown
from bela.i18n import N_, _, current_language
from bela.net.lobby_text import invite_line, leader_lines, league_lines, player_lines, standing

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from bela.net.client import Client
    from bela.net.online_client import Online

__all__ = [
    "AdminOptions",
    "OnlineOptions",
    "ServerCommandOptions",
    "add_online_parsers",
    "online_command_options",
    "run_admin",
    "run_online",
    "run_server",
]

DEFAULT_ONLINE_PORT: Final = 4713
"""``bela.net.online_server.DEFAULT_ONLINE_PORT`` (not imported: ``--help`` loads no network)."""
NEEDS_NET: Final = N_("the public server (pip install 'croatian-bela[net]')")
NEEDS_SERVER: Final = N_(
    "the public server on PostgreSQL and Redis (pip install 'croatian-bela[net,server]')"
)


@dataclass(frozen=True, slots=True)
class ServerCommandOptions:
    port: int
    public: bool
    data: Path | None
    bots: str
    wait: int
    ssh_port: int | None = None
    postgres: str | None = None
    """A libpq connection string: the accounts on PostgreSQL (``bela.net.store_postgres``)."""
    redis: str | None = None
    """A Redis URL: the table directory on Redis (``bela.net.store_redis``)."""
    workers: int = 1
    """Worker processes behind a front door (``bela.net.supervisor``); 1: one process."""
    worker_port: int | None = None
    """Set in a worker's own process (started by the supervisor): its port."""
    web_port: int | None = None
    """The lobby in a browser on this port (textual-serve, ``bela.net.web_session``)."""
    web_tabs: int = 16
    """Browser pages at once at most."""
    web_cert: Path | None = None
    web_key: Path | None = None
    """The page's certificate and its key (PEM); None: the server's own (self-signed)."""
    web_http: bool = False
    """The page over plain HTTP: every page a guest."""
    advertise: str | None = None
    """``--workers``: the host players reach this machine's workers at (another machine's
    workers send them here by it); None: the address they used for the front door."""
    listen: str | None = None
    """The address to listen on (None: 127.0.0.1, or every interface with ``--public``)."""

    @property
    def bind(self) -> str:
        """The address every port of this server listens on."""
        if self.listen is not None:
            return self.listen
        return "0.0.0.0" if self.public else "127.0.0.1"


@dataclass(frozen=True, slots=True)
class AdminOptions:
    data: Path | None
    action: str
    argument: str | None


@dataclass(frozen=True, slots=True)
class OnlineOptions:
    address: str
    name: str
    guest: bool
    action: str
    """list, leaders, rename, quick, create, join, code or watch."""
    argument: str | None
    target: int
    wait: int
    private: bool
    unrated: bool
    reason: str | None = None
    """``--report``'s text."""
    rules: dict[str, bool | int] = field(default_factory=dict)
    """``--create``'s house rules, those that differ from the standard game."""
    invite: tuple[str, ...] = ()
    """``--invite``: accounts invited by name to the new table."""
    key_dir: Path | None = None
    """Where the key is kept; None: the config directory (a browser's new account: its
    home's, ``bela.net.web_accounts``)."""
    also: tuple[tuple[str, int], ...] = ()
    """More addresses of the same server (``HOST,HOST2:PORT``: its other machines), tried
    in turn when one cannot be reached (``bela.net.online_client.in_turn``)."""


def _up_to(least: int, most: int, message: str) -> Callable[[str], int]:
    """An argparse type for a whole number from ``least`` to ``most``, read by the one
    bounded reader (``bela.cli.options.whole_number``: no "²", "٣" or 5,000 digits), refused
    with ``message`` (``most`` and ``text`` in it)."""

    def convert(text: str) -> int:
        from bela.cli.options import whole_number

        number = whole_number(text)
        if number is None or not least <= number <= most:
            raise argparse.ArgumentTypeError(_(message).format(most=most, text=shown(text)))
        return number

    return convert


_tabs = _up_to(1, 256, N_("expected a number from 1 to {most}, not {text}"))
_wait = _up_to(0, 600, N_("expected seconds from 0 to {most}, not {text}"))
_workers = _up_to(1, 64, N_("expected a number from 1 to {most}, not {text}"))


def _host(text: str) -> str:
    """An argparse type for a host name or an IP address (``--advertise``, ``--listen``):
    the same check a client makes of a redirect's host (``bela.net.redirects``)."""
    from bela.net.redirects import valid_host

    if not valid_host(text):
        raise argparse.ArgumentTypeError(
            _("expected a host name or an IP address, not {text}").format(text=shown(text))
        )
    return text


def _default_name() -> str:
    """The player's name from the settings, else their login on this machine."""
    from bela.settings import saved_player_name

    saved = saved_player_name()
    if saved:
        return saved
    return login_name()


def add_online_parsers(commands: Any) -> None:
    """Add ``server`` and ``online`` to ``commands`` (argparse's subparsers)."""
    from bela.cli.options import COMMANDS, _target, parse_rules

    server: argparse.ArgumentParser = commands.add_parser(
        "server",
        help=_(COMMANDS["server"]),
        description=_(
            "Run the public server: a lobby, accounts with ratings and many tables in one "
            "process, on SQLite in the data directory. Players connect with "
            "'bela online HOST:PORT' (TLS). 'bela server admin list|end TABLE|ban KEY' "
            "talks to it while it runs."
        ),
        allow_abbrev=False,
    )
    server.add_argument(
        "--port",
        type=port_number,
        default=DEFAULT_ONLINE_PORT,
        help=_("TCP port (default {port})").format(port=DEFAULT_ONLINE_PORT),
    )
    server.add_argument(
        "--public",
        action="store_true",
        help=_("accept players from other machines (binds every interface, not just localhost)"),
    )
    server.add_argument(
        "--data",
        type=Path,
        metavar="DIR",
        help=_("the server's directory (default: 'server' in bela's data directory)"),
    )
    server.add_argument(
        "--bots",
        type=bot_level,
        default="normal",
        metavar="LEVEL",
        help=_("bots in empty seats: {levels} (default normal)").format(levels=", ".join(LEVELS)),
    )
    server.add_argument(
        "--wait",
        type=_wait,
        default=120,
        metavar="SECONDS",
        help=_("how long a dropped player's seat waits before a bot plays it (default 120)"),
    )
    server.add_argument(
        "--ssh-port",
        type=port_number,
        metavar="PORT",
        help=_(
            "also accept 'ssh -p PORT NAME@HOST' (a key is the account; the lobby in the "
            "player's terminal); needs the 'net' extra"
        ),
    )
    server.add_argument(
        "--web-port",
        type=port_number,
        metavar="PORT",
        help=_(
            "also serve the lobby in a web browser on PORT, over HTTPS (a page is a guest "
            "until its player picks a name; the browser then keeps the account); needs the "
            "'net' extra"
        ),
    )
    server.add_argument(
        "--web-cert",
        type=Path,
        metavar="FILE",
        help=_(
            "the browser page's certificate (PEM, with --web-key); default: the server's "
            "own, which browsers warn about"
        ),
    )
    server.add_argument(
        "--web-key", type=Path, metavar="FILE", help=_("the key of --web-cert (PEM)")
    )
    server.add_argument(
        "--web-http",
        action="store_true",
        help=_("serve the browser page over plain HTTP: every page a guest (no account in clear)"),
    )
    server.add_argument(
        "--web-tabs",
        type=_tabs,
        default=16,
        metavar="N",
        help=_("browser pages open at once at most (default 16)"),
    )
    server.add_argument(
        "--postgres",
        metavar="URL",
        help=_(
            "keep the accounts and ratings in this PostgreSQL database "
            "(postgresql://USER@HOST/DB) instead of SQLite; needs the 'server' extra"
        ),
    )
    server.add_argument(
        "--redis",
        metavar="URL",
        help=_(
            "keep the directory of live tables and who is online in this Redis "
            "(redis://HOST:PORT/0); needs the 'server' extra"
        ),
    )
    server.add_argument(
        "--workers",
        type=_workers,
        default=1,
        metavar="N",
        help=_(
            "run N worker processes behind a front door on --port (the workers listen on "
            "the N ports after it); needs --redis and --postgres"
        ),
    )
    server.add_argument(
        "--advertise",
        type=_host,
        metavar="HOST",
        help=_(
            "--workers on several machines: the host name or address players reach this "
            "machine's workers at (default: the address they used for the front door)"
        ),
    )
    server.add_argument(
        "--listen",
        type=_host,
        metavar="ADDRESS",
        help=_("listen on this address only (default 127.0.0.1, or every interface with --public)"),
    )
    server.add_argument("--worker-port", type=port_number, help=argparse.SUPPRESS)
    actions = server.add_subparsers(dest="server_action", metavar="admin")
    admin = actions.add_parser(
        "admin",
        help=_("list the tables and players, end a table, or ban a key"),
        allow_abbrev=False,
    )
    admin.add_argument(
        "action",
        choices=("list", "end", "ban", "reports"),
        help=_(
            "list the tables and players, end TABLE, ban KEY (ed25519:...), or read the "
            "players' reports"
        ),
    )
    admin.add_argument("argument", nargs="?", metavar="TABLE|KEY")
    admin.add_argument(
        "--data",
        type=Path,
        metavar="DIR",
        dest="admin_data",
        help=_("the server's directory (default: 'server' in bela's data directory)"),
    )

    online: argparse.ArgumentParser = commands.add_parser(
        "online",
        help=_(COMMANDS["online"]),
        description=_(
            "Sign in at a public server (bela server) with your key, made on first use, and "
            "list its tables; or take a seat: a quick match, a new table, a table from the "
            "list, a private table's code. The server's certificate is pinned on first use."
        ),
        allow_abbrev=False,
    )
    online.add_argument("address", metavar="HOST[:PORT]")
    online.add_argument(
        "--name", type=table_name, help=_("your name for a new account or as a guest")
    )
    online.add_argument("--guest", action="store_true", help=_("play unrated, without a key"))
    group = online.add_mutually_exclusive_group()
    group.add_argument("--list", action="store_true", help=_("list the tables (the default)"))
    group.add_argument("--leaders", action="store_true", help=_("show the leaderboard"))
    group.add_argument("--rename", type=table_name, metavar="NAME", help=_("change your name"))
    group.add_argument(
        "--block",
        type=table_name,
        metavar="NAME",
        help=_("never be seated with NAME again (their tables are not listed for you)"),
    )
    group.add_argument("--unblock", type=table_name, metavar="NAME", help=_("undo --block NAME"))
    group.add_argument(
        "--report",
        nargs=2,
        metavar=("NAME", "WHAT"),
        help=_("report a player to the server's operator, saying what happened"),
    )
    group.add_argument(
        "--player",
        type=table_name,
        metavar="NAME",
        help=_("a player's page: rating over time, the newest matches, reliability"),
    )
    group.add_argument(
        "--quick", action="store_true", help=_("quick match: seated with players near your rating")
    )
    group.add_argument("--create", action="store_true", help=_("create a table and sit at it"))
    group.add_argument("--join", metavar="TABLE", help=_("sit at a public table from the list"))
    group.add_argument("--code", metavar="CODE", help=_("sit at a private table by its code"))
    group.add_argument("--watch", metavar="TABLE", help=_("watch a public table"))
    group.add_argument(
        "--accept",
        type=table_name,
        metavar="NAME",
        help=_("accept NAME's invitation: sit at their table (the list shows invitations)"),
    )
    group.add_argument(
        "--decline", type=table_name, metavar="NAME", help=_("decline NAME's invitation")
    )
    group.add_argument(
        "--mute",
        type=table_name,
        metavar="NAME",
        help=_("no longer see NAME's table talk, at any table (--unmute NAME)"),
    )
    group.add_argument("--unmute", type=table_name, metavar="NAME", help=_("undo --mute NAME"))
    group.add_argument(
        "--league", action="store_true", help=_("your division of the weekly league")
    )
    online.add_argument(
        "--invite",
        type=table_name,
        action="append",
        metavar="NAME",
        help=_(
            "--create: invite NAME to the new table (up to three; alone, it creates one); "
            "NAME sits there without the code of a private table"
        ),
    )
    online.add_argument("--target", type=_target, default=1001, help=_("the match's target"))
    online.add_argument(
        "--wait",
        type=_wait,
        default=60,
        metavar="SECONDS",
        help=_("quick match: seconds to wait before bots fill the empty seats (default 60)"),
    )
    online.add_argument(
        "--private", action="store_true", help=_("--create: a private table, joined by its code")
    )
    online.add_argument(
        "--unrated", action="store_true", help=_("--create: the table's matches are not rated")
    )
    online.add_argument(
        "--rules",
        type=parse_rules,
        metavar="NAMES",
        help=_("--create: the table's house rules; the names are those of 'bela play --help'"),
    )


def online_command_options(
    args: argparse.Namespace,
) -> ServerCommandOptions | AdminOptions | OnlineOptions:
    if args.command == "server":
        if args.server_action == "admin":
            if args.action in ("end", "ban") and not args.argument:
                raise CliError(_("say which table or key"), 2)
            return AdminOptions(args.admin_data or args.data, args.action, args.argument)
        return ServerCommandOptions(
            args.port,
            args.public,
            args.data,
            args.bots,
            args.wait,
            args.ssh_port,
            args.postgres,
            args.redis,
            args.workers,
            args.worker_port,
            args.web_port,
            args.web_tabs,
            args.web_cert,
            args.web_key,
            args.web_http,
            args.advertise,
            args.listen,
        )
    action, argument = "list" if args.list else "default", None
    for name in ("leaders", "quick", "create", "league"):
        if getattr(args, name):
            action = name
    for name in (
        "rename",
        "player",
        "block",
        "unblock",
        "join",
        "code",
        "watch",
        "accept",
        "decline",
        "mute",
        "unmute",
    ):
        if getattr(args, name) is not None:
            action, argument = name, getattr(args, name)
    reason = None
    if args.report is not None:
        action, argument, reason = "report", str(args.report[0]), str(args.report[1])
    invite = tuple(args.invite or ())
    if invite:
        if action in ("default", "list") and not args.list:
            action = "create"  # --invite alone: a new table, the invitations with it
        if action != "create":
            raise CliError(_("--invite goes with --create"), 2)
        if len(invite) > 3:
            raise CliError(_("at most three players can be invited to a table"), 2)
    return OnlineOptions(
        address=args.address,
        name=args.name or _default_name(),
        guest=args.guest,
        action=action,
        argument=argument,
        target=args.target,
        wait=args.wait,
        private=args.private,
        unrated=args.unrated,
        reason=reason,
        rules=args.rules.changed() if args.rules is not None else {},
        invite=invite,
    )


def _server_dir(data: Path | None) -> Path:
    if data is not None:
        return data
    from bela.archive.storage import data_dir

    return data_dir() / "server"


# ---------------------------------------------------------------------- bela server


def run_server(options: ServerCommandOptions, out: TextIO, err: TextIO) -> int:
    optional_module("cryptography", _(NEEDS_NET))
    if options.ssh_port is not None:
        optional_module("asyncssh", _(NEEDS_NET))
    if options.web_port is not None:
        optional_module("textual_serve.server", _(NEEDS_NET))
    elif options.web_cert is not None or options.web_key is not None or options.web_http:
        raise CliError(_("--web-cert, --web-key and --web-http go with --web-port"), 2)
    if options.postgres is not None:
        optional_module("psycopg", _(NEEDS_SERVER))
    if options.redis is not None:
        optional_module("redis", _(NEEDS_SERVER))
    if (options.workers > 1 or options.worker_port is not None) and (
        options.redis is None or options.postgres is None
    ):
        raise CliError(_("--workers needs --redis and --postgres (the workers share them)"), 2)
    if options.advertise is not None and options.workers < 2 and options.worker_port is None:
        raise CliError(_("--advertise goes with --workers (the workers on several machines)"), 2)
    if options.worker_port is not None:
        return _run_worker(options, err)
    if options.workers > 1:
        return _run_workers(options, out, err)
    from bela.net.online_server import OnlineServer, online_options

    host = options.bind

    say = _say(err)

    async def main() -> None:
        stores = _shared_stores(options)
        server = OnlineServer(
            _server_dir(options.data),
            online_options(difficulty=options.bots, wait=options.wait),
            say=say,
            **stores,
        )
        try:
            bound = await server.start(host, options.port)
        except OSError as exc:
            await server.close()
            raise CliError(
                _("cannot listen on port {port}: {reason}").format(
                    port=options.port, reason=oneline(exc.strerror or exc)
                ),
                EXIT_ENVIRONMENT,
            ) from None
        where = f"{bound[0]}:{bound[1]}"
        print(
            _("The public server listens at {where} (TLS, certificate {fingerprint}).").format(
                where=where, fingerprint=server.fingerprint
            ),
            file=out,
            flush=True,
        )
        print(
            _("Players connect with:  {command}").format(command=f"bela online HOST:{bound[1]}"),
            file=out,
            flush=True,
        )
        try:
            door, web = await _start_doors(server, host, bound[1], options, server.data, out)
        except CliError:
            await server.close()
            raise
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(signal.SIGTERM, stop.set)
        try:
            await stop.wait()
        finally:
            await _close_doors(door, web)
            await server.close()

    asyncio.run(main())
    return 0


async def _start_doors(
    gatekeeper: Any,
    host: str,
    public_port: int,
    options: ServerCommandOptions,
    data: Path,
    out: TextIO,
) -> tuple[Any, Any]:
    """The SSH door and the browser page, where the options ask for them: each session's
    and each page's ``bela online`` signs in at ``public_port`` (the one process, or the
    front door of many workers, which sends it on to a worker as any client)."""
    door = None
    if options.ssh_port is not None:
        from bela.net.ssh import start_public_ssh

        inside = "127.0.0.1" if host in ("0.0.0.0", "::") else host
        try:
            door = await start_public_ssh(
                gatekeeper, host, options.ssh_port, public_port, data, inside
            )
        except OSError as exc:
            raise CliError(
                _("cannot listen on port {port}: {reason}").format(
                    port=options.ssh_port, reason=oneline(exc.strerror or exc)
                ),
                EXIT_ENVIRONMENT,
            ) from None
        ssh_port = door.sockets[0].getsockname()[1]
        print(
            _("SSH players connect with:  {command}").format(
                command=f"ssh -p {ssh_port} NAME@HOST"
            ),
            file=out,
            flush=True,
        )
    web = None
    if options.web_port is not None:
        try:
            web = await _start_web(host, options.web_port, public_port, options, data, out)
        except CliError:
            await _close_doors(door, None)
            raise
    return door, web


async def _close_doors(door: Any, web: Any) -> None:
    if door is not None:
        door.close()
        await door.wait_closed()
    if web is not None:
        await web.cleanup()


def _say(err: TextIO, worker: int | None = None) -> Any:
    """The event lines' writer. Each line goes out in one write (print writes the line and
    its newline apart), so the lines of ``--workers N``'s processes, which share one
    standard error, never run into each other; a worker's lines name its port, so the
    operator sees which worker holds a table (found in the issue #39 acceptance run)."""

    def say(line: str) -> None:
        if worker is not None and line.startswith("bela server: "):
            line = f"bela server [{worker}]: " + line.removeprefix("bela server: ")
        with contextlib.suppress(OSError, ValueError):
            err.write(line + "\n")
            err.flush()

    return say


async def _until_stopped() -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    with contextlib.suppress(NotImplementedError):
        loop.add_signal_handler(signal.SIGTERM, stop.set)
    await stop.wait()


def _run_worker(options: ServerCommandOptions, err: TextIO) -> int:
    """One worker's process (``--worker-port``, started by ``bela server --workers N``)."""
    from bela.net.online_server import online_options
    from bela.net.workers import WORKER_ALIVE, WorkerServer, worker_name

    assert options.worker_port is not None
    host = options.bind
    machine = options.advertise or (_hostname() if host == "0.0.0.0" else host)
    name = worker_name(machine, options.worker_port)

    async def main() -> None:
        stores = _shared_stores(options, worker=name, alive=WORKER_ALIVE)
        server = WorkerServer(
            _server_dir(options.data),
            online_options(difficulty=options.bots, wait=options.wait),
            stores["accounts"],
            stores["directory"],
            stores["live"],
            say=_say(err, options.worker_port),
            advertise=options.advertise,
        )
        try:
            await server.start(host, options.worker_port or 0)
        except OSError as exc:
            await server.close()
            raise CliError(
                _("cannot listen on port {port}: {reason}").format(
                    port=options.worker_port, reason=oneline(exc.strerror or exc)
                ),
                EXIT_ENVIRONMENT,
            ) from None
        try:
            await _until_stopped()
        finally:
            await server.close()

    asyncio.run(main())
    return 0


def _hostname() -> str:
    import socket

    return oneline(socket.gethostname(), 60)


def _run_workers(options: ServerCommandOptions, out: TextIO, err: TextIO) -> int:
    """The front door on the public port and ``options.workers`` worker processes."""
    from bela.net.store_redis import RedisDirectory
    from bela.net.supervisor import Supervisor, worker_ports

    assert options.redis is not None and options.postgres is not None
    host = options.bind
    data = _server_dir(options.data)
    args = ["--data", str(data), "--bots", options.bots, "--wait", str(options.wait)]
    args += ["--postgres", options.postgres, "--redis", options.redis]
    if options.public:
        args.append("--public")
    for flag, value in (("--advertise", options.advertise), ("--listen", options.listen)):
        if value is not None:
            args += [flag, value]
    door_name = f"door:{options.advertise}:{options.port}" if options.advertise else None

    async def main() -> None:
        import redis

        try:
            directory = RedisDirectory(
                options.redis or "", worker=door_name or f"door:{options.port}"
            )
        except (redis.RedisError, ValueError) as exc:
            raise CliError(
                _("cannot use Redis: {reason}").format(reason=oneline(exc)), EXIT_ENVIRONMENT
            ) from None
        supervisor = Supervisor(
            data,
            options.workers,
            args,
            directory.addresses,
            _say(err),
            advertise=options.advertise,
        )
        try:
            bound = await supervisor.start(host, options.port)
        except OSError as exc:
            directory.close()
            raise CliError(
                _("cannot listen on port {port}: {reason}").format(
                    port=options.port, reason=oneline(exc.strerror or exc)
                ),
                EXIT_ENVIRONMENT,
            ) from None
        ports = worker_ports(bound[1], options.workers)
        print(
            _("The public server listens at {where} (TLS, certificate {fingerprint}).").format(
                where=f"{bound[0]}:{bound[1]}", fingerprint=supervisor.fingerprint
            ),
            file=out,
            flush=True,
        )
        print(
            _("Workers listen on ports {first} to {last} (players must reach them too).").format(
                first=ports[0], last=ports[-1]
            ),
            file=out,
            flush=True,
        )
        print(
            _("Players connect with:  {command}").format(command=f"bela online HOST:{bound[1]}"),
            file=out,
            flush=True,
        )
        assert supervisor.door is not None
        try:
            door, web = await _start_doors(supervisor.door, host, bound[1], options, data, out)
        except CliError:
            await supervisor.close()
            directory.close()
            raise
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(signal.SIGTERM, stop.set)
        try:
            await supervisor.watch(stop)
        finally:
            await _close_doors(door, web)
            await supervisor.close()
            directory.close()

    asyncio.run(main())
    return 0


async def _start_web(
    host: str, port: int, tls_port: int, options: ServerCommandOptions, data: Path, out: TextIO
) -> Any:
    """The lobby in a browser: textual-serve in this event loop, each page's app
    (``bela.net.web_session``) signing in over localhost; the page needs no key (the server
    is public) and at most ``options.web_tabs`` run at once (``bela.net.web_door``). Over
    HTTPS (the default: the server's own certificate, or ``--web-cert``) a browser keeps
    an account in its home under ``data`` (``bela.net.web_accounts``); over plain HTTP
    (``--web-http``) every page is a guest."""
    import shlex

    from aiohttp import web

    from bela.net.web_accounts import homes_root, sweep
    from bela.net.web_door import guarded_server

    tls = None if options.web_http else _web_tls(options, data)
    scheme = "http" if tls is None else "https"
    accounts = homes_root(data)
    sweep(accounts)
    shown_host = "HOST" if host == "0.0.0.0" else host
    inside = "127.0.0.1" if host in ("0.0.0.0", "::") else host  # where the pages sign in
    command = shlex.join([sys.executable, "-m", "bela.net.web_session", f"{inside}:{tls_port}"])
    page = guarded_server(
        command,
        host,
        port,
        f"{scheme}://{shown_host}:{port}",
        None,
        options.web_tabs,
        quiet=True,
        accounts=accounts,
    )
    runner = web.AppRunner(await page._make_app())
    await runner.setup()
    try:
        await web.TCPSite(runner, host, port, ssl_context=tls).start()
    except OSError as exc:
        await runner.cleanup()
        raise CliError(
            _("cannot listen on port {port}: {reason}").format(
                port=port, reason=oneline(exc.strerror or exc)
            ),
            EXIT_ENVIRONMENT,
        ) from None
    bound = runner.addresses[0][1] if runner.addresses else port
    print(
        _("Browser players open:  {url}").format(url=f"{scheme}://{shown_host}:{bound}/"),
        file=out,
        flush=True,
    )
    if tls is not None and options.web_cert is None:
        print(
            _(
                "The page shows the server's own certificate, which browsers warn about "
                "(its fingerprint is the one above); give --web-cert and --web-key for one "
                "they trust."
            ),
            file=out,
            flush=True,
        )
    return runner


def _web_tls(options: ServerCommandOptions, data: Path) -> Any:
    """The page's TLS: ``--web-cert`` and ``--web-key``, else the server's own certificate
    (``server_cert.pem`` in the data directory, made on first run)."""
    from bela.net.identity import load_or_make_certificate, server_context

    if (options.web_cert is None) != (options.web_key is None):
        raise CliError(_("--web-cert and --web-key go together"), 2)
    if options.web_cert is not None and options.web_key is not None:
        cert, key = options.web_cert, options.web_key
    else:
        cert, key, _fingerprint = load_or_make_certificate(data)
    try:
        return server_context(cert, key)
    except (OSError, ValueError) as exc:  # ssl.SSLError is an OSError
        raise CliError(
            _("cannot use the certificate {file}: {reason}").format(
                file=shown(str(cert)), reason=oneline(exc)
            ),
            EXIT_ENVIRONMENT,
        ) from None


def _shared_stores(
    options: ServerCommandOptions, worker: str | None = None, alive: int | None = None
) -> dict[str, Any]:
    """The accounts on PostgreSQL and the directory on Redis, where the options name them
    (``OnlineServer``'s keywords); ``CliError`` with the reason when one cannot be reached."""
    stores: dict[str, Any] = {}
    if options.postgres is not None:
        import psycopg

        from bela.net.live_postgres import PostgresLiveTables
        from bela.net.store_postgres import PostgresStore

        try:
            stores["accounts"] = PostgresStore(options.postgres)
            stores["live"] = PostgresLiveTables(options.postgres)
        except psycopg.Error as exc:
            for store in stores.values():
                store.close()
            raise CliError(
                _("cannot use the PostgreSQL database: {reason}").format(reason=oneline(exc)),
                EXIT_ENVIRONMENT,
            ) from None
    if options.redis is not None:
        import socket

        import redis

        from bela.net.store_redis import ALIVE_SECONDS, RedisDirectory

        try:
            name = worker or f"{oneline(socket.gethostname(), 60)}:{options.port}"
            stores["directory"] = RedisDirectory(
                options.redis, worker=name, alive_seconds=alive or ALIVE_SECONDS
            )
        except (redis.RedisError, ValueError) as exc:
            for store in stores.values():
                store.close()
            raise CliError(
                _("cannot use Redis: {reason}").format(reason=oneline(exc)), EXIT_ENVIRONMENT
            ) from None
    return stores


# ---------------------------------------------------------------------- bela server admin


def _ask(directory: Path, request: dict[str, str]) -> dict[str, Any] | None:
    """The running server's answer, or None when none runs there. A server of many workers
    (``--workers``) has a socket for each (``control-PORT.sock``): each is asked, and their
    answers are put together (the tables and who is online of all; ``ok`` when any said
    so; the reports of the first, which all read from the one database)."""
    single = directory / "control.sock"
    socks = [single] if single.exists() else sorted(directory.glob("control-*.sock"))

    async def talk(sock: Path) -> dict[str, Any]:
        connecting = asyncio.open_unix_connection(str(sock), limit=1 << 20)
        reader, writer = await asyncio.wait_for(connecting, 5)
        writer.write(json.dumps(request).encode() + b"\n")
        await writer.drain()
        line = await asyncio.wait_for(reader.readline(), 10)
        writer.close()
        answer = json.loads(line)
        return answer if isinstance(answer, dict) else {}

    answers = []
    for sock in socks or [single]:
        with contextlib.suppress(OSError, TimeoutError, ValueError):
            answers.append(asyncio.run(talk(sock)))
    if not answers:
        return None
    merged: dict[str, Any] = dict(answers[0])
    merged["ok"] = any(answer.get("ok") for answer in answers)
    for field_name in ("tables", "online"):
        lists = [answer.get(field_name) for answer in answers]
        merged[field_name] = [item for found in lists if isinstance(found, list) for item in found]
    return merged


def run_admin(options: AdminOptions, out: TextIO, err: TextIO) -> int:
    directory = _server_dir(options.data)
    request = {"do": options.action}
    if options.action == "reports":  # the running server's store, or else its SQLite file
        answer = _ask(directory, request)
        if answer is not None and isinstance(answer.get("reports"), list):
            return _print_reports(directory, out, answer["reports"])
        return _print_reports(directory, out)
    if options.action == "end":
        request["table"] = options.argument or ""
    elif options.action == "ban":
        request["key"] = options.argument or ""
    answer = _ask(directory, request)
    if answer is None:
        if options.action == "ban":  # kept for the next start
            optional_module("cryptography", _(NEEDS_NET))
            from bela.net.accounts import DB_FILE, SqliteStore

            store = SqliteStore(directory / DB_FILE)
            store.ban(options.argument or "")
            store.close()
            print(_("Banned {key}.").format(key=shown(options.argument or "")), file=out)
            return 0
        raise CliError(
            _("no server is running with the directory {directory}").format(
                directory=shown(str(directory))
            ),
            EXIT_ENVIRONMENT,
        )
    if not answer.get("ok"):
        raise CliError(_("the server refused: no such table"), 2)
    if options.action == "list":
        _print_list(answer, out)
    elif options.action == "end":
        print(_("Ended the table {table}.").format(table=shown(options.argument or "")), file=out)
    else:
        print(_("Banned {key}.").format(key=shown(options.argument or "")), file=out)
    return 0


def _print_reports(directory: Path, out: TextIO, sent: list[Any] | None = None) -> int:
    """The players' reports: ``sent`` by the running server, or else from its SQLite file."""
    if sent is not None:
        reports = [
            tuple(r)
            for r in sent
            if isinstance(r, list) and len(r) == 4 and isinstance(r[0], int | float)
        ]
        return _show_reports(reports, out)
    optional_module("cryptography", _(NEEDS_NET))
    from bela.net.accounts import DB_FILE, SqliteStore

    if not (directory / DB_FILE).exists():
        raise CliError(
            _("no server is running with the directory {directory}").format(
                directory=shown(str(directory))
            ),
            EXIT_ENVIRONMENT,
        )
    store = SqliteStore(directory / DB_FILE)
    try:
        return _show_reports(store.reports(100), out)
    finally:
        store.close()


def _show_reports(reports: list[tuple[Any, ...]], out: TextIO) -> int:
    import time

    for at, by, about, text in reports:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(float(at)))
        who, whom, what = oneline(str(by), 24), oneline(str(about), 24), oneline(str(text), 300)
        print(f"{when}  {who} -> {whom}: {what}", file=out)
    if not reports:
        print(_("No reports."), file=out)
    return 0


def _print_list(answer: dict[str, Any], out: TextIO) -> None:
    tables = answer.get("tables") or []
    if not tables:
        print(_("No tables yet: create one with --create, or ask for a quick match."), file=out)
    for table in tables if isinstance(tables, list) else []:
        seats = table.get("seats") or []
        names = ", ".join(
            "{} [{}]".format(
                oneline(str(s.get("name") or "-"), 24),
                oneline(str(s.get("key") or s.get("kind")), 60),
            )
            for s in seats
        )
        kind = "public" if table.get("public") else "private"
        rated = "rated" if table.get("rated") else "unrated"
        worker = table.get("worker")  # which worker holds it (a server of many: host:port)
        at = f"  @{oneline(str(worker), 80)}" if isinstance(worker, str) and worker else ""
        print(
            f"{oneline(str(table.get('id')), 20)}  {table.get('target')}  {kind} {rated}  "
            f"{names}{at}",
            file=out,
        )
    online = answer.get("online") or []
    for person in online if isinstance(online, list) else []:
        key = oneline(str(person.get("key") or "guest"), 60)
        print(f"online: {oneline(str(person.get('name')), 24)} [{key}]", file=out)


# ---------------------------------------------------------------------- bela online


def _key(options: OnlineOptions) -> Ed25519PrivateKey | None:
    if options.guest:
        return None
    from bela.net.identity import load_or_make_key
    from bela.settings import config_dir

    try:
        return load_or_make_key(options.key_dir or config_dir())
    except (OSError, ValueError) as exc:
        raise CliError(
            _("cannot read or make your key: {reason}").format(reason=oneline(exc)),
            EXIT_ENVIRONMENT,
        ) from None


async def _sign_in(host: str, port: int, options: OnlineOptions, out: TextIO) -> Online:
    from bela.net.client import JoinError
    from bela.net.identity import PinMismatch, Pins
    from bela.net.online_client import Online, in_turn
    from bela.settings import config_dir

    key = _key(options)

    async def connect(at: str, at_port: int) -> Online:
        return await Online.connect(at, at_port, options.name, key, Pins(config_dir()))

    try:
        online, (host, port) = await in_turn(_addresses(host, port, options), connect)
    except PinMismatch as exc:
        raise CliError(
            _(
                "the server at {where} shows another certificate than the first time "
                "({shown}, not {pinned}): somebody may be in between; if its operator made "
                "a new one, remove its line from {file}"
            ).format(
                where=exc.where,
                shown=exc.shown,
                pinned=exc.pinned,
                file=shown(str(Pins(config_dir()).path)),
            ),
            EXIT_ENVIRONMENT,
        ) from None
    except (JoinError, ConnectionError) as exc:
        raise CliError(oneline(exc), EXIT_ENVIRONMENT) from None
    if online.first_use:
        print(
            _("First visit to {where}: its certificate {fingerprint} is pinned.").format(
                where=f"{host}:{port}", fingerprint=online.fingerprint
            ),
            file=out,
        )
    return online


def _addresses(host: str, port: int, options: OnlineOptions) -> list[tuple[str, int]]:
    """``host:port`` first, then the server's other addresses the player gave."""
    return [(host, port), *(a for a in options.also if a != (host, port))]


async def _lobby_answer(online: Online, kinds: tuple[str, ...]) -> Any:
    from bela.net.phrases import render
    from bela.net.protocol import Closing, Refused

    while True:
        message = await asyncio.wait_for(online.receive(), 10)
        if isinstance(message, Refused | Closing):
            raise CliError(render(message.reason, message.code, message.args), 2)
        if message.type in kinds:
            return message


def run_online(options: OnlineOptions, out: TextIO, err: TextIO) -> int:
    optional_module("cryptography", _(NEEDS_NET))
    from bela.net.client import parse_address

    addresses = []
    for text in options.address.split(","):  # several machines of one server, in turn
        try:
            found = parse_address(text)
        except ValueError as exc:
            raise CliError(
                _("bad address {address}: {reason}").format(
                    address=shown(text), reason=oneline(exc)
                ),
                2,
            ) from None
        if ":" not in text.rstrip("]"):
            found = (found[0], DEFAULT_ONLINE_PORT)
        addresses.append(found)
    (host, port), options = addresses[0], replace(options, also=tuple(addresses[1:]))

    async def lobby() -> None:
        online = await _sign_in(host, port, options, out)
        hi = online.hi
        print(
            _("Signed in as {name} ({standing}).").format(
                name=oneline(hi.name, 24),
                standing=standing(hi.rating, hi.provisional, hi.reliability),
            ),
            file=out,
        )
        try:
            if options.action == "list":
                await online.send({"type": "tables"})
                listing = await _lobby_answer(online, ("tables",))
                _print_tables(listing, out)
                if not hi.guest:
                    await online.send({"type": "invites"})
                    _print_invites(await _lobby_answer(online, ("invites",)), out)
            elif options.action == "leaders":
                await online.send({"type": "leaders"})
                _print_lines(leader_lines(await _lobby_answer(online, ("leaders",))), out)
            elif options.action == "league":
                await online.send({"type": "league"})
                _print_lines(league_lines(await _lobby_answer(online, ("league",))), out)
            elif options.action in ("mute", "unmute"):
                on = options.action == "mute"
                await online.send({"type": "mute", "name": options.argument or "", "on": on})
                done = await _lobby_answer(online, ("muted",))
                said = (
                    _("You will not see what {name} says at the table.")
                    if on
                    else _("You see what {name} says at the table again.")
                )
                print(said.format(name=oneline(done.name, 24)), file=out)
            elif options.action == "decline":
                request = {"type": "answer", "name": options.argument or "", "accept": False}
                await online.send(request)
                done = await _lobby_answer(online, ("declined",))
                print(
                    _("You declined {name}'s invitation.").format(name=oneline(done.name, 24)),
                    file=out,
                )
            elif options.action in ("block", "unblock"):
                on = options.action == "block"
                await online.send({"type": "block", "name": options.argument or "", "on": on})
                done = await _lobby_answer(online, ("blocked",))
                name = oneline(done.name, 24)
                said = (
                    _("You will not be seated with {name}.")
                    if on
                    else _("{name} is no longer blocked.")
                )
                print(said.format(name=name), file=out)
            elif options.action == "report":
                text = options.reason or ""
                await online.send({"type": "report", "name": options.argument or "", "text": text})
                done = await _lobby_answer(online, ("reported",))
                print(
                    _("Reported {name} to the server's operator.").format(
                        name=oneline(done.name, 24)
                    ),
                    file=out,
                )
            elif options.action == "player":
                await online.send({"type": "player", "name": options.argument or ""})
                _print_lines(player_lines(await _lobby_answer(online, ("player",))), out)
            elif options.action == "rename":
                await online.send({"type": "rename", "name": options.argument or ""})
                renamed = await _lobby_answer(online, ("renamed",))
                print(_("You are {name} now.").format(name=oneline(renamed.name, 24)), file=out)
        finally:
            await online.close()

    if options.action == "default":  # the lobby in the app, in a terminal; else the list
        if _in_browser():  # a page of bela server --web-port: stdout is the page's line
            return _lobby_app(host, port, options, sys.stderr)
        if sys.stdin.isatty() and out.isatty():
            return _lobby_app(host, port, options, out)
        options = replace(options, action="list")
    if options.action in (
        "list",
        "leaders",
        "rename",
        "player",
        "block",
        "unblock",
        "report",
        "league",
        "mute",
        "unmute",
        "decline",
    ):
        asyncio.run(lobby())
        return 0
    return _play(host, port, options, out)


def _in_browser() -> bool:
    """textual-serve runs this process for a browser page (its web driver is set)."""
    import os

    return os.environ.get("TEXTUAL_DRIVER", "").startswith("textual.drivers.web_driver")


def _print_lines(lines: list[str], out: TextIO) -> None:
    for line in lines:
        print(line, file=out)


def _print_invites(found: Any, out: TextIO) -> None:
    """The invitations waiting for this account, each with how to answer it."""
    for invite in found.invites:
        print(invite_line(invite), file=out)
        print(
            "  "
            + _("Accept with --accept {name}, decline with --decline {name}.").format(
                name=oneline(invite.name, 24)
            ),
            file=out,
        )


def _print_tables(listing: Any, out: TextIO) -> None:
    if not listing.tables:
        print(_("No tables yet: create one with --create, or ask for a quick match."), file=out)
    for table in listing.tables:
        seats = ", ".join(
            f"{oneline(s.name, 24)} ({standing(s.rating, s.provisional, s.reliability)})"
            if s.name
            else (_("open") if s.kind == "open" else _("bot"))
            for s in table.seats
        )
        rated = _("rated") if table.rated else _("unrated")
        state = _("playing") if table.started else _("waiting")
        watchers = len(table.watchers)
        print(f"{table.id}  {table.target}  {rated}  {state}  {seats}  [{watchers}]", file=out)


def _first_sign_in(host: str, port: int, options: OnlineOptions, out: TextIO) -> bool:
    """Sign in once before the app takes the terminal: the pin and the standing are
    printed, and what is wrong (a changed certificate, a taken name) is said in one line.
    True when the account holds a seat in a match (its line dropped): the app goes
    straight back to it."""

    async def first() -> bool:
        online = await _sign_in(host, port, options, out)
        await online.close()
        return online.hi.seated

    return asyncio.run(first())


def _session(
    host: str, port: int, options: OnlineOptions, request: dict[str, object] | None
) -> Any:
    """A seat at the public server as the app's network table takes it: the opener signs in
    and sends ``request`` the first time; after a lost line (or with ``request`` None), the
    server seats the returning account by itself."""
    from bela.net.seat_session import RemoteSession

    session = RemoteSession(
        host,
        port,
        "",
        options.name,
        keep=False,
        watch=request is not None and request.get("type") == "watch",
    )
    order = _addresses(host, port, options)

    async def opener(again: bool) -> Client:
        from bela.net.identity import Pins
        from bela.net.lobby_protocol import Created
        from bela.net.online_client import in_turn, take_seat
        from bela.settings import config_dir

        def created(message: Created) -> None:
            if message.code is not None:  # a private table: its code is for the friends
                session.code = message.code
                session.invite = (
                    _("Friends join with:  {command}").format(
                        command=f"bela online {host}:{port} --code {message.code}"
                    ),
                )

        async def sit(at: str, at_port: int) -> Client:
            return await take_seat(
                at,
                at_port,
                options.name,
                key,
                Pins(config_dir()),
                None if again else request,
                created,
            )

        key = _key(options)
        client, reached = await in_turn(order, sit)
        order.remove(reached)
        order.insert(0, reached)  # the address that answered is tried first next time
        if not session.code:
            welcome = client.welcome or client.watching
            session.code = welcome.table if welcome is not None else ""
        return client

    session.opener = opener
    return session


def _play(host: str, port: int, options: OnlineOptions, out: TextIO) -> int:
    """Open the app at the seat the lobby gives for the command line's request."""
    seated = _first_sign_in(host, port, options, out)
    from bela.tui.app import BelaApp

    request = None if seated else _request(options)  # a seat held already: back to it
    if seated:
        print(
            _("You hold a seat in a match: back to it (the command's request is not sent)."),
            file=out,
        )
    app = BelaApp(remote=_session(host, port, options, request), language=current_language())
    app.run()
    return app.return_code or 0


def _lobby_app(host: str, port: int, options: OnlineOptions, out: TextIO) -> int:
    """Open the app on the lobby's list of tables (``screens.online_lobby``). A browser's
    guest page that may become an account (``bela.net.web_session``) is told how (``n``
    picks a name); one that may not is told why."""
    from bela.tui.app import BelaApp

    if _first_sign_in(host, port, options, out):  # a seat held already: back to it
        app = BelaApp(remote=_session(host, port, options, None), language=current_language())
        app.run()
        return app.return_code or 0
    from bela.tui.screens.online_lobby import OnlineLobby

    now = [options]
    """The player as they sign in now: a browser's guest becomes an account (``account``)."""

    async def listing() -> Any:
        try:
            online = await _sign_in(host, port, now[0], out)
        except CliError as exc:
            raise ConnectionError(str(exc)) from None
        try:
            await online.send({"type": "tables"})
            found = await _lobby_answer(online, ("tables",))
        except CliError as exc:
            raise ConnectionError(str(exc)) from None
        finally:
            await online.close()
        return found.tables

    async def ask(request: dict[str, object], kinds: tuple[str, ...]) -> Any:
        """One lobby request on a connection of its own (signs in, asks, hangs up)."""
        try:
            online = await _sign_in(host, port, now[0], out)
        except CliError as exc:
            raise ConnectionError(str(exc)) from None
        try:
            await online.send(request)
            return await _lobby_answer(online, kinds)
        except CliError as exc:
            raise ConnectionError(str(exc)) from None
        finally:
            await online.close()

    home, note = _web_guest(options)

    async def account(name: str) -> str:
        now[0] = await _web_account(host, port, now[0], home, name, out)
        return now[0].name

    lobby = OnlineLobby(
        f"{host}:{port}",
        listing,
        lambda request: _session(host, port, now[0], request),
        ask,
        account=account if home is not None else None,
        note=note,
    )
    app = BelaApp(online_lobby=lobby, language=current_language())
    app.run()
    return app.return_code or 0


def _web_guest(options: OnlineOptions) -> tuple[Path | None, str]:
    """For a guest's page in a browser (``bela.net.web_session``): the home its account
    would have (None: it cannot have one) and the line that says so; (None, "") elsewhere."""
    import os

    from bela.net.web_accounts import WEB_HOME_ENV, WEB_PLAIN_ENV

    if not options.guest or not _in_browser():
        return None, ""
    home = os.environ.get(WEB_HOME_ENV)
    if home:
        note = _(
            "You play as a guest (unrated tables). n picks your name: this browser then "
            "keeps your account, for rated tables."
        )
        return Path(home), note
    if os.environ.get(WEB_PLAIN_ENV):
        return None, _(
            "You play as a guest (unrated tables): this page is not encrypted (http), so it "
            "keeps no account."
        )
    return None, _(
        "You play as a guest (unrated tables): your browser sent no cookie, so this page "
        "keeps no account."
    )


async def _web_account(
    host: str, port: int, options: OnlineOptions, home: Path | None, name: str, out: TextIO
) -> OnlineOptions:
    """A browser's guest becomes an account named ``name``: its home is made
    (``bela.net.web_accounts``), the key made in it, and the account signed in with it
    (a key already there, made by another tab of the same browser, is that account). A
    refused sign-in (the name taken, say) removes the home it made: ``ConnectionError``
    with the reason. Returns the options that sign in as the account from now on."""
    from bela.net.web_accounts import drop_home, make_home

    if home is None:
        raise ConnectionError(_("This page cannot keep an account."))
    try:
        made = make_home(home)
    except OSError as exc:
        raise ConnectionError(oneline(exc)) from None
    account = replace(options, guest=False, name=name, key_dir=home / "config")
    try:
        online = await _sign_in(host, port, account, out)
    except CliError as exc:
        if made:
            drop_home(home)
        raise ConnectionError(str(exc)) from None
    await online.close()
    return replace(account, name=online.hi.name)


def _request(options: OnlineOptions) -> dict[str, object]:
    if options.action == "quick":
        return {"type": "quick", "target": options.target, "wait": options.wait}
    if options.action == "create":
        return {
            "type": "create",
            "target": options.target,
            "private": options.private,
            "rated": not options.unrated,
            "rules": options.rules,
            **({"invite": list(options.invite)} if options.invite else {}),
        }
    if options.action == "accept":
        return {"type": "answer", "name": options.argument or "", "accept": True}
    if options.action == "join":
        return {"type": "join", "table": options.argument or ""}
    if options.action == "code":
        return {"type": "join", "code": options.argument or ""}
    return {"type": "watch", "table": options.argument or ""}
