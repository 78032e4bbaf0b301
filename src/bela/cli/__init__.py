"""The ``bela`` command: ``play`` (the default), ``replay``, ``analyze``, ``arena``,
``ladder``, ``history``, ``stats``, ``coach``, ``review``, ``puzzles``, and ``host``, ``join`` and
``serve`` (play with friends).

``main`` is the console-script entry point. Every failure ends with one line on
stderr, never a traceback, and an exit code:

- 2: bad input of any kind (arguments, a record file);
- 1: not the input's fault: a part of bela that is not built yet (the app, the
  arena), or an output that cannot be written ("bela: error: cannot write the
  output: No space left on device"), or another error from the operating system;
- 0 also when the reader of a pipe has gone (``bela replay ... | head``): it has
  what it wanted, so there is no message;
- 130: interrupted with Ctrl-C.

Messages quote outside text escaped and cut short (``bela.foundation.untrusted``), and the
line printed here goes through ``oneline`` as a last net. Standard output
is flushed inside ``main``, so a write that fails only at the flush is still
reported here; after a failed write stdout is pointed at /dev/null, so the
interpreter's own flush at exit cannot print "Exception ignored" after us.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Sequence
from typing import TextIO

from bela.cli.common import EXIT_ENVIRONMENT, CliError, OutputError, writing_output
from bela.cli.options import ArenaOptions, PlayOptions, ReplayOptions, parse
from bela.foundation.untrusted import MESSAGE_LIMIT, oneline
from bela.i18n import _, set_language

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``bela`` with ``argv`` (default: the process's arguments) and return the exit code."""
    out, err = sys.stdout, sys.stderr
    args = sys.argv[1:] if argv is None else argv
    try:
        choose_language(args)
        code = _run(args, out, err)
        with writing_output():
            out.flush()
        return code
    except CliError as exc:
        _say(err, _("bela: error: {message}").format(message=oneline(exc, MESSAGE_LIMIT)))
        return exc.code
    except KeyboardInterrupt:
        _say(err, _("bela: interrupted"))
        return 130
    except OutputError as exc:
        _silence(out)
        if isinstance(exc.cause, BrokenPipeError):  # e.g. `bela replay ... | head`
            return 0
        _say(
            err,
            _("bela: error: cannot write the output: {message}").format(
                message=oneline(exc, MESSAGE_LIMIT)
            ),
        )
        return EXIT_ENVIRONMENT
    except OSError as exc:  # not our output: a fork refused, a device gone, ...
        _say(err, _("bela: error: {message}").format(message=oneline(exc, MESSAGE_LIMIT)))
        return EXIT_ENVIRONMENT


def choose_language(argv: Sequence[str]) -> str:
    """Speak ``--lang`` if the command line names a shipped language, else the settings',
    else the environment's (``bela.i18n``); argparse's own words follow. The deck
    (``--deck``, else the settings') is chosen here too.

    Read before parsing, since the parser's help and errors are already in words;
    a ``--lang`` that is not shipped is left for argparse to refuse.
    """
    from bela.cli.argparse_words import use_bela_catalog
    from bela.deck import DECKS, set_deck
    from bela.settings import saved_deck, saved_language

    wanted: str | None = None
    deck: str | None = None
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(argv):
            wanted = argv[i + 1]
        elif arg.startswith("--lang="):
            wanted = arg.split("=", 1)[1]
        elif arg == "--deck" and i + 1 < len(argv):
            deck = argv[i + 1]
        elif arg.startswith("--deck="):
            deck = arg.split("=", 1)[1]
    use_bela_catalog()
    # the cards as named and drawn (bela.deck): --deck, else the settings'; a --deck that
    # is not a deck is left for argparse to refuse
    set_deck(deck if deck in DECKS else saved_deck())
    return set_language(wanted, saved_language())


