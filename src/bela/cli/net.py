"""``bela host``, ``bela join`` and ``bela serve``: play with friends (issue #16).

``bela host`` starts a table and prints how to join it (address and join code).
The host plays too: the server runs in a thread of this process and the app
joins it like any other seat, with the table's leader key so it may start the
match (``--no-play`` only hosts, in the foreground until Ctrl-C). Tables left
unfinished by an earlier host on this data directory are all resumed, with their
codes, so their players can sit down again; the host's app asks which one to sit
at (or a new table) when it starts (``bela.tui.screens.host_choice``); ``--resume
CODE`` and ``--new`` choose without asking (and ``--no-play`` hosts them all, and a
new table). Which table the host's app sits at is said in its table talk.

``bela join ADDRESS CODE`` opens the app as a seat at somebody's table.
``bela serve`` puts the app in a web browser (textual-serve, extra ``net``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import socket
import sys
import threading
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Final, TextIO

from bela.cli.common import EXIT_ENVIRONMENT, CliError, optional_module
from bela.cli.net_args import LEVELS, bot_level, login_name, port_number, table_name
from bela.deck import current_deck
from bela.foundation.untrusted import oneline, shown
from bela.i18n import _, current_language, ngettext

if TYPE_CHECKING:
    from bela.net.server import Server
    from bela.net.table import Table
    from bela.tui.screens.host_choice import HostChoice, UnfinishedTable

__all__ = [
    "HostOptions",
    "JoinOptions",
    "ServeOptions",
    "add_net_parsers",
    "login_name",
    "net_options",
    "run_host",
    "run_join",
    "run_serve",
]

MAX_WAIT: Final = 3600.0


@dataclass(frozen=True, slots=True)
class HostOptions:
    port: int
    public: bool
    bots: str | None
    """None: not given (a resumed table keeps its own; a new one has easy bots)."""
    wait: float
    ssh: int | None
    play: bool
    name: str
    target: int | None
    """None: not given (a resumed table keeps its own; a new one plays to 1001)."""
    bot_delay: float
    clock: float = 0.0
    new: bool = False
    """Start a new table even when unfinished ones are there (they stay open too)."""
    resume: str | None = None
    """The unfinished table (by join code) the host's app sits at."""
    plain: bool = False
    """``--plain``: the host's seat as lines of text (``bela.cli.plain_seat``)."""
    words: bool = False


@dataclass(frozen=True, slots=True)
class JoinOptions:
    address: str
    code: str
    name: str
    fresh: bool = False
    record: bool = True
    watch: bool = False
    plain: bool = False
    """``--plain``: the seat as lines of text (``bela.cli.plain_seat``); also chosen by
    itself where the app cannot run (``bela.cli.play.wants_plain``)."""
    words: bool = False


@dataclass(frozen=True, slots=True)
class ServeOptions:
    port: int
    public: bool
    join: tuple[str, str] | None = None
    name: str = "web"
    tabs: int = 4
    """Pages open at once, at most (``bela.net.web_door.DEFAULT_TABS``)."""


