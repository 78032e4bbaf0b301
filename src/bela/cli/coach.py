"""``bela coach``: where your written points went, over your archived matches.

Each finished match is read once by the coach (``bela.lab.coach``: every card of
yours from trick 3 on against the best play with all cards seen, and against the
hard bot's own values from only your view; your calls that fell, pod mus included; each
dalje, and each suit named pod mus, that the hard bot's bid search finds clearly
worth less than another choice) and the lesson is kept in the history database
(``bela.archive.coach_cache``), so the report over a hundred matches opens at once
the second time. The first reading shows a progress bar and spreads over ``--jobs``
worker processes. What is read (``bela.coach_reading``) and how the report reads
(``bela.lab.coach_text``) are built below the command line, for the app too.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from typing import Any, TextIO

from bela.cli.common import output_console, worker_jobs, writing_output
from bela.foundation.untrusted import json_for_terminal, shown
from bela.i18n import _

__all__ = [
    "CoachOptions",
    "add_coach_parser",
    "coach_options",
    "run_coach",
]

DEFAULT_LAST = 100
MAX_LAST = 10_000


@dataclass(frozen=True, slots=True)
class CoachOptions:
    """``bela coach``: the last ``last`` finished matches; ``bot``: compare with the hard bot."""

    last: int
    bot: bool
    jobs: int | None
    json: bool


def _count(text: str) -> int:
    from bela.cli.options import whole_number

    number = whole_number(text)
    if number is None or not 1 <= number <= MAX_LAST:
        raise argparse.ArgumentTypeError(
            _("expected a whole number of at least {least} and at most {most}, not {text}").format(
                least=1, most=f"{MAX_LAST:,}", text=shown(text)
            )
        )
    return number


def add_coach_parser(commands: Any) -> argparse.ArgumentParser:
    """Add ``coach`` to argparse's subparsers ``commands``."""
    from bela.cli.options import COMMANDS

    coach: argparse.ArgumentParser = commands.add_parser(
        "coach",
        help=_(COMMANDS["coach"]),
        description=_(
            "Read your finished matches as a coach would: every card you played from trick 3 on "
            "against the best play with all cards seen, and against the hard bot's card with "
            "only your view; by your place in the trick, by trick, in bidding (called and fell, "
            "pod mus, dalje when calling was clearly worth more), over time, and your three "
            "costliest habits with an example each. Each match is read once and kept in the "
            "history database."
        ),
        epilog=_("examples: bela coach | bela coach --last 20 --no-bot --json"),
        allow_abbrev=False,
    )
    coach.add_argument(
        "--last",
        type=_count,
        metavar="N",
        default=DEFAULT_LAST,
        help=_("the last N finished matches (default {n})").format(n=DEFAULT_LAST),
    )
    coach.add_argument(
        "--no-bot",
        action="store_true",
        help=_(
            "leave out the hard bot's judging of your cards and bids (much faster the first time)"
        ),
    )
    coach.add_argument(
        "--jobs",
        type=_count,
        metavar="J",
        help=_("worker processes for the first reading (default: the usable CPUs)"),
    )
    coach.add_argument("--json", action="store_true", help=_("print JSON for machines"))
    return coach


def coach_options(args: argparse.Namespace) -> CoachOptions:
    return CoachOptions(last=args.last, bot=not args.no_bot, jobs=args.jobs, json=args.json)


# ---------------------------------------------------------------------- running


def run_coach(options: CoachOptions, out: TextIO, err: TextIO) -> int:
    from bela.cli.history import _open
    from bela.coach_reading import gather_lessons
    from bela.lab.coach_text import render_report, report_json

    with _open(err) as history:
        jobs = worker_jobs(options.jobs, err)
        lessons = gather_lessons(history, options.last, options.bot, jobs, err)
        matches_dir = history.matches_dir
    if not lessons:
        # nothing to read yet is no error: a fresh install runs the README's line too
        with writing_output():
            print(_("the archive has no finished match yet: play one first"), file=out)
        return 0
    from bela.lab.coach import report

    result = report(lessons)
    if options.json:
        with writing_output():
            text = json.dumps(report_json(result, options.bot), ensure_ascii=False, indent=2)
            print(json_for_terminal(text), file=out)
        return 0
    with writing_output():
        output_console(out).print(render_report(result, options.bot, matches_dir))
    return 0