def _run(argv: Sequence[str], out: TextIO, err: TextIO) -> int:
    """Parse ``argv`` and run the command; ``main`` turns what goes wrong into one line."""
    try:
        with writing_output():  # --help and --version write to stdout
            options = parse(argv)
    except SystemExit as exc:  # argparse: --help, --version, or a one-line usage error
        return exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 2
    if isinstance(options, PlayOptions):
        from bela.cli.play import run_play

        return run_play(options, out, err)
    if isinstance(options, ReplayOptions):
        from bela.cli.replay import run_replay

        name_bots()
        return run_replay(options, out, err)
    if isinstance(options, ArenaOptions):
        from bela.cli.arena import run_arena_command

        return run_arena_command(options, out, err)
    return _run_elsewhere(options, out, err)


def name_bots() -> None:
    """Name the bots' seats as the player named them in the app (settings), for the
    commands that show a match: ``replay``, ``analyze`` and ``puzzles``."""
    from bela.settings import saved_bot_names
    from bela.wording import set_bot_names

    set_bot_names(saved_bot_names())


def _run_elsewhere(options: object, out: TextIO, err: TextIO) -> int:
    """Run a command whose options class lives with the command.

    Only the named command's module is imported (``parse`` imported it already): the
    start screen does not load the network, the lab or the archive's readers (issue #26).
    """
    command = type(options).__module__
    if command == "bela.cli.analyze":
        from bela.cli.analyze import AnalyzeOptions, run_analyze

        name_bots()
        assert isinstance(options, AnalyzeOptions)
        return run_analyze(options, out, err)
    if command == "bela.cli.ladder":
        from bela.cli.ladder import LadderOptions, run_ladder_command

        assert isinstance(options, LadderOptions)
        return run_ladder_command(options, out, err)
    if command == "bela.cli.history":
        from bela.cli.history import HistoryOptions, StatsOptions, run_history, run_stats

        if isinstance(options, HistoryOptions):
            return run_history(options, out, err)
        assert isinstance(options, StatsOptions)
        return run_stats(options, out, err)
    if command == "bela.cli.lab":
        from bela.cli.lab import LabOptions, run_lab

        assert isinstance(options, LabOptions)
        return run_lab(options, out, err)
    if command == "bela.cli.coach":
        from bela.cli.coach import CoachOptions, run_coach

        assert isinstance(options, CoachOptions)
        return run_coach(options, out, err)
    if command == "bela.cli.review":
        from bela.cli.review import ReviewOptions, run_review

        assert isinstance(options, ReviewOptions)
        name_bots()
        return run_review(options, out, err)
    if command == "bela.cli.puzzles":
        from bela.cli.puzzles import PuzzlesOptions, run_puzzles

        assert isinstance(options, PuzzlesOptions)
        name_bots()
        return run_puzzles(options, out, err)
    if command == "bela.cli.online":
        from bela.cli.online import (
            AdminOptions,
            OnlineOptions,
            ServerCommandOptions,
            run_admin,
            run_online,
            run_server,
        )

        if isinstance(options, AdminOptions):
            return run_admin(options, out, err)
        if isinstance(options, OnlineOptions):
            return run_online(options, out, err)
        assert isinstance(options, ServerCommandOptions)
        return run_server(options, out, err)
    from bela.cli.net import HostOptions, JoinOptions, ServeOptions, run_host, run_join, run_serve

    if isinstance(options, HostOptions):
        return run_host(options, out, err)
    if isinstance(options, JoinOptions):
        return run_join(options, out, err)
    assert isinstance(options, ServeOptions)
    return run_serve(options, out, err)


def _say(err: TextIO, line: str) -> None:
    """Print ``line`` on stderr; if stderr is broken too there is nobody left to tell."""
    with contextlib.suppress(OSError):
        print(line, file=err, flush=True)


def _silence(out: TextIO) -> None:
    """Point stdout at /dev/null after a failed write, as the Python docs advise for SIGPIPE.

    What is still buffered would fail again when the interpreter flushes at exit
    and print "Exception ignored ..." after our one line.
    """
    try:
        fileno = out.fileno()
    except (OSError, ValueError):  # not a real file (a test's capture): nothing to flush at exit
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, fileno)
    finally:
        os.close(devnull)


if __name__ == "__main__":
    raise SystemExit(main())