def _tabs(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 64:
        raise argparse.ArgumentTypeError(
            _("pages at once is a number 1 to 64, not {text}").format(text=shown(text))
        )
    return int(text)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value <= MAX_WAIT:
        raise argparse.ArgumentTypeError(
            _("expected seconds from 0 to {most}, not {text}").format(
                most=f"{MAX_WAIT:g}", text=shown(text)
            )
        )
    return value


def join_line(where: str, code: str) -> str:
    """What the host tells friends to paste as it is: their name comes from their own
    settings or login (``default_name``), so the line names nobody."""
    return _("Friends join with:  {command}").format(command=f"bela join {where} {code}")


def default_name(command: str) -> str:
    """The name at the table when ``--name`` is not given: the player's name from the
    settings (F2), else a word for the role in the player's language (never "host")."""
    from bela.settings import saved_player_name

    saved = saved_player_name()
    if saved and command != "serve":
        return saved
    if command == "host":
        return _("Host")
    if command == "join":
        return login_name()  # tells friends apart when they paste the host's line as it is
    return _("Guest")


def add_net_parsers(commands: Any, target: Any, targets_shown: str) -> None:
    """Add ``host``, ``join`` and ``serve`` to ``commands`` (argparse's subparsers)."""
    from bela.cli.options import COMMANDS
    from bela.net import DEFAULT_PORT  # the package alone: no pydantic before it is needed
    from bela.net.web_door import DEFAULT_TABS

    host: argparse.ArgumentParser = commands.add_parser(
        "host",
        help=_(COMMANDS["host"]),
        description=_(
            "Start a table and print its address and join code; friends join with "
            "'bela join ADDRESS CODE'. Empty seats are bots. You play at the table too, and "
            "start the match with g once everybody is seated. Binds to this machine only "
            "unless --public."
        ),
        epilog=_("example: {example}").format(
            example="bela host --public --bots normal   (bela join HOST:4711 CODE --name Ana)"
        ),
        allow_abbrev=False,
    )
    host.add_argument(
        "--port",
        type=port_number,
        default=DEFAULT_PORT,
        help=_("TCP port (default {port})").format(port=DEFAULT_PORT),
    )
    host.add_argument(
        "--public",
        action="store_true",
        help=_("accept players from other machines (binds every interface, not just localhost)"),
    )
    host.add_argument(
        "--bots",
        type=bot_level,
        default=None,
        metavar="LEVEL",
        help=_("bots in empty seats: {levels} (default easy)").format(levels=", ".join(LEVELS)),
    )
    host.add_argument(
        "--wait",
        type=_seconds,
        default=60.0,
        metavar="SECONDS",
        help=_("how long a dropped player's seat waits before a bot plays it (default 60)"),
    )
    host.add_argument(
        "--ssh",
        type=port_number,
        metavar="PORT",
        help=_(
            "also accept 'ssh -p PORT NAME@HOST' (password: the join code); needs the "
            "'net' extra (pip install 'croatian-bela[net]')"
        ),
    )
    host.add_argument(
        "--no-play", dest="play", action="store_false", help=_("only host; do not open the app")
    )
    host.add_argument(
        "--name",
        type=table_name,
        help=_("your name at the table (default: your name in the settings)"),
    )
    host.add_argument(
        "--target",
        type=target,
        default=None,
        metavar=targets_shown,
        help=_("the match's target (default 1001)"),
    )
    host.add_argument(
        "--new",
        action="store_true",
        help=_(
            "start a new table even if an earlier one is unfinished (that one stays open "
            "for its players)"
        ),
    )
    host.add_argument(
        "--resume",
        metavar="CODE",
        help=_("which unfinished table to play at, by its join code (without it the app asks)"),
    )
    host.add_argument(
        "--clock",
        type=_seconds,
        default=0.0,
        metavar="SECONDS",
        help=_(
            "seconds a player has for a turn: they are warned, then a bot plays that one "
            "turn for them (default 0: no clock, everybody plays at their own pace)"
        ),
    )
    host.add_argument(
        "--bot-delay",
        type=_seconds,
        default=0.6,
        metavar="SECONDS",
        help=_("pause before each bot action, so people can follow (default 0.6)"),
    )
    _plain_arguments(host)

    join: argparse.ArgumentParser = commands.add_parser(
        "join",
        help=_(COMMANDS["join"]),
        description=_("Join a table hosted with 'bela host': the same app, as one seat."),
        epilog=_("example: {example}").format(
            example="bela join 192.168.1.20:4711 K7QF-M2XP-R9 --name Ana"
        ),
        allow_abbrev=False,
    )
    join.add_argument("address", metavar="ADDRESS", help=_("HOST or HOST:PORT the host printed"))
    join.add_argument("code", metavar="CODE", help=_("the join code the host printed"))
    join.add_argument(
        "--name",
        type=table_name,
        default=None,
        help=_("your name at the table (default: your name in the settings, else your login name)"),
    )
    join.add_argument(
        "--fresh",
        action="store_true",
        help=_("take a new seat even if this machine kept a token for this table and name"),
    )
    join.add_argument(
        "--watch",
        action="store_true",
        help=_(
            "watch the table without a seat: the bids, the tricks and the score, never a "
            "hand (a player may show you theirs)"
        ),
    )
    _plain_arguments(join)
    join.add_argument(
        "--no-record",
        dest="record",
        action="store_false",
        help=_(
            "do not keep a copy of the match in this machine's archive (the SSH sessions run "
            "on the host's machine: the host keeps the record)"
        ),
    )

    serve: argparse.ArgumentParser = commands.add_parser(
        "serve",
        help=_(COMMANDS["serve"]),
        description=_(
            "Serve the app to a web browser with textual-serve: each browser tab gets "
            "its own app, a single-player game, or with --join a seat at a hosted table."
        ),
        epilog=_("examples: {examples}").format(
            examples="bela serve   |   bela serve --join 127.0.0.1:4711 CODE --name Ana"
        ),
        allow_abbrev=False,
    )
    serve.add_argument(
        "--port",
        type=port_number,
        default=8000,
        help=_("HTTP port (default {port})").format(port=8000),
    )
    serve.add_argument("--public", action="store_true", help=_("accept other machines"))
    serve.add_argument(
        "--join",
        nargs=2,
        metavar=("ADDRESS", "CODE"),
        help=_("each browser tab takes a seat at this table instead of playing alone"),
    )
    serve.add_argument("--name", type=table_name, help=_("the name at the table"))
    serve.add_argument(
        "--tabs",
        type=_tabs,
        default=DEFAULT_TABS,
        help=_("pages open at once, at most (default {n})").format(n=DEFAULT_TABS),
    )


def _plain_arguments(parser: argparse.ArgumentParser) -> None:
    """``--plain`` and ``--words``, as ``bela play`` has them: a seat as lines of text."""
    parser.add_argument(
        "--plain",
        action="store_true",
        help=_(
            "play as lines of text, one sentence for each event, answered by typing: for "
            "screen readers and terminals that cannot draw the app (chosen by itself when "
            "TERM=dumb or when input or output is not a terminal)"
        ),
    )
    parser.add_argument(
        "--words",
        action="store_true",
        help=_(
            "in plain mode, write each card's suit as a word (9 of spades, not 9♠), as a "
            "screen reader should say it"
        ),
    )


def _plain(given: bool) -> bool:
    """Whether this seat plays as lines of text: asked for, or where the app cannot run."""
    import os

    from bela.cli.play import wants_plain

    return wants_plain(given, sys.stdin, sys.stdout, dict(os.environ))


def net_options(args: argparse.Namespace) -> HostOptions | JoinOptions | ServeOptions:
    if args.command == "host":
        return HostOptions(
            port=args.port,
            public=args.public,
            bots=args.bots,
            wait=args.wait,
            ssh=args.ssh,
            play=args.play,
            name=args.name or default_name("host"),
            target=args.target,
            bot_delay=args.bot_delay,
            clock=args.clock,
            new=args.new,
            resume=args.resume,
            plain=args.plain,
            words=args.words,
        )
    if args.command == "join":
        return JoinOptions(
            address=args.address,
            code=args.code,
            name=args.name if args.name is not None else default_name("join"),
            fresh=args.fresh,
            record=args.record,
            watch=args.watch,
            plain=args.plain,
            words=args.words,
        )
    join = None if args.join is None else (str(args.join[0]), str(args.join[1]))
    name = args.name or default_name("serve")
    return ServeOptions(port=args.port, public=args.public, join=join, name=name, tabs=args.tabs)


# ---------------------------------------------------------------------- bela host


def _shown_host(public: bool) -> str:
    """The address friends type: this machine's LAN address with --public, else localhost."""
    if not public:
        return "127.0.0.1"
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("192.0.2.1", 9))  # a documentation address: nothing is sent
        return str(probe.getsockname()[0])
    # the machine's name comes from its configuration: printed and shown through the gate
    return oneline(socket.gethostname(), 253)


