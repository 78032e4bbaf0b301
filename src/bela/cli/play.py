"""``bela play``: hand the validated options to the Textual app, or to the plain mode
(``--plain``, or a terminal the app cannot run in: ``bela.cli.plain``)."""

from __future__ import annotations

import os
import sys
from typing import TextIO

from bela.cli.common import (
    EXIT_UNAVAILABLE,
    CliError,
    optional_module,
    resolve_difficulty,
    writing_output,
)
from bela.cli.options import PlayOptions
from bela.foundation.untrusted import oneline
from bela.i18n import _

__all__ = ["run_play", "seeds_line", "wants_plain"]


def run_play(options: PlayOptions, out: TextIO, err: TextIO) -> int:
    """Start the app; it reports its own exit code.

    The app takes ``start_round`` as the 0-based index of the first deal (the
    engine's ``Match.start_index``), so ``--round N`` becomes ``N - 1``.

    The seed is named after the app exits, and it is the seed of the match
    actually played: the start screen lets the player change the seed, so the
    one chosen here may never be dealt (issue #12). A random seed chosen here is
    not announced beforehand for the same reason; the app shows it on the start
    screen and in the table talk.
    """
    if wants_plain(options.plain, sys.stdin, out, dict(os.environ)):
        from bela.cli.plain import run_plain  # the engine and the talk: only when plain

        if options.resume:
            _check_resumable()
        return run_plain(options, sys.stdin, out, err)
    from bela.ai import BOT_KINDS

    kind: str | None = None
    notice: str | None = None
    if options.difficulty is not None:
        kind, notice = resolve_difficulty(options.difficulty, BOT_KINDS)
    app = optional_module("bela.tui", _("the terminal app"))
    run_app = getattr(app, "run_app", None)
    if run_app is None:
        raise CliError(_("the terminal app is not available yet"), EXIT_UNAVAILABLE)
    if options.resume:
        _check_resumable()
    if notice is not None:
        print(f"bela: {notice}", file=err)
    played: list[int] = []
    settings: dict[str, object] = {}
    if options.rules is not None:  # only when given: the app chooses otherwise
        settings["rules"] = options.rules
    if options.lang is not None:
        settings["language"] = options.lang
    if options.deck is not None:
        settings["deck"] = options.deck
    code = run_app(
        target=options.target,
        seed=options.seed,
        difficulty=kind,
        start_round=options.round - 1,
        resume=options.resume,
        played=played,
        **settings,
    )
    if played:
        with writing_output():
            print(seeds_line(played), file=out, flush=True)
    return int(code) if code is not None else 0


def wants_plain(given: bool, stdin: TextIO, stdout: TextIO, env: dict[str, str]) -> bool:
    """Whether ``bela play`` plays in plain mode: asked for (``--plain``), or a terminal the
    app cannot run in: ``TERM=dumb`` (Emacs' shell, some SSH clients), or input or output that
    is not a terminal (a pipe, a file, a screen reader's own console). Under another Textual
    driver (``TEXTUAL_DRIVER``: ``bela serve``'s browser runs ``bela play`` through pipes) it is
    the app."""
    if given:
        return True
    if env.get("TEXTUAL_DRIVER"):
        return False
    if env.get("TERM", "") == "dumb":
        return True
    try:
        return not (stdin.isatty() and stdout.isatty())
    except (AttributeError, ValueError):  # a closed or odd stream: no app there either
        return True


def seeds_line(seeds: list[int]) -> str:
    """What the command line says about the seeds of the matches played, after the app.

    A seed deals the same cards again (``bela play --seed N --new``); it does not
    replay the player's own choices (``bela replay --seed N`` is the bots' match of
    that seed). The player's match itself is in the history, replayable from its file.
    """
    if len(seeds) == 1:
        return _(
            "bela: your match used seed {seed} (the same cards: bela play --seed {seed} --new; "
            "your match: bela history)"
        ).format(seed=seeds[0])
    listed = ", ".join(str(seed) for seed in seeds)
    return _(
        "bela: your matches used seeds {seeds} (the same cards: bela play --seed N --new; "
        "your matches: bela history)"
    ).format(seeds=listed)


def _check_resumable() -> None:
    """``--resume`` needs a saved, unfinished match; say so before the app starts."""
    from bela.archive.records import RecordError
    from bela.archive.storage import claim_slot, load_autosave

    try:
        claim_slot()  # the slot the app will use: a second window has its own
        record = load_autosave()
    except RecordError as exc:
        raise CliError(str(exc)) from None
    except OSError as exc:
        reason = oneline(exc.strerror or exc)  # str(exc) names the file, unescaped
        raise CliError(_("cannot read the saved match: {error}").format(error=reason)) from None
    if record is None:
        raise CliError(_("there is no unfinished match to resume"))