class HostBusyError(RuntimeError):
    """Another ``bela host`` holds this data directory's tables."""


def _log_line(line: str) -> None:
    """The host's log while its app has the terminal (a line on standard error would be
    drawn over the app): ``host.log`` in the data directory."""
    from bela.archive.storage import data_dir

    with contextlib.suppress(OSError):
        data_dir().mkdir(parents=True, exist_ok=True)
        with (data_dir() / "host.log").open("a") as log:
            log.write(line + "\n")


class HostChoiceError(ValueError):
    """The options do not say which table to host (or would not apply to it)."""


def _about(table: Table) -> str:
    """An unfinished table in a few words: its target, its players, the score."""
    match = table.match
    scores = match.scores if match is not None else (0, 0)
    return _about_of(table.target, [s.name for s in table.seats], scores)


def _last_played(server: Server, table: Table) -> float | None:
    """When ``table`` was last saved (its snapshot or journal, whichever is newer)."""
    saver = server.saver
    if saver is None:
        return None
    times = []
    for path in (saver.path(table.table_id), saver.journal(table.table_id)):
        with contextlib.suppress(OSError):
            times.append(path.stat().st_mtime)
    return max(times, default=None)


def _unfinished(table: Table, played: float | None) -> UnfinishedTable:
    from bela.tui.screens.host_choice import UnfinishedTable

    match = table.match
    return UnfinishedTable(
        code=table.code,
        target=table.target,
        names=tuple(s.name for s in table.seats),
        scores=match.scores if match is not None else (0, 0),
        last_played=played,
    )


def _about_of(target: int, names: Sequence[str | None], scores: tuple[int, int]) -> str:
    """A table's target and each pair with its score ("Ana and Ivo 23 : 411 Mia and Luka")."""
    from bela.net.phrases import seated_pairs

    pair0, pair1 = seated_pairs(names)
    return _("to {target}: {pair0} {score0} : {score1} {pair1}").format(
        target=target, pair0=pair0, pair1=pair1, score0=scores[0], score1=scores[1]
    )


class _Hosting:
    """The server on its own event loop in a thread, so the app can run in this one."""

    def __init__(self, options: HostOptions, defer: bool = False) -> None:
        self.options = options
        self.defer = defer
        """With unfinished tables, leave the choice to the host's app (``choose``)."""
        self.unfinished: list[Table] = []
        """The unfinished tables the app chooses among (``defer``), the last played first."""
        self.about: list[UnfinishedTable] = []
        """The same tables as the app's list shows them."""
        self.loop = asyncio.new_event_loop()
        self.ready = threading.Event()
        self.done = threading.Event()
        """Set when the host's loop has finished (its SSH players' terminals reset, its
        saves written). Waited on instead of ``Thread.join``: a join that Ctrl-C interrupted
        can return at once the next time, and the process would end mid-shutdown."""
        self.server: Server | None = None
        self.error: BaseException | None = None
        self.lines: list[str] = []
        self.invite: list[str] = []
        """The lines about the table and how to join it: printed, and shown at the table."""
        self.lead: str | None = None
        self.code: str | None = None
        self._stop: asyncio.Event | None = None
        self.thread = threading.Thread(target=self._run, name="bela-host", daemon=True)

    def _tell(self, line: str) -> None:
        self.lines.append(line)
        self.invite.append(line)

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        try:
            self.loop.run_until_complete(self._main())
        except BaseException as exc:  # told to the main thread, which says it in one line
            self.error = exc
            self.ready.set()
        finally:
            self.done.set()

    async def _main(self) -> None:
        from bela.engine import Rules
        from bela.net.faults import FaultLog
        from bela.net.saves import TableSaver, load_tables
        from bela.net.server import Server, ServerOptions

        opts = self.options
        from bela.foundation.slot_lock import SlotLock
        from bela.net.saves import tables_dir

        tables_dir().mkdir(parents=True, exist_ok=True)
        self.lock = SlotLock(tables_dir() / ".host.lock")
        if not self.lock.acquire():  # two hosts would both resume, and save, the same tables
            raise HostBusyError(
                _(
                    "another bela host is running on this data directory "
                    "(BELA_DATA_DIR chooses another)"
                )
            )
        server = Server(
            ServerOptions(
                difficulty=opts.bots or "easy",
                target=opts.target or 1001,
                rules=Rules(),
                wait=opts.wait,
                bot_delay=opts.bot_delay,
                clock=opts.clock,
            ),
            TableSaver(),
            faults=FaultLog(write=_log_line if opts.play else None),
        )
        self.server = server
        saved, problems = load_tables()
        self.lines.extend(f"bela: {p}" for p in problems)
        resumed = [server.resume_table(save, match) for save, match in saved]
        # a match the last host could not archive is archived now, not offered to resume
        tables = [t for t in resumed if t.match is None or not t.match.is_over]
        played = {t.table_id: _last_played(server, t) for t in tables}
        tables.sort(key=lambda t: -(played[t.table_id] or 0.0))  # the last played first
        deferring = self.defer and bool(tables)
        for table in tables:  # printed; told at the table too, unless the app lists them
            line = _("Unfinished table: join code {code} ({about})").format(
                code=table.code, about=_about(table)
            )
            self.lines.append(line)
            if not deferring:
                self.invite.append(line)
        chosen: Table | None = None
        if deferring:  # the host's app asks which (``choose``)
            self.unfinished = tables
            self.about = [_unfinished(t, played[t.table_id]) for t in tables]
        else:
            chosen = self._choose(server, tables, opts)
        bind = "0.0.0.0" if opts.public else "127.0.0.1"
        _bound, port = await server.listen(bind, opts.port)
        self.port = port
        door = None
        if opts.ssh is not None:
            from bela.net.ssh import start_ssh

            door = await start_ssh(server, bind, opts.ssh, port)
        if chosen is not None:
            self._sit(chosen)
        self._stop = asyncio.Event()
        self.ready.set()
        await self._stop.wait()
        if door is not None:  # the SSH players' apps end, and their terminals are reset
            door.close()
            await door.wait_closed()
        await server.close()

    def _sit(self, table: Table) -> None:
        """The host's app sits at ``table``: how friends join it, printed and told at the
        table."""
        opts = self.options
        self.lead, self.code = table.leader_key, table.code
        where = f"{_shown_host(opts.public)}:{self.port}"
        self._tell(
            _("Table open at {address}  join code: {code}").format(address=where, code=table.code)
        )
        # one line a friend pastes as it is (their settings or login name them; --name another)
        self._tell(join_line(where, table.code))
        if opts.ssh is not None:
            name = _("NAME")  # what to replace with one's name, in the reader's language
            self._tell(
                _("Or over SSH:  {command}  (password: {code})").format(
                    command=f"ssh -p {opts.ssh} {name}@{_shown_host(opts.public)}",
                    code=table.code,
                )
            )
        if not opts.public:
            self._tell(_("(only this machine can join: add --public for the network)"))

    def choose(self, code: str | None) -> tuple[str, str, tuple[str, ...]]:
        """The host's app chose (``defer``): the unfinished table ``code``, or a new one
        (None). Returns its code, leader key and the lines that say how to join it;
        ``HostChoiceError`` when it cannot be (the app says why and asks again)."""
        future = asyncio.run_coroutine_threadsafe(self._choose_now(code), self.loop)
        return future.result(timeout=30)

    async def _choose_now(self, code: str | None) -> tuple[str, str, tuple[str, ...]]:
        assert self.server is not None
        if self.code is not None:
            raise HostChoiceError(_("the host's table is chosen already"))
        opts = replace(self.options, new=code is None, resume=code)
        table = self._choose(self.server, self.unfinished, opts)
        self._sit(table)
        assert self.lead is not None
        return table.code, self.lead, tuple(self.invite)

    def _choose(self, server: Server, tables: list[Table], opts: HostOptions) -> Table:
        """The table the host plays at: a new one (none unfinished, or ``--new``), else
        the one ``--resume`` names or the last played. Every unfinished table stays open
        for its players either way; which one it is, is said. Options that would not
        apply to the table resumed are an error, never silently ignored."""
        if opts.resume is not None and opts.new:
            raise HostChoiceError(_("--resume and --new do not go together: choose one"))
        if not tables or opts.new:
            if opts.resume is not None:
                raise HostChoiceError(
                    _("there is no unfinished table to resume: leave out --resume")
                )
            table = server.new_table()
            if tables:
                self._tell(_("A new table (the unfinished ones stay open for their players)."))
            return table
        if opts.resume is None:
            table = tables[0]
        else:
            from bela.net.server import normal_code

            wanted = normal_code(opts.resume)
            found = [t for t in tables if normal_code(t.code) == wanted]
            if not found:
                raise HostChoiceError(
                    _("no unfinished table has the join code {code}").format(
                        code=shown(opts.resume, 20)
                    )
                )
            table = found[0]
        ignored = []
        if opts.target is not None and opts.target != table.target:
            ignored.append(f"--target {opts.target}")
        if opts.bots is not None and opts.bots != table.difficulty:
            ignored.append(f"--bots {opts.bots}")
        if ignored:
            raise HostChoiceError(
                _(
                    "{options} would not apply to the unfinished table {code} ({about}): "
                    "add --new to start a new table with it, or leave it out to resume"
                ).format(options=" ".join(ignored), code=table.code, about=_about(table))
            )
        self._tell(
            _("Resuming the table {code} ('bela host --new' starts a new one).").format(
                code=table.code
            )
        )
        return table

    def start(self) -> None:
        self.thread.start()
        self.ready.wait()
        if self.error is not None:
            raise self.error

    def stop(self) -> None:
        stop = self._stop
        if stop is not None:
            self.loop.call_soon_threadsafe(stop.set)
        self.done.wait(timeout=10)


def host_choice(hosting: _Hosting) -> HostChoice:
    """The host's app's choice among ``hosting``'s unfinished tables (``defer``)."""
    from bela.net.seat_session import RemoteSession
    from bela.tui.screens.host_choice import ChoiceError, HostChoice

    def choose(code: str | None) -> RemoteSession:
        try:
            chosen, lead, invite = hosting.choose(code)
        except HostChoiceError as exc:
            raise ChoiceError(oneline(exc)) from None
        name = hosting.options.name
        return RemoteSession("127.0.0.1", hosting.port, chosen, name, lead=lead, invite=invite)

    return HostChoice(tuple(hosting.about), choose)


def run_host(options: HostOptions, out: TextIO, err: TextIO) -> int:
    """Host a table; play at it in the app unless ``--no-play``."""
    plain = options.play and _plain(options.plain)
    # with unfinished tables, the host's app asks which one to sit at (or a new one); the
    # plain seat sits at the last played, as --resume without a code
    hosting = _Hosting(
        options,
        defer=options.play and not plain and not options.new and options.resume is None,
    )
    try:
        hosting.start()
    except HostBusyError as exc:
        raise CliError(oneline(exc), EXIT_ENVIRONMENT) from None
    except HostChoiceError as exc:
        hosting.stop()
        raise CliError(oneline(exc)) from None
    except OSError as exc:
        raise CliError(
            _("cannot host on port {port}: {reason}").format(
                port=options.port, reason=oneline(exc)
            ),
            EXIT_ENVIRONMENT,
        ) from None
    except ImportError as exc:
        raise CliError(
            _("{reason}: install the 'net' extra (pip install 'croatian-bela[net]')").format(
                reason=oneline(exc)
            ),
            EXIT_ENVIRONMENT,
        ) from None
    for line in hosting.lines:
        print(line, file=out, flush=True)
    try:
        if not options.play:
            print(_("Hosting until Ctrl-C."), file=out, flush=True)
            hosting.done.wait()
            return 0
        if plain:
            from bela.cli.plain_seat import run_plain_seat
            from bela.net.seat_session import RemoteSession as PlainSession

            assert hosting.code is not None
            seat = PlainSession(
                "127.0.0.1",
                hosting.port,
                hosting.code,
                options.name,
                lead=hosting.lead,
                invite=tuple(hosting.invite),
            )
            return run_plain_seat(seat, sys.stdin, out, options.words, hosting=True)
        from bela.net.seat_session import RemoteSession
        from bela.tui.app import BelaApp

        if hosting.code is None:  # unfinished tables here: the app asks which
            app = BelaApp(
                host_choice=host_choice(hosting), language=current_language(), deck=current_deck()
            )
        else:
            invite = tuple(hosting.invite)
            session = RemoteSession(
                "127.0.0.1",
                hosting.port,
                hosting.code,
                options.name,
                lead=hosting.lead,
                invite=invite,
            )
            # --lang and --deck as chosen (else the settings')
            app = BelaApp(remote=session, language=current_language(), deck=current_deck())
        app.run()
        return app.return_code or 0
    finally:
        hosting.stop()


# ---------------------------------------------------------------------- bela join


def run_join(options: JoinOptions, out: TextIO, err: TextIO) -> int:
    """Open the app as a seat at the table at ``ADDRESS``."""
    from bela.net.client import parse_address

    try:
        host, port = parse_address(options.address)
    except ValueError as exc:
        raise CliError(
            _("bad address {address}: {reason}").format(
                address=shown(options.address), reason=oneline(exc)
            )
        ) from None
    if options.watch and options.plain:
        raise CliError(_("--watch is not in plain mode yet: leave out --plain to watch"))
    if not options.watch and _plain(options.plain):
        from bela.cli.plain_seat import run_plain_seat
        from bela.net.seat_session import RemoteSession as PlainSession

        seat = PlainSession(
            host, port, options.code, options.name, keep=not options.fresh, record=options.record
        )
        return run_plain_seat(seat, sys.stdin, out, options.words)
    from bela.net.seat_session import RemoteSession
    from bela.tui.app import BelaApp

    session = RemoteSession(
        host,
        port,
        options.code,
        options.name,
        keep=not options.fresh and not options.watch,
        record=options.record and not options.watch,  # a watcher keeps no copy
        watch=options.watch,
    )
    # the language and the deck the command line chose (--lang, --deck), else the settings'
    # (a guest of an SSH door: its own, guest_env's config directory), else the defaults
    app = BelaApp(remote=session, language=current_language(), deck=current_deck())
    app.run()
    return app.return_code or 0


# ---------------------------------------------------------------------- bela serve


def run_serve(options: ServeOptions, out: TextIO, err: TextIO) -> int:
    """The app in a browser: textual-serve runs ``bela play`` for each page opened."""
    import shlex

    optional_module(  # says how to install it when it is missing
        "textual_serve.server", "the browser server (pip install 'croatian-bela[net]')"
    )
    host = "0.0.0.0" if options.public else "127.0.0.1"
    shown_host = _shown_host(options.public)
    if options.join is None:
        command = shlex.join([sys.executable, "-m", "bela", "play"])
    else:  # a seat each tab: new seats, as the tabs share this machine's kept tokens
        address, code = options.join
        command = shlex.join(
            [sys.executable, "-m", "bela", "join", address, code, "--name", options.name, "--fresh"]
        )
    from bela.net.web_door import guarded_server, new_page_key

    key = new_page_key()  # the page is served only at the address printed here
    base = f"http://{shown_host}:{options.port}"
    server = guarded_server(command, host, options.port, base, key, options.tabs)
    print(
        _("Open {url} in a browser (Ctrl-C stops).").format(url=f"{base}/?key={key}"),
        file=out,
        flush=True,
    )
    print(
        ngettext(
            "Only that address opens the page, and {n} page at a time.",
            "Only that address opens the page, and {n} pages at a time.",
            options.tabs,
        ).format(n=options.tabs),
        file=out,
        flush=True,
    )
    server.serve()
    return 0
